import type { Range } from '../types.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import type { CodeActionEntry, TextEditResult } from './types.ts';
import { lineIndexOf } from '../model/text.ts';
import type { WorkspaceFacts } from '../validate/facts.ts';
import { format } from '../l10n/format.ts';
import { ruleByCode } from '../validate/catalogue.ts';
import { at, pos } from '../validate/fixText.ts';
import { fixChecker } from './fixCheck.ts';

export { applyEdits, editsBetween } from './fixCheck.ts';

/** How many times fix-all is applied to its own result at most (a fix may make room for another: two fallbacks appended at one place). */
export const MAX_FIX_PASSES = 10;


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
  /** The document's workspace facts, to check a safe fix against its result (fixCheck.ts); the document alone when omitted. */
  readonly facts?: WorkspaceFacts;
}

/**
 * Code actions for the diagnostics in a request's context: each rule's own fix, declared beside
 * its check (validate/rules/*.ts, `Rule.fix`), and for every diagnostic, disable its rule for
 * that line (or block) or the file.
 */
export function codeActions(model: ParsedContract, diagnostics: readonly DiagnosticRef[], options: CodeActionOptions = {}): CodeActionEntry[] {
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const lang = options.lang ?? 'en';
  const t = (id: string, args: Readonly<Record<string, string | number>> = {}) => format(id, args, lang);
  // Fixes declared beside their checks (validate/rules/*.ts), the safe ones first, then the
  // actions that disable a rule: the menu opens on what repairs the text. A safe fix that would
  // add a finding is not offered (fixCheck.ts): the rule's other fix, if any, is.
  const check = fixChecker(model, options.facts);
  const fixes = diagnostics.flatMap((d) => {
    const fix = ruleByCode(d.code)?.fix?.(d, model, { today });
    return fix && !(fix.safe && check.addsFinding(fix.edits)) ? [{ fix, entry: { title: t(fix.titleId, fix.titleArgs), kind: 'quickfix', fixes: [d.code], isPreferred: true, edits: fix.edits } satisfies CodeActionEntry }] : [];
  });
  // Other readings of a finding (a tool to declare rather than a near name) come after the fixes.
  const alternatives = diagnostics.flatMap((d) => (ruleByCode(d.code)?.alternatives?.(d, model, { today }) ?? []).map((fix): CodeActionEntry => ({ title: t(fix.titleId, fix.titleArgs), kind: 'quickfix', fixes: [d.code], edits: fix.edits })));
  const out: CodeActionEntry[] = [
    ...fixes.filter((f) => f.fix.safe).map((f) => f.entry),
    ...fixes.filter((f) => !f.fix.safe).map((f) => f.entry),
    ...alternatives,
    ...diagnostics.flatMap((d) => disableActions(model, d, lang)),
  ];
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
 * pass, so no text is edited twice. The set is checked against its result (fixCheck.ts): when it
 * adds a finding, the fixes are taken one by one and each one that adds a finding is dropped, so
 * fix-all never makes a file worse. Returns the edits in document order and the codes fixed.
 */
export function fixAll(model: ParsedContract, diagnostics: readonly DiagnosticRef[], options: { today?: string; facts?: WorkspaceFacts } = {}): { edits: TextEditResult[]; fixed: string[] } {
  const idx = lineIndexOf(model);
  const candidates = safeFixCandidates(model, diagnostics, options.today);
  const check = fixChecker(model, options.facts);
  let chosen = candidates;
  if (candidates.length > 0 && check.addsFinding(candidates.flatMap((c) => c.edits))) {
    chosen = [];
    for (const c of candidates) if (!check.addsFinding([...chosen, c].flatMap((x) => x.edits))) chosen.push(c);
  }
  const edits = chosen.flatMap((c) => c.edits).sort((a, b) => idx.offsetAt(a.range.start) - idx.offsetAt(b.range.start));
  return { edits, fixed: chosen.map((c) => c.code) };
}

/**
 * The safe fixes fix-all starts from, before they are checked against their result: one per
 * diagnostic, none editing text an earlier one edits.
 */
export function safeFixCandidates(model: ParsedContract, diagnostics: readonly DiagnosticRef[], today = new Date().toISOString().slice(0, 10)): { code: string; edits: readonly TextEditResult[] }[] {
  const idx = lineIndexOf(model);
  const spans: [number, number][] = [];
  const candidates: { code: string; edits: readonly TextEditResult[] }[] = [];
  for (const d of diagnostics) {
    const fix = ruleByCode(d.code)?.fix?.(d, model, { today });
    if (!fix?.safe) continue;
    const own = fix.edits.map((e) => [idx.offsetAt(e.range.start), idx.offsetAt(e.range.end)] as [number, number]);
    if (own.some(([a, b]) => spans.some(([c, e]) => a < e && c < b || (a === b && a === c)))) continue;
    spans.push(...own);
    candidates.push({ code: d.code, edits: fix.edits });
  }
  return candidates;
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
