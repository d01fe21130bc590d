import type { Nodes, Root, RootContent } from 'mdast';
import type { Point, Position } from 'unist';
import { parseMarkdown } from './markdown.ts';
import type { MarkdownBlock } from '../model/types.ts';

/** Previous blocks by text, for reuse; `undefined` parses every block. */
export type BlockPool = ReadonlyMap<string, MarkdownBlock>;

/** Every block of some sections, by text (a block that occurs twice is the same parse). */
export function blockPool(sections: readonly { readonly blocks: readonly MarkdownBlock[] }[]): Map<string, MarkdownBlock> {
  const pool = new Map<string, MarkdownBlock>();
  for (const s of sections) for (const b of s.blocks) pool.set(b.text, b);
  return pool;
}

const shiftPoint = (p: Point, line: number, offset: number): Point => ({ line: p.line + line, column: p.column, offset: (p.offset ?? 0) + offset });

/** A copy of a node with every position moved by `line` lines and `offset` characters. */
function shifted<T extends Nodes>(node: T, line: number, offset: number): T {
  const out = { ...node } as T & { position?: Position; children?: Nodes[] };
  if (node.position) out.position = { start: shiftPoint(node.position.start, line, offset), end: shiftPoint(node.position.end, line, offset) };
  if ('children' in node) out.children = (node.children as Nodes[]).map((c) => shifted(c, line, offset));
  return out;
}

/**
 * Parses a slice's text block by block, cutting it at `starts` (offsets where a top-level block
 * starts, found by the line scanner), reusing from `pool` every block whose text is unchanged.
 * Returns the blocks and the slice's tree (positions relative to the slice text), which is the
 * tree remark gives for the whole text (test/incremental.test.ts). Throws what remark throws.
 */
export function parseBlocks(text: string, starts: readonly number[], pool?: BlockPool): { blocks: MarkdownBlock[]; tree: Root } {
  const cuts = [0, ...starts.filter((o) => o > 0 && o < text.length), text.length];
  const blocks: MarkdownBlock[] = [];
  const children: RootContent[] = [];
  let line = 0;
  for (let i = 0; i + 1 < cuts.length; i++) {
    const from = cuts[i]!;
    const part = text.slice(from, cuts[i + 1]);
    const block = pool?.get(part) ?? { text: part, tree: parseMarkdown(part) };
    blocks.push(block);
    for (const c of block.tree.children) children.push(line === 0 && from === 0 ? c : shifted(c, line, from));
    line += countBreaks(part);
  }
  const end = blocks.length > 0 ? blocks[blocks.length - 1]!.tree.position?.end : undefined;
  const lastFrom = cuts[cuts.length - 2] ?? 0;
  const lastLine = line - countBreaks(blocks[blocks.length - 1]?.text ?? '');
  const tree: Root = {
    type: 'root',
    children,
    position: { start: { line: 1, column: 1, offset: 0 }, end: end ? shiftPoint(end, lastLine, lastFrom) : { line: 1, column: 1, offset: 0 } },
  };
  return { blocks, tree };
}

/** Line breaks as remark counts them (`\n`, `\r\n`, `\r`). */
function countBreaks(s: string): number {
  let n = 0;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c === 10 || (c === 13 && s.charCodeAt(k + 1) !== 10)) n++;
  }
  return n;
}
