/**
 * Display width of text in a terminal: CJK characters and most emoji take two columns,
 * combining marks none, ANSI escapes none. Tables and aligned columns of CLI output (rules list,
 * dry-run traces, diffs) pad by this width, not by `String.length`, so that Chinese text lines up.
 */
import stringWidth from 'string-width';

/**
 * Characters a column wide each that never join a neighbour into one cluster: printable ASCII,
 * Latin-1 and Latin Extended letters (not the soft hyphen), general punctuation (not the
 * zero-width and direction marks) and arrows. Text made only of them is measured by its length.
 */
const ONE_COLUMN_EACH = /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u02ff\u2010-\u2027\u2030-\u205e\u2190-\u21ff]*$/;

/** Columns `s` takes in a monospace terminal. */
export function displayWidth(s: string): number {
  // string-width (and the Unicode data it loads) is for the rest, loaded on first use in the
  // bundles (esbuild.mjs, VENDORS): English output never loads it.
  return ONE_COLUMN_EACH.test(s) ? s.length : stringWidth(s);
}

/** `s` followed by spaces up to `width` display columns (unchanged when already as wide). */
export function padEndDisplay(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - displayWidth(s)));
}

/**
 * Rows of cells as aligned text columns separated by `gap` spaces: each column as wide as its
 * widest cell (display width); the last column is not padded. Lines are joined with `\n`.
 */
export function alignColumns(rows: readonly (readonly string[])[], gap = 2): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, displayWidth(cell))));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : padEndDisplay(cell, widths[i]! + gap))).join('')).join('\n');
}

/**
 * A piece of text that never breaks: one Chinese (or Japanese) character, or a run of other
 * non-space characters; with the spaces before it, the opening brackets before it and the closing
 * punctuation after it. Lines break between pieces.
 */
const WRAP_TOKEN = /\s*(?:[（「『【《]*[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[（「『【《]*[^\s\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}（「『【《]+|[（「『【《]+)[，。、；：？！）」』】》]*/gu;

/**
 * Text wrapped to `width` display columns: lines break at spaces, and also between Chinese
 * characters (which have no spaces), never before closing punctuation (，。）) or after an opening
 * bracket. A word longer than the width gets a line of its own. Existing line breaks are kept.
 */
export function wrapDisplay(text: string, width: number): string {
  return text
    .split(/\r\n|\n/)
    .map((line) => {
      const tokens = line.match(WRAP_TOKEN);
      if (!tokens) return '';
      const lines: string[] = [];
      let current = tokens[0]!;
      for (const token of tokens.slice(1)) {
        if (displayWidth(current + token) <= width) current += token;
        else {
          lines.push(current);
          current = token.trimStart();
        }
      }
      lines.push(current);
      return lines.join('\n');
    })
    .join('\n');
}
