import type { Position, Range } from '../types.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import type { CompletionEntry } from './types.ts';
import type { FieldSpec, SectionSpec } from '../schema/sections.ts';
import { SECTIONS, fieldForLabel } from '../schema/sections.ts';
import { sectionAt } from './position.ts';
import { annotation, enumDescriptions } from '../schema/schemaAt.ts';
import { lineIndexOf } from '../model/text.ts';
import { referencesOf } from '../model/references.ts';
import { RULES } from '../validate/catalogue.ts';
import { schemaDocs, type FeatureOptions } from './hover.ts';
import type { NameKind } from '../schema/sections.ts';
import { format } from '../l10n/format.ts';
import { ruleDocId } from '../validate/messages.ts';
import { labelOf, sectionSnippets, toolSnippet } from './snippets.ts';

const r = (line: number, from: number, to: number): Range => ({ start: { line, character: from }, end: { line, character: to } });

function fieldEntries(fields: readonly FieldSpec[], range: Range, lang: string, asYaml: boolean): CompletionEntry[] {
  return fields.map((f, i) => {
    const label = asYaml ? f.key : labelOf(f);
    return {
      label,
      kind: 'field',
      detail: annotation(f.schema, 'title', lang) ?? f.key,
      documentation: schemaDocs(f.schema, f.key, lang),
      insertText: asYaml ? `${f.key}: ` : `**${label}**: `,
      range,
      sortText: String(i).padStart(3, '0'),
      ...(asYaml ? {} : { filterText: `**${label}` }),
    };
  });
}

function valueEntries(field: FieldSpec, model: ParsedContract, range: Range, lang: string): CompletionEntry[] {
  const en = field.schema['enum'] as unknown[] | undefined;
  if (en) {
    const d = enumDescriptions(field.schema, lang);
    return en.map((v, i) => ({ label: String(v), kind: 'value', ...(d[i] ? { documentation: d[i] } : {}), insertText: String(v), range }));
  }
  if (field.types.includes('boolean')) return ['true', 'false'].map((v) => ({ label: v, kind: 'value', insertText: v, range }));
  if (field.reference) return nameEntries(model, [field.reference], range, false, lang);
  return [];
}

function nameEntries(model: ParsedContract, kinds: readonly NameKind[], range: Range, wrap: boolean, lang: string): CompletionEntry[] {
  const refs = referencesOf(model);
  const out: CompletionEntry[] = [];
  for (const kind of kinds) {
    for (const d of refs.names.get(kind)?.values() ?? []) {
      out.push({ label: d.name, kind: 'reference', detail: format(`completion.name.${kind}`, { line: d.range.start.line + 1 }, lang), insertText: wrap ? `\`${d.name}\`` : d.name, range });
    }
  }
  return out;
}

/** The fields that apply at a line: a TOOLS/MEMORY_POOLS item's under an item H3, else the section's. */
function fieldsAt(model: ParsedContract, spec: SectionSpec, line: number, sectionStart: number): readonly FieldSpec[] {
  if (spec.shape === 'object') return spec.fields;
  const section = sectionAt(model, { line, character: 0 });
  const h3 = section?.headings.filter((h) => h.depth === 3 && h.range.start.line < line && h.range.start.line > sectionStart).pop();
  return spec.headingItems ? (h3 ? spec.fields : []) : spec.fields;
}

/**
 * On an empty line: the fields of the section the line is in (as `- **Label**: ` bullets), a
 * tool's skeleton in TOOLS, and a snippet of each section, so an empty or new contract gets help.
 */
function emptyLine(model: ParsedContract, position: Position, lang: string): CompletionEntry[] {
  const section = sectionAt(model, position);
  const spec = section?.kind === 'section' ? section.spec : undefined;
  const range = r(position.line, position.character, position.character);
  const present = new Set<string>(model.sections.flatMap((s) => (s.spec ? [s.spec.key] : [])));
  const today = new Date().toISOString().slice(0, 10);
  const own: CompletionEntry[] = [];
  if (spec?.key === 'tools') own.push(toolSnippet(range, lang, new Set(referencesOf(model).names.get('tool')?.keys() ?? [])));
  else if (spec?.shape === 'object' && section) {
    own.push(...fieldEntries(fieldsAt(model, spec, position.line, section.startLine), range, lang, false).map((e) => ({ ...e, insertText: `- ${e.insertText}`, filterText: e.label })));
  }
  return [...own, ...sectionSnippets(present, range, lang, today)];
}

/**
 * Completion at a position, from the model and the schemas: on an empty line, the current
 * section's fields and a snippet per section (and for a tool); section titles after `## `;
 * field labels after `- ` (and `**Label**: ` is inserted); enum values, booleans and declared
 * names after a label or a YAML key; YAML keys inside fenced blocks; declared tools, pools and
 * entities inside backticks; `extracted_<entity>` after `{{`; rule codes in `agents-md-*` comments.
 */
