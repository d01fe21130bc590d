/**
 * Display width of text in a terminal (issue 6): CJK characters and most emoji take two columns,
 * combining marks none, ANSI escapes none. Tables and aligned columns of CLI output (rules list,
 * dry-run traces, diffs) pad by this width, not by `String.length`, so that Chinese text lines up.
 */
import stringWidth from 'string-width';

/** Columns `s` takes in a monospace terminal. */
export function displayWidth(s: string): number {
  return stringWidth(s);
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
