import type { Position, Range } from '../types.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import type { CodeActionEntry, TextEditResult } from './types.ts';
import type { SectionModel } from '../model/types.ts';
import { SECTIONS, type SectionSpec } from '../schema/sections.ts';
import { lineIndexOf } from '../model/text.ts';
import { LineIndex } from '../text/lineIndex.ts';
import { locate } from '../model/locate.ts';
import { sectionSkeleton } from './snippets.ts';
import { format } from '../l10n/format.ts';
import { ruleByCode } from '../validate/catalogue.ts';

/** The part of a diagnostic a code action needs. */
export interface DiagnosticRef {
  readonly code: string;
  readonly range: Range;
  readonly args?: Readonly<Record<string, string | number>>;
}

/**
 * Options: today's date (YYYY-MM-DD) for audit rows, so results are deterministic in tests; the
 * language of the titles (`en`, `zh-cn`). Text inserted into the contract stays in its canonical
 * English labels whatever the display language: a contract's language is its authors' choice.
 */
export interface CodeActionOptions {
  readonly today?: string;
  readonly lang?: string;
}

const pos = (line: number, character: number): Position => ({ line, character });
const at = (p: Position): Range => ({ start: p, end: p });

/** The end of the last non-blank line of a section (or of the document). */
function endOfContent(model: ParsedContract, s: SectionModel | undefined): Position {
  const idx = lineIndexOf(model);
  let line = (s ? s.endLine : idx.lineCount) - 1;
  const first = s ? s.startLine : 0;
  while (line > first && !idx.lineText(line).trim()) line--;
  return pos(line, idx.lineText(line).length);
}

function appendSection(model: ParsedContract, spec: SectionSpec, body: string): TextEditResult {
  const end = endOfContent(model, undefined);
  const lead = end.character === 0 && end.line === 0 ? '' : '\n\n';
  return { range: at(end), newText: `${lead}## ${spec.title}\n\n${body}\n` };
}

const spec = (key: string) => SECTIONS.find((s) => s.key === key)!;

/**
 * Code actions for the diagnostics in a request's context: add a missing section's skeleton,
 * add the audit row for the current version, add a FAILURE_PROTOCOL fallback for a HITL
 * scenario, add missing tool schema stubs, update a resource hash, and each rule's own fix (declared beside
 * its check); and for every diagnostic, disable its rule for that line or the file.
 */
export function codeActions(model: ParsedContract, diagnostics: readonly DiagnosticRef[], options: CodeActionOptions = {}): CodeActionEntry[] {
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const lang = options.lang ?? 'en';
  const t = (id: string, args: Readonly<Record<string, string | number>> = {}) => format(id, args, lang);
  const out: CodeActionEntry[] = [];
  const version = model.data['version'] === undefined ? undefined : String(model.data['version']);
  for (const d of diagnostics) {
    const args = d.args ?? {};
    switch (d.code) {
      case 'missing-section': {
        const s = SECTIONS.find((x) => x.title === args['section']);
        if (s) out.push({ title: t('action.addSection', { section: s.title }), kind: 'quickfix', fixes: [d.code], isPreferred: true, edits: [appendSection(model, s, sectionSkeleton(s, { ...(version ? { version } : {}), today }))] });
        break;
      }
      case 'version-not-audited': {
        const v = String(args['version'] ?? version ?? '');
        const section = model.owners.get('versioning');
        const table = section?.kind === 'section' ? section.tables[0] : undefined;
        const row = `| ${v} | ${today} | @you | <what changed> |`;
        if (section && table) {
          const headerLine = table.start.line;
          out.push({ title: t('action.addAuditRow', { version: v }), kind: 'quickfix', fixes: [d.code], isPreferred: true, edits: [{ range: at(pos(headerLine + 2, 0)), newText: `${row}\n` }] });
        } else if (!section) {
          out.push({ title: t('action.addVersioning', { version: v }), kind: 'quickfix', fixes: [d.code], edits: [appendSection(model, spec('versioning'), sectionSkeleton(spec('versioning'), { version: v, today }))] });
        }
        break;
      }
      case 'hitl-needs-fallback': {
        const used = new Set((Array.isArray(model.data['failure_protocol']) ? model.data['failure_protocol'] : []).map((f) => String((f as Record<string, unknown>)?.['code'] ?? '')));
        let n = 1;
        while (used.has(`HITL${String(n).padStart(3, '0')}`)) n++;
        const when = args['sla'] ? `within ${args['sla']}` : 'in time';
        const entry = `- **If ${args['scenario']} gets no sign-off ${when}**: → Auto-reject the request → Notify the requester → Return error_code \`HITL${String(n).padStart(3, '0')}\``;
        const fp = model.owners.get('failure_protocol');
        const edit = fp && fp.kind === 'section' ? { range: at(endOfContent(model, fp)), newText: `\n${entry}` } : appendSection(model, spec('failure_protocol'), entry);
        out.push({ title: t('action.addFallback', { scenario: String(args['scenario']) }), kind: 'quickfix', fixes: [d.code], isPreferred: true, edits: [edit] });
        break;
      }
      case 'tool-missing-schema': {
        const missing = String(args['missing'] ?? '').split(/,\s*/).filter(Boolean);
        const tools = model.owners.get('tools');
        const data = Array.isArray(model.data['tools']) ? (model.data['tools'] as Record<string, unknown>[]) : [];
        const i = data.findIndex((t) => String(t?.['name'] ?? '') === String(args['tool']));
        const heading = i >= 0 ? locate(model, `/tools/${i}`) : undefined;
        if (!tools || tools.kind !== 'section' || !heading) break;
        const next = tools.headings.find((h) => h.depth <= 3 && h.range.start.line > heading.value.start.line);
        const stop = next ? { ...tools, endLine: next.range.start.line } : tools;
        const block = ['```yaml', ...missing.flatMap((k) => [`${k}:`, '  type: object', '  properties: {}']), '```'].join('\n');
        const title = missing.length === 2 ? 'action.addSchemas' : missing[0] === 'input_schema' ? 'action.addInputSchema' : 'action.addOutputSchema';
        out.push({ title: t(title, { tool: String(args['tool']) }), kind: 'quickfix', fixes: [d.code], isPreferred: true, edits: [{ range: at(endOfContent(model, stop)), newText: `\n\n${block}` }] });
        break;
      }
      case 'resource-hash-mismatch':
        if (args['actual']) out.push({ title: t('action.recordHash', { name: String(args['name']) }), kind: 'quickfix', fixes: [d.code], edits: [{ range: d.range, newText: String(args['actual']) }] });
        break;
      default:
        break;
    }
    // Fixes declared beside their checks (validate/rules/*.ts).
    const fix = ruleByCode(d.code)?.fix?.(d, model);
    if (fix) out.push({ title: t(fix.titleId, fix.titleArgs), kind: 'quickfix', fixes: [d.code], isPreferred: true, edits: fix.edits });
    out.push(...disableActions(model, d, lang));
  }
  // Several diagnostics of one rule offer the same "Disable … for this file" (or line): once each.
  const seen = new Set<string>();
  return out.filter((a) => {
    const key = `${a.title}\u0000${JSON.stringify(a.edits)}`;
    return !seen.has(key) && seen.add(key);
  });
}

