/**
 * The size check where blocks are read (docs/robustness.md, "Parsing limits"): remark's time on one
 * paragraph or list grows with its length even without a single inline marker (48,000 plain lines
 * took 29 s, 49,000 list items 31 s and 1.1 GB), so a top-level block other than a fenced block,
 * a table or front matter is given to it only up to MAX_BLOCK_LINES lines. A GFM table's time
 * grows linearly with its rows, but at about a millisecond a row on a loaded machine (a 4 MiB
 * contract holds 50,000 rows: a minute that nothing interrupts): it is given to remark only up to
 * MAX_TABLE_ROWS rows.
 */
import { isTableDelimiter } from './lineSyntax.ts';

/** Most lines of one paragraph, list or block quote handed to remark. */
export const MAX_BLOCK_LINES = 1_000;

/** Most rows of one GFM table (below its header and delimiter rows) handed to remark. */
export const MAX_TABLE_ROWS = 2_000;

/** Blocks read without remark's paragraph and list parsing (a fence), row by row (a table), or as YAML (front matter). */
const EXEMPT = /^[ \t]*(?:```|~~~|\||---)/;

/** A line that is no part of a paragraph or list: blank, or a heading (the section's own starts its first block). */
const NOT_TEXT = /^\s*$|^ {0,3}#/;

/**
 * A line that ends a GFM table's rows: blank, or the start of another block (heading, fence, block
 * quote, list item, thematic break, indented code). Any other line is a row, with or without pipes.
 */
export const ENDS_TABLE = /^\s*$|^ {4}|^ {0,3}(?:#|>|```|~~~|[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|(?:[-*_][ \t]*){3,}$)/;

type Oversized = { variant: 'block' | 'table'; args: { size: number; limit: number } };

/**
 * The GFM table that `lines` open (a header row with a pipe, then a delimiter row; the section's
 * heading and blank lines before them skipped): its rows, and the index of the first line after
 * it; undefined when they open no table.
 */
function tableAt(lines: readonly string[]): { rows: number; end: number } | undefined {
  let i = 0;
  while (i < lines.length && NOT_TEXT.test(lines[i]!)) i++;
  const header = lines[i];
  const delimiter = lines[i + 1]?.replace(/\r$/, '');
  if (header === undefined || delimiter === undefined || !header.includes('|') || !isTableDelimiter(delimiter)) return undefined;
  let end = i + 2;
  while (end < lines.length && !ENDS_TABLE.test(lines[end]!)) end++;
  return { rows: end - i - 2, end };
}

/** More than MAX_BLOCK_LINES lines of text that are not a fence, a table or front matter. */
function longText(lines: readonly string[]): Oversized | undefined {
  const text = lines.filter((l) => !NOT_TEXT.test(l));
  if (text.length > MAX_BLOCK_LINES && !EXEMPT.test(text[0]!)) return { variant: 'block', args: { size: text.length, limit: MAX_BLOCK_LINES } };
  return undefined;
}

/**
 * The first block of `text` (cut at `starts`, offsets of top-level block starts) with more than
 * MAX_BLOCK_LINES lines of text, or a table of more than MAX_TABLE_ROWS rows, as a
 * `content-too-complex` variant, or undefined.
 */
export function oversizedBlock(text: string, starts: readonly number[]): Oversized | undefined {
  const cuts = [0, ...starts.filter((o) => o > 0 && o < text.length), text.length];
  for (let i = 0; i + 1 < cuts.length; i++) {
    // Cheap first: a block of fewer line breaks than the smaller limit holds fewer lines and rows.
    if (text.slice(cuts[i], cuts[i + 1]).split('\n', MAX_BLOCK_LINES + 2).length <= MAX_BLOCK_LINES) continue;
    const lines = text.slice(cuts[i], cuts[i + 1]).split('\n');
    const table = tableAt(lines);
    if (table && table.rows > MAX_TABLE_ROWS) return { variant: 'table', args: { size: table.rows, limit: MAX_TABLE_ROWS } };
    // What follows a table in the same block (a list that interrupts it) is text like any other.
    const found = longText(table ? lines.slice(table.end) : lines);
    if (found) return found;
  }
  return undefined;
}
