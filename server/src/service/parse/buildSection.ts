import type { Nodes, Root } from 'mdast';
import type { Range } from '../types.ts';
import { DEFINITION, parseBlocks, type BlockPool } from './blocks.ts';
import { ENDS_TABLE, oversizedBlock } from './blockSize.ts';
import { sectionForTitle, type SectionSpec } from '../schema/sections.ts';
import type { CommentInfo, HeadingInfo, MarkdownBlock, SectionModel } from '../model/types.ts';
import type { SectionSlice } from './scanSections.ts';
import { Builder, headingTextRange, plainText, SliceLocator } from './builder.ts';
import { buildFrontMatter } from './frontMatter.ts';
import { isTableDelimiter } from './lineSyntax.ts';
import { buildArraySection, buildObjectSection, buildSchemaSection } from './sectionShapes.ts';


/** Longest line and deepest block nesting remark is given; beyond them its time grows too fast (bench/robustness). */
export const MAX_LINE_LENGTH = 20_000;
export const MAX_NESTING = 100;
/**
 * Most emphasis, code and link markers in one paragraph: inline parsing of runs such as `*a_` or
 * `` \`` `` grows quadratically (15 KB of `*a_` took 4 s, 60 KB 49 s: docs/robustness.md).
 */
export const MAX_INLINE_MARKERS = 2_000;
/** The inline markers counted (`*_\`[]<>~\!`): 1 at their character codes. */
const INLINE_MARKER = new Uint8Array(128);
for (const c of '*_`[]<>~\\!') INLINE_MARKER[c.charCodeAt(0)] = 1;

/** How many inline markers `text` holds from `start` to `end` (no strings made: this runs on every line of a changed section). */
function markersIn(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) n += INLINE_MARKER[text.charCodeAt(i)] ?? 0;
  return n;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isSpace = (c: number) => c === 32 || c === 9;

/** How many block quote and list markers open the line at `start` (`> - 1. text`: 3). */
function nestingAt(text: string, start: number, end: number): number {
  let depth = 0;
  let i = start;
  for (;;) {
    let j = i;
    while (j < end && isSpace(text.charCodeAt(j))) j++;
    const c = text.charCodeAt(j);
    if (j < end && c === 62) j++;
    else if (j + 1 < end && (c === 45 || c === 43 || c === 42) && isSpace(text.charCodeAt(j + 1))) j++;
    else {
      let k = j;
      while (k < end && k - j < 9 && isDigit(text.charCodeAt(k))) k++;
      const d = text.charCodeAt(k);
      if (k === j || k + 1 >= end || (d !== 46 && d !== 41) || !isSpace(text.charCodeAt(k + 1))) return depth;
      j = k + 1;
    }
    depth++;
    i = j;
  }
}

/** The cells of a table line as GFM counts them: split at unescaped pipes, one leading and one trailing pipe dropped. */
function cellCount(line: string): number {
  const inner = line.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).length;
}

/** A line that closes a front matter opened on the first line: the first later `---` line, as remark reads it. */
const FRONT_MATTER_CLOSE = /(?:\r\n|\n|\r)---[ \t]*(?:\r\n|\n|\r|$)/;

/**
 * Why a slice is too complex to hand to remark, as the `content-too-complex` message variant and
 * its arguments, or undefined: a line longer than MAX_LINE_LENGTH characters (`size` = its
 * length), more than MAX_NESTING nested block quotes and list markers (`size` = the depth), or a
 * paragraph (lines up to a blank one, outside fences; in a table, one row) with more than
 * MAX_INLINE_MARKERS markers.
 */
function complexity(text: string): { variant: 'longLine' | 'nesting' | 'inline'; args: { size: number; limit: number } } | undefined {
  let start = 0;
  let markers = 0;
  let fenced = false;
  // Inside a GFM table (after its delimiter row, up to a blank line) each row's cells are parsed on their own.
  let table = false;
  let previous = '';
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end - start > MAX_LINE_LENGTH) return { variant: 'longLine', args: { size: end - start, limit: MAX_LINE_LENGTH } };
    const line = text.slice(start, end);
    if (/^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
    const blank = line.trim() === '';
    // Any line that starts no other block is a row, with or without pipes (GFM); a line that does ends the table for this count (and counts from itself on).
    const row = !ENDS_TABLE.test(line);
    const delimiter: boolean = !table && previous.includes('|') && isTableDelimiter(line.endsWith('\r') ? line.slice(0, -1) : line) && cellCount(line) === cellCount(previous);
    const wasTable: boolean = table;
    table = !fenced && !blank && (delimiter || (table && row));
    const count = markersIn(text, start, end);
    if (fenced || blank) markers = 0;
    else if (table || wasTable) markers = count;
    else markers += count;
    previous = line;
    if (markers > MAX_INLINE_MARKERS) return { variant: 'inline', args: { size: markers, limit: MAX_INLINE_MARKERS } };
    const depth = nestingAt(text, start, end);
    if (depth > MAX_NESTING) return { variant: 'nesting', args: { size: depth, limit: MAX_NESTING } };
    start = end + 1;
  }
  return undefined;
}

