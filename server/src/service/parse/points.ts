import type { Nodes } from 'mdast';
import type { Point, Position } from 'unist';

// Positions of remark trees: moving a reused node, and where a text ends.

/** `p` moved by `line` lines and `offset` characters. */
export const shiftPoint = (p: Point, line: number, offset: number): Point => ({ line: p.line + line, column: p.column, offset: (p.offset ?? 0) + offset });

/** A copy of a node with every position moved by `line` lines and `offset` characters. */
export function shifted<T extends Nodes>(node: T, line: number, offset: number): T {
  const out = { ...node } as T & { position?: Position; children?: Nodes[] };
  if (node.position) out.position = { start: shiftPoint(node.position.start, line, offset), end: shiftPoint(node.position.end, line, offset) };
  if ('children' in node) out.children = (node.children as Nodes[]).map((c) => shifted(c, line, offset));
  return out;
}

/** The point after the last character of `text`, as remark gives it for a root (`\n` line ends only). */
export function endPoint(text: string): Point {
  const lastBreak = text.lastIndexOf('\n');
  let line = 1;
  for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) line++;
  return { line, column: text.length - lastBreak, offset: text.length };
}