/**
 * The safe fixes of every diagnostic, as one set of edits (`agents-md lint --fix`, the editor's
 * `source.fixAll.agentsMd`): a fix whose edits overlap an earlier one's is left for the next
 * pass, so no text is edited twice. Returns the edits in document order and the codes fixed.
 */
export function fixAll(model: ParsedContract, diagnostics: readonly DiagnosticRef[]): { edits: TextEditResult[]; fixed: string[] } {
  const edits: TextEditResult[] = [];
  const fixed: string[] = [];
  const idx = lineIndexOf(model);
  const spans: [number, number][] = [];
  for (const d of diagnostics) {
    const fix = ruleByCode(d.code)?.fix?.(d, model);
    if (!fix?.safe) continue;
    const own = fix.edits.map((e) => [idx.offsetAt(e.range.start), idx.offsetAt(e.range.end)] as [number, number]);
    if (own.some(([a, b]) => spans.some(([c, e]) => a < e && c < b || (a === b && a === c)))) continue;
    spans.push(...own);
    edits.push(...fix.edits);
    fixed.push(d.code);
  }
  edits.sort((a, b) => idx.offsetAt(a.range.start) - idx.offsetAt(b.range.start));
  return { edits, fixed };
}

/** "Disable <rule> for this line" (around the table or fence it sits in) and "…for this file". */
function disableActions(model: ParsedContract, d: DiagnosticRef, lang: string): CodeActionEntry[] {
  const idx = lineIndexOf(model);
  const line = d.range.start.line;
  const section = model.sections.find((s) => line >= s.startLine && line < Math.max(s.endLine, s.startLine + 1));
  const block = section?.kind === 'section'
    ? [...section.fences.map((f) => f.range), ...section.tables].find((r) => r.start.line <= line && line <= r.end.line)
    : undefined;
  const actions: CodeActionEntry[] = [];
  const fm = model.sections[0]?.frontMatter;
  const inFrontMatter = fm !== undefined && line <= fm.range.end.line;
  if (inFrontMatter) {
    // A comment inside front matter would break its YAML: only the file-wide action applies.
  } else if (block) {
    const indent = /^\s*/.exec(idx.lineText(block.start.line))![0];
    actions.push({
      title: format('action.disableBlock', { code: d.code }, lang),
      kind: 'quickfix',
      fixes: [d.code],
      edits: [
        { range: at(pos(block.start.line, 0)), newText: `${indent}<!-- agents-md-disable ${d.code} -->\n` },
        { range: at(pos(block.end.line, idx.lineText(block.end.line).length)), newText: `\n${indent}<!-- agents-md-enable ${d.code} -->` },
      ],
    });
  } else {
    const indent = /^\s*/.exec(idx.lineText(line))![0];
    actions.push({ title: format('action.disableLine', { code: d.code }, lang), kind: 'quickfix', fixes: [d.code], edits: [{ range: at(pos(line, 0)), newText: `${indent}<!-- agents-md-disable-next-line ${d.code} -->\n` }] });
  }
  const fileLine = fm ? fm.range.end.line + 1 : 0;
  actions.push({ title: format('action.disableFile', { code: d.code }, lang), kind: 'quickfix', fixes: [d.code], edits: [{ range: at(pos(fileLine, 0)), newText: `<!-- agents-md-disable-file ${d.code} -->\n` }] });
  return actions;
}

/** `text` with `edits` applied (non-overlapping, any order); text outside the edits is kept byte for byte. */
export function applyEdits(text: string, edits: readonly TextEditResult[]): string {
  const idx = new LineIndex(text);
  const sorted = edits.map((e) => ({ start: idx.offsetAt(e.range.start), end: idx.offsetAt(e.range.end), newText: e.newText })).sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}