/**
 * Parses one slice (preamble or H2 section) with remark and builds its model: the section's
 * value per its schema, a source map for every value, and findings for what could not be read.
 * Never throws. Positions are absolute in the document (`slice.startLine` added).
 */
export function buildSection(slice: SectionSlice, bom: boolean, pool?: BlockPool): SectionModel {
  const loc = new SliceLocator(slice.text, slice.startLine, bom);
  const starts = slice.blockStarts.map((l) => loc.index.lineStart(l - slice.startLine));
  const tooComplex = complexity(slice.text) ?? oversizedBlock(slice.text, starts);
  let tree: Root = { type: 'root', children: [] };
  let blocks: MarkdownBlock[] = [];
  let parseError: string | undefined;
  if (!tooComplex) {
    try {
      ({ tree, blocks } = parseBlocks(slice.text, starts, pool, slice.itemStarts.map((l) => loc.index.lineStart(l - slice.startLine))));
    } catch (e) {
      // remark overflows its stack on some pathological inputs; the section is reported, not lost silently.
      parseError = String((e as Error)?.message ?? e);
    }
  }
  const b = new Builder(loc);
  const firstLine = loc.range(0, loc.index.lineEnd(0));
  if (tooComplex) b.findings.push({ code: 'content-too-complex', range: firstLine, ...tooComplex });
  else if (parseError) b.findings.push({ code: 'content-too-complex', range: firstLine, args: { detail: parseError } });
  const headings: HeadingInfo[] = [];
  const comments: CommentInfo[] = [];
  const fences: { lang: string; range: Range }[] = [];
  const tables = tree.children.filter((n) => n.type === 'table').map((n) => loc.nodeRange(n));
  collectInfo(b, tree, headings, comments, fences);

  const endPos = loc.pos(slice.text.length);
  const range: Range = { start: { line: slice.startLine, character: 0 }, end: endPos };
  let title: string | undefined;
  let titleRange: Range | undefined;
  let spec: SectionSpec | undefined;
  let value: unknown;
  let frontMatter: SectionModel['frontMatter'];

  const nodes = tree.children;
  if (slice.kind === 'preamble') {
    frontMatter = buildFrontMatter(b, tree);
    const opens = /^---[ \t]*(?:\r\n|\n|\r)/.test(slice.text);
    // An opening `---` never closed: remark reads a thematic break and the YAML as text. A
    // preamble not parsed (content-too-complex) has no tree to tell: its lines do.
    const unclosed = tooComplex || parseError ? opens && !FRONT_MATTER_CLOSE.test(slice.text) : !frontMatter && opens && tree.children[0]?.type !== 'yaml';
    if (unclosed) {
      b.findings.push({ code: 'yaml-syntax', range: loc.range(0, 3), variant: 'unclosedFrontMatter' });
    }
  } else {
    const h = nodes[0];
    if (h && h.type === 'heading' && h.depth === 2) {
      title = plainText(h).trim();
      titleRange = headingTextRange(b, h);
      spec = sectionForTitle(title);
      const rest = nodes.slice(1);
      if (spec) {
        // Items are read block by block only where blocks read the same on their own (blocks.ts).
        const reuse = DEFINITION.test(slice.text) ? undefined : (pool?.items ?? new Map());
        value = spec.shape === 'array' ? buildArraySection(b, spec, rest, reuse) : spec.shape === 'schema' ? buildSchemaSection(b, spec, rest) : buildObjectSection(b, spec, rest);
      }
    }
  }
  if (slice.unclosedFence) {
    const line = slice.unclosedFence.line;
    const r = { start: { line, character: 0 }, end: { line, character: loc.index.lineText(line - slice.startLine).length } };
    b.findings.push({ code: 'unclosed-fence', range: r });
  }
  return {
    kind: slice.kind,
    startLine: slice.startLine,
    endLine: slice.endLine,
    text: slice.text,
    bom,
    ...(title !== undefined ? { title } : {}),
    ...(titleRange ? { titleRange } : {}),
    range,
    ...(spec ? { spec } : {}),
    ...(value !== undefined ? { value } : {}),
    map: b.map,
    ...(frontMatter ? { frontMatter } : {}),
    findings: b.findings,
    headings,
    prose: b.prose,
    comments,
    fences,
    tables,
    blocks,
  };
}

function collectInfo(b: Builder, root: Nodes, headings: HeadingInfo[], comments: CommentInfo[], fences: { lang: string; range: Range }[]): void {
  // Iterative: a contract may nest blockquotes or lists thousands deep.
  const stack: Nodes[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'heading') headings.push({ depth: node.depth, text: plainText(node).trim(), range: b.loc.nodeRange(node) });
    else if (node.type === 'html' && node.value.startsWith('<!--')) comments.push({ range: b.loc.nodeRange(node), text: node.value });
    else if (node.type === 'code') fences.push({ lang: node.lang ?? '', range: b.loc.nodeRange(node) });
    if ('children' in node) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as Nodes);
  }
}

