import type { Position } from '../types.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import type { HoverResult } from './types.ts';
import type { WorkspaceFacts } from '../validate/facts.ts';
import type { JsonSchema } from '../schema/schemas.ts';
import { contains, modelAt, sectionAt } from './position.ts';
import { annotation, enumDescriptions, schemaAt } from '../schema/schemaAt.ts';
import { referencesOf, type Declaration } from '../model/references.ts';
import { normaliseName } from '../model/names.ts';
import { ruleByCode } from '../validate/catalogue.ts';
import { locate } from '../model/locate.ts';
import { lineIndexOf } from '../model/text.ts';
import { EMPTY_FACTS } from '../validate/facts.ts';
import { format } from '../l10n/format.ts';
import { ruleDocId } from '../validate/messages.ts';
import { stringify } from 'yaml';
import { toolCost, toolsSectionCost } from './toolCost.ts';
import type { TokenCounter } from '../export/cost.ts';

/** Options of the editor features: the display language (`en`, `zh-cn`; others are English). */
export interface FeatureOptions {
  readonly lang?: string;
  readonly facts?: WorkspaceFacts;
  /** How the tools' tokens are counted (providers/tokens.ts); here when omitted. */
  readonly countTokens?: TokenCounter;
}

/** Markdown documentation of a schema: title, description, accepted labels, enum values, examples. */
export function schemaDocs(schema: JsonSchema, key: string | undefined, lang = 'en'): string {
  const title = annotation(schema, 'title', lang);
  const desc = annotation(schema, 'markdownDescription', lang) ?? annotation(schema, 'description', lang);
  const type = Array.isArray(schema['type']) ? (schema['type'] as string[]).join(' | ') : (schema['type'] as string | undefined);
  const out: string[] = [];
  // A section's title alone: its JSON type ("array") means nothing to the domain expert reading it.
  out.push(`**${title ?? key ?? ''}**${key ? ` · \`${key}\`` : ''}${key && type ? ` · ${type}` : ''}`);
  if (desc) out.push('', desc);
  const aliases = (schema['x-aliases'] as string[] | undefined) ?? [];
  if (aliases.length) out.push('', format('hover.labels', { labels: aliases.map((a) => `\`${a}\``).join(', ') }, lang));
  const en = schema['enum'] as unknown[] | undefined;
  if (en?.length) {
    const d = enumDescriptions(schema, lang);
    out.push('', ...en.map((v, i) => `- \`${String(v)}\`${d[i] ? `: ${d[i]}` : ''}`));
  }
  out.push(...examples(schema, lang));
  return out.join('\n');
}

/** The most lines of an example a hover shows. */
const EXAMPLE_LINES = 14;

/** Short scalar examples inline; a structured or long one as a YAML code block, as a user writes it. */
function examples(schema: JsonSchema, lang: string): string[] {
  const ex = (schema['examples'] as unknown[] | undefined) ?? [];
  if (!ex.length) return [];
  const inline = ex.every((e) => typeof e !== 'object' || e === null) && ex.slice(0, 3).every((e) => String(e).length <= 60 && !String(e).includes('\n'));
  if (inline) return ['', format('hover.examples', { examples: ex.slice(0, 3).map((e) => `\`${String(e)}\``).join(', ') }, lang)];
  // One item of a list is example enough; a hover is not a page.
  const first = Array.isArray(ex[0]) && ex[0].length > 1 ? [ex[0][0]] : ex[0];
  const lines = (typeof first === 'string' ? first : stringify(first, { lineWidth: 0 })).trimEnd().split('\n');
  const block = lines.length > EXAMPLE_LINES ? [...lines.slice(0, EXAMPLE_LINES), '# …'] : lines;
  return ['', format('hover.example', {}, lang), '', '```yaml', ...block, '```'];
}

/** Markdown documentation of a rule in `lang`, for hovers on codes in disable comments and diagnostics. */
export function ruleDocs(code: string, lang = 'en'): string | undefined {
  const r = ruleByCode(code);
  if (!r) return undefined;
  return [
    format('hover.ruleTitle', { code: r.code, severity: format(`severity.${r.severity}`, {}, lang) }, lang),
    format(ruleDocId(r.code, 'summary'), {}, lang),
    format(ruleDocId(r.code, 'description'), {}, lang),
    format('hover.ruleLink', { code: r.code }, lang),
  ].join('\n\n');
}

/** A `Label: value` line whose label is the title of the schema at `pointer` (one source for field names). */
function fieldLine(pointer: string, value: unknown, lang: string): string {
  const schema = schemaAt(pointer);
  const label = (schema && annotation(schema, 'title', lang)) ?? pointer.split('/').pop()!;
  return format('hover.field', { label, value: String(value) }, lang);
}

