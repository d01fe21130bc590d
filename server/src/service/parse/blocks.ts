import type { List, Root, RootContent } from 'mdast';
import { parseMarkdown } from './markdown.ts';
import { fencedBlock } from './fencedBlock.ts';
import { tableAt, tableByRows } from './tableRows.ts';
import { countBreaks, shifted, shiftPoint } from './points.ts';
import type { MarkdownBlock } from '../model/types.ts';
import { itemPool, type BuiltItem } from './headingItems.ts';
import { detached } from '../util/detached.ts';

/** Blocks of the previous version, for reuse: by text, and tables by their first two lines (header and delimiter). */
export interface BlockPool {
  readonly byText: ReadonlyMap<string, MarkdownBlock>;
  readonly tables: ReadonlyMap<string, MarkdownBlock>;
  /** The heading items of array sections as built (headingItems.ts). */
  readonly items: ReadonlyMap<string, BuiltItem>;
}

/** Every block of some sections, by text (a block that occurs twice is the same parse), and their built items. */
export function blockPool(sections: readonly { readonly blocks: readonly MarkdownBlock[]; readonly value?: unknown }[]): BlockPool {
  const byText = new Map<string, MarkdownBlock>();
  const tables = new Map<string, MarkdownBlock>();
  for (const s of sections) {
    for (const b of s.blocks) {
      byText.set(b.text, b);
      if (b.tree.children.length === 1 && b.tree.children[0]!.type === 'table') tables.set(tableHead(b.text), b);
    }
  }
  return { byText, tables, items: itemPool(sections.map((s) => s.value)) };
}

/** A table block's header and delimiter rows. */
function tableHead(text: string): string {
  const second = text.indexOf('\n', text.indexOf('\n') + 1);
  return second < 0 ? text : text.slice(0, second);
}

/**
 * What every link reference or footnote definition holds (`[label]: destination`, `[^1]: note`),
 * also inside a list item or quote and with a label over several lines.
 */
export const DEFINITION = /\]:/;

/** A block read from its own copy of its text (a block outlives its version: util/detached.ts). */
function newBlock(part: string, pool: BlockPool | undefined): MarkdownBlock {
  const text = detached(part);
  return { text, tree: parseBlock(text, pool) };
}

/** One block's tree: a fenced block without remark, a table from its previous version row by row, else remark. */
function parseBlock(text: string, pool: BlockPool | undefined): Root {
  const fenced = fencedBlock(text);
  if (fenced) return fenced;
  const before = text.startsWith('|') ? pool?.tables.get(tableHead(text)) : undefined;
  return (before && tableByRows(text, before)) || parseMarkdown(text);
}

/**
 * A block's nodes where it stood in its slice: an edit below it leaves it where it was, and its
 * nodes are not copied again. A few places per block (the memory of a few copies at most; a
 * block of a text that stands in many tools, such as `- **Idempotent**: no`, is copied as before).
 */
const places = new WeakMap<MarkdownBlock, Map<string, readonly RootContent[]>>();
const MAX_PLACES = 4;

/** The block's nodes moved to `line` and `offset` in the slice. */
function nodesAt(block: MarkdownBlock, line: number, offset: number): readonly RootContent[] {
  const key = `${line}:${offset}`;
  let known = places.get(block);
  const hit = known?.get(key);
  if (hit) return hit;
  const nodes = block.tree.children.map((c) => (c.type === 'table' ? tableAt(c, line, offset) : shifted(c, line, offset)));
  if (!known || known.size >= MAX_PLACES) places.set(block, (known = new Map()));
  known.set(key, nodes);
  return nodes;
}

/**
 * Parses a slice's text block by block, cutting it at `starts` (offsets where a top-level block
 * starts, found by the line scanner) and at `itemStarts` (offsets where a part of a tight
 * top-level list starts: that part's list joins the list above), reusing from `pool` every block
 * whose text is unchanged. Returns the blocks and the slice's tree (positions relative to the
 * slice text), which is the tree remark gives for the whole text (test/incremental.test.ts).
 * Throws what remark throws.
 */
export function parseBlocks(text: string, starts: readonly number[], pool?: BlockPool, itemStarts: readonly number[] = []): { blocks: MarkdownBlock[]; tree: Root } {
  // micromark drops a U+FEFF that starts its input: a block starting with one (a stray BOM inside
  // the text) is read together with the block before it, as remark reads the whole text.
  // A link reference definition changes how `[label]` reads in every other block: such a slice is one block.
  const cutHere = (o: number) => o > 0 && o < text.length && text.charCodeAt(o) !== 0xfeff;
  const definitions = DEFINITION.test(text);
  const items = new Set(definitions ? [] : itemStarts.filter(cutHere));
  const inner = definitions ? [] : [...new Set([...starts.filter(cutHere), ...items])].sort((a, b) => a - b);
  const cuts = [0, ...inner, text.length];
  // remark's offsets do not count a leading U+FEFF either: later blocks shift by one less.
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const blocks: MarkdownBlock[] = [];
  const children: RootContent[] = [];
  // The list the next part joins, built here (never one of a reused block's nodes).
  let joined: List | undefined;
  let line = 0;
  for (let i = 0; i + 1 < cuts.length; i++) {
    const from = cuts[i]!;
    const part = text.slice(from, cuts[i + 1]);
    const block = pool?.byText.get(part) ?? newBlock(part, pool);
    blocks.push(block);
    const nodes = nodesAt(block, line, from === 0 ? 0 : from - bom);
    const last = children[children.length - 1];
    const first = nodes[0];
    if (items.has(from) && last?.type === 'list' && first?.type === 'list') {
      if (joined !== last) children[children.length - 1] = joined = { ...last, children: [...last.children] };
      joined.children.push(...first.children);
      joined.position = { start: last.position!.start, end: first.position!.end };
      children.push(...nodes.slice(1));
    } else children.push(...nodes);
    line += countBreaks(part);
  }
  const end = blocks.length > 0 ? blocks[blocks.length - 1]!.tree.position?.end : undefined;
  const lastFrom = cuts[cuts.length - 2] ?? 0;
  const lastLine = line - countBreaks(blocks[blocks.length - 1]?.text ?? '');
  const tree: Root = {
    type: 'root',
    children,
    position: { start: { line: 1, column: 1, offset: 0 }, end: end ? shiftPoint(end, lastLine, lastFrom > 0 ? lastFrom - bom : 0) : { line: 1, column: 1, offset: 0 } },
  };
  return { blocks, tree };
}
