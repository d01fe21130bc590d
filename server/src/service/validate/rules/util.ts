/** What rule modules share: the data readers of model/data.ts, and the front matter of their examples. */
export { arr, obj, str, type Obj } from '../../model/data.ts';
import type { ParsedContract } from '../../parse/parseContract.ts';
import type { PointerSpan, SectionModel } from '../../model/types.ts';
import { normaliseLabel } from '../../schema/normalise.ts';

/** Header of a contract used by rule examples: front matter that marks the file a contract. */
export const FM = '---\ncontract: true\nname: demo\nversion: 1.0.0\n---\n';

/**
 * Whether `field` of a section was written, but misspelt: an `unknown-field` finding of the
 * section suggests it (`**Requires Aproval**` → `requires_approval`), optionally between two lines
 * (one tool's part of TOOLS; a misspelt table header counts for every row below it). Rules about
 * a missing field stay quiet then: one mistake, one diagnostic (docs/rules.md, unknown-field).
 */
export function misspelt(model: ParsedContract, section: string, field: string, lines?: { from: number; to: number }): boolean {
  const s = model.owners.get(section);
  const want = normaliseLabel(field);
  return !!s?.findings.some((f) => f.code === 'unknown-field' && typeof f.args?.['suggestion'] === 'string' && normaliseLabel(f.args['suggestion']) === want
    && (!lines || (f.range.start.line >= lines.from && f.range.start.line < lines.to)
      || s.tables.some((t) => t.start.line === f.range.start.line && t.start.line < lines.from && lines.from <= t.end.line)));
}

/** The lines of array item `i` of a section: from its first line to the next item's (or the section's end). */
export function itemLines(model: ParsedContract, section: string, i: number, locate: (p: string) => PointerSpan | undefined): { from: number; to: number } | undefined {
  const here = locate(`/${section}/${i}`);
  if (!here) return undefined;
  const next = locate(`/${section}/${i + 1}`);
  const end = model.owners.get(section)?.endLine ?? model.lineCount;
  const from = (here.key ?? here.value).start.line;
  const to = next && (next.key ?? next.value).start.line > from ? (next.key ?? next.value).start.line : end;
  return { from, to };
}

/**
 * The lines of the section's code blocks that do not parse (`yaml-syntax`, `json-syntax`). A rule
 * that reports something missing is quiet where such a block is: the syntax error says what to
 * fix, and "add it" beside it would send the author to write a second block.
 */
export function brokenBlockLines(section: SectionModel | undefined): number[] {
  return (section?.findings ?? []).filter((f) => f.code === 'yaml-syntax' || f.code === 'json-syntax').map((f) => f.range.start.line);
}

/**
 * Whether a section a rule checks references against (TOOLS for tool names, TRIGGER for entities…)
 * has a block that does not parse: what it declares is unknown, so the rule says nothing until the
 * block parses, rather than one message per reference beside the syntax error.
 */
export function declarationsBroken(section: (key: string) => SectionModel | undefined, ...keys: readonly string[]): boolean {
  return keys.some((k) => brokenBlockLines(section(k)).length > 0);
}
