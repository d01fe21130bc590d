import type { Root, Table, TableRow } from 'mdast';
import { parseMarkdown } from './markdown.ts';
import { endPoint, shifted } from './points.ts';

/**
 * The tree remark gives for a block that is exactly one GFM table, when `previous` is the same
 * table before an edit (same header and delimiter rows): rows whose text is unchanged are moved
 * from the previous tree, and each changed row is parsed under the header alone. GFM reads
 * every row of a table on its own, so this equals remark on the whole table
 * (test/incremental.test.ts), and a one-cell edit in a 100-row table costs one row, not 100
 * (36 ms before). Undefined when the block is not such a table: remark parses it whole.
 */
export function tableByRows(text: string, previous: { readonly text: string; readonly tree: Root }): Root | undefined {
  if (text.includes('\r') || text.includes('\0')) return undefined;
  const old = soleTable(previous.tree);
  const lines = text.split('\n');
  let last = lines.length - 1;
  while (last > 0 && lines[last] === '') last--;
  if (!old || old.position?.start.offset !== 0 || last < 2) return undefined;
  const head = `${lines[0]}\n${lines[1]}\n`;
  if (!previous.text.startsWith(head)) return undefined;
  // The previous rows by their text, with the line and offset each started at.
  const reusable = new Map<string, { row: TableRow; line: number; offset: number }>();
  for (const row of old.children.slice(1)) {
    const start = row.position!.start;
    if (start.column !== 1) return undefined;
    const end = previous.text.indexOf('\n', start.offset!);
    reusable.set(previous.text.slice(start.offset!, end < 0 ? undefined : end), { row, line: start.line, offset: start.offset! });
  }
  const rows: TableRow[] = [old.children[0]!];
  let offset = head.length;
  for (let i = 2; i <= last; i++) {
    const line = lines[i]!;
    // Only lines that start with a pipe are rows whatever follows; anything else goes to remark.
    if (!line.startsWith('|')) return undefined;
    const hit = reusable.get(line);
    if (hit) rows.push(shifted(hit.row, i + 1 - hit.line, offset - hit.offset));
    else {
      const alone = soleTable(parseMarkdown(head + line));
      if (alone?.children.length !== 2) return undefined;
      rows.push(shifted(alone.children[1]!, i - 2, offset - head.length));
    }
    offset += line.length + 1;
  }
  const table: Table = { ...old, children: rows, position: { start: old.position!.start, end: rows[rows.length - 1]!.position!.end } };
  return { type: 'root', children: [table], position: { start: { line: 1, column: 1, offset: 0 }, end: endPoint(text) } };
}

/** The table when a tree is one table and nothing else. */
function soleTable(tree: Root): Table | undefined {
  const only = tree.children.length === 1 ? tree.children[0] : undefined;
  return only?.type === 'table' ? only : undefined;
}