export function completion(model: ParsedContract, position: Position, options: FeatureOptions = {}): CompletionEntry[] {
  const lang = options.lang ?? 'en';
  const lineText = lineIndexOf(model).lineText(position.line);
  const before = lineText.slice(0, position.character);
  const line = position.line;

  let m = /<!--\s*agents-md-[a-z-]*\s+(?:[a-z0-9-]+[\s,]+)*([a-z0-9-]*)$/.exec(before);
  if (m) {
    const range = r(line, position.character - m[1]!.length, position.character);
    return RULES.map((rule) => ({ label: rule.code, kind: 'rule', detail: format(`severity.${rule.severity}`, {}, lang), documentation: format(ruleDocId(rule.code, 'summary'), {}, lang), insertText: rule.code, range }));
  }

  m = /^ {0,3}##[ \t]+([^#]*)$/.exec(before);
  if (m) {
    // A section the contract already has elsewhere is not offered: accepting it would make a
    // duplicate-section (a misspelt `## TOOSL` below TOOLS is a section to merge, not to rename).
    const elsewhere = new Set(model.sections.filter((s) => s.titleRange?.start.line !== line).map((s) => s.spec?.key).filter(Boolean));
    const range = r(line, position.character - m[1]!.length, lineText.length);
    return SECTIONS.flatMap((s) =>
      elsewhere.has(s.key)
        ? []
        : [{ label: s.title, kind: 'section' as const, detail: annotation(s.schema, 'title', lang) ?? s.title, documentation: schemaDocs(s.schema, undefined, lang), insertText: s.title, range }],
    );
  }

  m = /\{\{\s*([\p{L}\p{N}_]*)$/u.exec(before);
  if (m) {
    const range = r(line, position.character - m[1]!.length, position.character);
    const close = lineText.slice(position.character).startsWith('}}') ? '' : '}}';
    const entities = [...(referencesOf(model).names.get('entity')?.keys() ?? [])];
    return [
      ...entities.map((e) => ({ label: `extracted_${e}`, kind: 'variable' as const, detail: format('completion.entityVariable', { entity: e }, lang), insertText: `extracted_${e}${close}`, range })),
      { label: 'query', kind: 'variable', detail: format('completion.queryVariable', {}, lang), insertText: `query${close}`, range },
    ];
  }

  const section = sectionAt(model, position);
  const spec = section?.spec;
  const inFence = section?.fences.some((f) => f.range.start.line < line && line < f.range.end.line) ?? false;
  if (!inFence && lineText.trim() === '') return emptyLine(model, position, lang);
  if (!section || !spec) return [];

  const fields = fieldsAt(model, spec, line, section.startLine);
  if ((before.match(/`/g) ?? []).length % 2 === 1) {
    // Names may be CJK (docs/localisation.md): the word before the cursor is any letters and digits.
    const word = /([\p{L}\p{N}_.-]*)$/u.exec(before)![1]!;
    // After a label that refers to one kind of name (`**Requires Approval**: `), only that kind.
    const label = /^\s*[-*+]\s+\*\*(.+?)\*\*\s*[:：]/.exec(before)?.[1];
    const kind = label ? fieldForLabel(fields, label)?.reference : undefined;
    return nameEntries(model, kind ? [kind] : ['tool', 'pool', 'entity', 'layer'], r(line, position.character - word.length, position.character), false, lang);
  }

  if (inFence) {
    if (!section.fences.some((f) => f.range.start.line < line && line < f.range.end.line && /^(ya?ml|json)$/i.test(f.lang))) return [];
    m = /^(\s*(?:-\s+)?)([\w]*)$/.exec(before);
    if (m) return fieldEntries(fields, r(line, m[1]!.length, position.character), lang, true);
    m = /^\s*(?:-\s+)?([\w]+):\s*([\w-]*)$/.exec(before);
    if (m) {
      const f = fieldForLabel(fields, m[1]!) ?? fieldForLabel(spec.fields, m[1]!);
      return f ? valueEntries(f, model, r(line, position.character - m[2]!.length, position.character), lang) : [];
    }
    return [];
  }

  m = /^(\s*[-*+]\s+)(\*{0,2}[^*:：]*)$/.exec(before);
  if (m) return fieldEntries(fields, r(line, m[1]!.length, position.character), lang, false);

  m = /^\s*[-*+]\s+\*\*(.+?)\*\*\s*[:：]\s*([\p{L}\p{N}_-]*)$/u.exec(before);
  if (m) {
    const f = fieldForLabel(fields, m[1]!);
    return f ? valueEntries(f, model, r(line, position.character - m[2]!.length, position.character), lang) : [];
  }
  return [];
}