function declarationSummary(model: ParsedContract, d: Declaration, lang: string): string {
  const data = model.data as Record<string, any>;
  const m = /^\/(\w+)\/(\d+)/.exec(d.pointer);
  const item = m ? data[m[1]!]?.[Number(m[2])] : undefined;
  const line = (field: string, value: unknown) => (value ? fieldLine(`/${m![1]}/0/${field}`, value, lang) : '');
  switch (d.kind) {
    case 'tool':
      return [item?.description, line('side_effects', item?.side_effects)].filter(Boolean).join('\n\n');
    case 'pool':
      return [item?.content, line('lifecycle', item?.lifecycle), line('metadata', item?.metadata?.length ? item.metadata.join(', ') : '')].filter(Boolean).join('\n\n');
    case 'scenario':
      return [line('trigger_condition', item?.trigger_condition), line('required_action', item?.required_action), line('sla', item?.sla)].filter(Boolean).join('\n\n');
    case 'entity': {
      const e = data['trigger']?.required_entities?.find((x: unknown) => normaliseName(typeof x === 'string' ? x : (x as { name?: unknown })?.name) === d.name);
      return e && typeof e === 'object' && e.pattern ? format('hover.pattern', { pattern: e.pattern }, lang) : '';
    }
    default:
      return '';
  }
}

/**
 * Hover at a position: rule docs on a code in an `agents-md-*` comment; where a name is declared
 * and what it is, on a tool, pool, role, entity, scenario or layer; the section's docs on a
 * section title; the field's schema docs (or an enum value's description) on a label, header,
 * YAML key or value. Undefined where there is nothing to say.
 */
export function hover(model: ParsedContract, position: Position, options: FeatureOptions = {}): HoverResult | undefined {
  const lang = options.lang ?? 'en';
  const facts = options.facts ?? EMPTY_FACTS;
  const section = sectionAt(model, position);
  // A free-form AGENTS.md is no contract: nothing of ours to say about it.
  if (!section || model.kind === 'freeform') return undefined;

  for (const c of section.comments) {
    if (!contains(c.range, position) || !/agents-md-/.test(c.text)) continue;
    const line = lineIndexOf(model).lineText(position.line);
    const re = /[a-z0-9]+(?:-[a-z0-9]+)+/g;
    for (const m of line.matchAll(re)) {
      if (position.character < m.index! || position.character > m.index! + m[0].length) continue;
      const docs = ruleDocs(m[0], lang);
      if (docs) return { contents: docs, range: { start: { line: position.line, character: m.index! }, end: { line: position.line, character: m.index! + m[0].length } } };
    }
  }

  const refs = referencesOf(model);
  const named = [...refs.declarations, ...refs.references].find((x) => contains(x.range, position) && x.kind !== 'resource');
  if (named) {
    const decl = refs.names.get(named.kind)?.get(named.name);
    const lines = [format(`hover.name.${named.kind}`, { name: named.name }, lang)];
    if (decl) {
      lines.push('', format('hover.declaredAtLine', { line: decl.range.start.line + 1 }, lang));
      const summary = declarationSummary(model, decl, lang);
      if (summary) lines.push('', summary);
      const cost = named.kind === 'tool' ? toolCost(model, named.name, lang, options.countTokens) : undefined;
      if (cost) lines.push('', cost);
    } else {
      const ext = named.kind === 'pool' ? facts.externalPools.get(named.name)?.[0] : named.kind === 'role' ? facts.externalAgents.get(named.name)?.[0] : undefined;
      lines.push('', ext ? format('hover.declaredIn', { uri: ext.uri }, lang) : format('hover.notDeclared', {}, lang));
    }
    return { contents: lines.join('\n'), range: named.range };
  }

  if (section.titleRange && section.spec && contains(section.titleRange, position)) {
    const s = section.spec;
    const fields = s.fields.map((f) => `\`${(f.schema['x-aliases'] as string[] | undefined)?.[0] ?? f.key}\``).join(', ');
    const doc = schemaDocs(schemaAt(`/${s.key}`) ?? s.schema, undefined, lang);
    const anchor = `${s.title} (${s.key})`.toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s/g, '-');
    const parts = [doc, ...(fields ? [format('hover.fields', { fields }, lang)] : []), ...(s.required ? [format('hover.requiredSection', {}, lang)] : []), ...(s.key === 'tools' ? toolsSectionCost(model, lang, options.countTokens) : []), format('hover.sectionDocs', { section: s.title, anchor }, lang)];
    return { contents: parts.join('\n\n'), range: section.titleRange };
  }

  const hit = modelAt(model, position);
  if (!hit) return undefined;
  const schema = schemaAt(hit.pointer);
  if (!schema) return undefined;
  const key = hit.pointer.split('/').pop();
  let contents = schemaDocs(schema, key && !/^\d+$/.test(key) ? key : undefined, lang);
  if (hit.part === 'value') {
    const v = hit.pointer.split('/').slice(1).reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], model.data);
    const en = schema['enum'] as unknown[] | undefined;
    const i = en ? en.indexOf(v) : -1;
    if (i >= 0) contents = `\`${String(v)}\`: ${enumDescriptions(schema, lang)[i] ?? ''}\n\n---\n\n${contents}`;
  }
  const range = hit.part === 'key' ? hit.range : (locate(model, hit.pointer)?.value ?? hit.range);
  return { contents, range };
}
