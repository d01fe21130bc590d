import type { Nodes } from 'mdast';
import type { Point, Position } from 'unist';

// Positions of remark trees: moving a reused node, line breaks, and where a text ends.

/** `p` moved by `line` lines and `offset` characters. */
export const shiftPoint = (p: Point, line: number, offset: number): Point => ({ line: p.line + line, column: p.column, offset: (p.offset ?? 0) + offset });

/** `p` moved by `line` lines and `offset` characters. */
export const shiftPosition = (p: Position, line: number, offset: number): Position => ({ start: shiftPoint(p.start, line, offset), end: shiftPoint(p.end, line, offset) });

/** A copy of a node with every position moved by `line` lines and `offset` characters; the node itself when it does not move (trees are never changed in place). */
export function shifted<T extends Nodes>(node: T, line: number, offset: number): T {
  if (line === 0 && offset === 0) return node;
  const out = { ...node } as T & { position?: Position; children?: Nodes[] };
  if (node.position) out.position = shiftPosition(node.position, line, offset);
  if ('children' in node) out.children = (node.children as Nodes[]).map((c) => shifted(c, line, offset));
  return out;
}

/** The point after the last character of `text`, as remark gives it for a root (`\n` line ends only). */
export function endPoint(text: string): Point {
  return { line: countBreaks(text) + 1, column: text.length - text.lastIndexOf('\n'), offset: text.length };
}

/** Line breaks as remark counts them (`\n`, `\r\n`, `\r`). */
export function countBreaks(s: string): number {
  let n = 0;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c === 10 || (c === 13 && s.charCodeAt(k + 1) !== 10)) n++;
  }
  return n;
}
