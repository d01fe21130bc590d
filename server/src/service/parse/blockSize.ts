/**
 * The size check where blocks are read (docs/robustness.md, "Parsing limits"): remark's time on one
 * paragraph or list grows with its length even without a single inline marker (48,000 plain lines
 * took 29 s, 49,000 list items 31 s and 1.1 GB), so a top-level block other than a fenced block,
 * a table or front matter is given to it only up to MAX_BLOCK_LINES lines.
 */

/** Most lines of one paragraph, list or block quote handed to remark. */
export const MAX_BLOCK_LINES = 1_000;

/** Blocks read without remark's paragraph and list parsing (a fence), row by row (a table), or as YAML (front matter). */
const EXEMPT = /^[ \t]*(?:```|~~~|\||---)/;

/** A line that is no part of a paragraph or list: blank, or a heading (the section's own starts its first block). */
const NOT_TEXT = /^\s*$|^ {0,3}#/;

/**
 * The first block of `text` (cut at `starts`, offsets of top-level block starts) with more than
 * MAX_BLOCK_LINES lines of text, as a `content-too-complex` variant, or undefined.
 */
export function oversizedBlock(text: string, starts: readonly number[]): { variant: 'block'; args: { size: number; limit: number } } | undefined {
  const cuts = [0, ...starts.filter((o) => o > 0 && o < text.length), text.length];
  for (let i = 0; i + 1 < cuts.length; i++) {
    // Cheap first: a block of fewer line breaks than the limit holds fewer lines.
    if (text.slice(cuts[i], cuts[i + 1]).split('\n', MAX_BLOCK_LINES + 2).length <= MAX_BLOCK_LINES) continue;
    const lines = text.slice(cuts[i], cuts[i + 1]).split('\n').filter((l) => !NOT_TEXT.test(l));
    if (lines.length > MAX_BLOCK_LINES && !EXEMPT.test(lines[0]!)) return { variant: 'block', args: { size: lines.length, limit: MAX_BLOCK_LINES } };
  }
  return undefined;
}
