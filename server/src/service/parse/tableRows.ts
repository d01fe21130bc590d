import type { Root, Table, TableRow } from 'mdast';
import { parseMarkdown } from './markdown.ts';
import { endPoint, shifted, shiftPoint, shiftPosition } from './points.ts';

/**
 * How far each row of a table read row by row (`tableByRows`) moved since it was parsed: `[lines,
 * offset]` per row, the header's `[0, 0]`. Such a table holds its rows as they were parsed; its
 * place in a slice (`tableAt`) moves each row once, where a row moved first within the table and
 * then with the table was copied twice (the rows below an edited row, on every keystroke).
 */
const rowMoves = new WeakMap<Table, readonly (readonly [number, number])[]>();

/**
 * The tree remark gives for a block that is exactly one GFM table, when `previous` is the same
 * table before an edit (same header and delimiter rows), its rows moved where `tableAt` places
 * them: rows whose text is unchanged are the previous tree's, and each changed row is parsed under
 * the header alone. GFM reads every row of a table on its own, so this equals remark on the whole
 * table (test/incremental.test.ts), and a one-cell edit in a 100-row table costs one row, not 100
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
  const oldMoves = rowMoves.get(old);
  // The previous rows by their text, with the line and offset each started at in the previous table.
  const reusable = new Map<string, { row: TableRow; line: number; offset: number; move: readonly [number, number] }>();
  for (let k = 1; k < old.children.length; k++) {
    const row = old.children[k]!;
    const move = oldMoves?.[k] ?? ([0, 0] as const);
    const start = row.position!.start;
    if (start.column !== 1) return undefined;
    const offset = start.offset! + move[1];
    const end = previous.text.indexOf('\n', offset);
    reusable.set(previous.text.slice(offset, end < 0 ? undefined : end), { row, line: start.line + move[0], offset, move });
  }
  const rows: TableRow[] = [old.children[0]!];
  const moves: (readonly [number, number])[] = [[0, 0]];
  let offset = head.length;
  for (let i = 2; i <= last; i++) {
    const line = lines[i]!;
    // Only lines that start with a pipe are rows whatever follows; anything else goes to remark.
    if (!line.startsWith('|')) return undefined;
    const hit = reusable.get(line);
    if (hit) {
      rows.push(hit.row);
      moves.push([hit.move[0] + i + 1 - hit.line, hit.move[1] + offset - hit.offset]);
    } else {
      const alone = soleTable(parseMarkdown(head + line));
      if (alone?.children.length !== 2) return undefined;
      rows.push(alone.children[1]!);
      moves.push([i - 2, offset - head.length]);
    }
    offset += line.length + 1;
  }
  const [endLines, endOffset] = moves[moves.length - 1]!;
  const table: Table = { ...old, children: rows, position: { start: old.position!.start, end: shiftPoint(rows[rows.length - 1]!.position!.end, endLines, endOffset) } };
  rowMoves.set(table, moves);
  return { type: 'root', children: [table], position: { start: { line: 1, column: 1, offset: 0 }, end: endPoint(text) } };
}

/**
 * Each row's placement, the last one made: a row at the same place as before is the node it was,
 * not a copy (a 100-row table copied every row per keystroke).
 */
const rowPlaces = new WeakMap<TableRow, { readonly key: string; readonly row: TableRow }>();

/** A table moved to `line` and `offset`, each row moved once (with its own move, for a table read row by row). */
export function tableAt(table: Table, line: number, offset: number): Table {
  const moves = rowMoves.get(table);
  if (!moves && line === 0 && offset === 0) return table;
  const children = table.children.map((r, i) => {
    const [l, o] = moves?.[i] ?? [0, 0];
    if (l + line === 0 && o + offset === 0) return r;
    const key = `${l + line}:${o + offset}`;
    const hit = rowPlaces.get(r);
    if (hit?.key === key) return hit.row;
    const row = shifted(r, l + line, o + offset);
    rowPlaces.set(r, { key, row });
    return row;
  });
  return { ...table, children, ...(table.position ? { position: shiftPosition(table.position, line, offset) } : {}) };
}

/** The table when a tree is one table and nothing else. */
function soleTable(tree: Root): Table | undefined {
  const only = tree.children.length === 1 ? tree.children[0] : undefined;
  return only?.type === 'table' ? only : undefined;
}
