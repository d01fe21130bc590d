import { closesFence, isTableDelimiter } from './lineSyntax.ts';
import { LineIndex } from '../text/lineIndex.ts';
import { parseWork } from './work.ts';

/**
 * One slice of a document: the preamble (front matter, H1 and anything before the first H2)
 * or one H2 section up to the next H2. Lines are 0-based; `endLine` is exclusive.
 */
export interface SectionSlice {
  readonly kind: 'preamble' | 'section';
  readonly startLine: number;
  readonly endLine: number;
  /** The slice's text, line breaks included. */
  readonly text: string;
  /** Whether the slice ends inside a fenced code block that was never closed. */
  readonly unclosedFence?: { readonly line: number };
  /**
   * Lines (absolute, after `startLine`) where a top-level block starts that remark reads the same
   * on its own as within the slice (see BLOCK_START): the slice is parsed and reused block by block.
   */
  readonly blockStarts: readonly number[];
  /**
   * Lines (absolute, after `startLine`) where a part of a tight top-level list starts (an item,
   * at least MIN_PART_LINES below the last cut): parsed alone it reads as a list of its items,
   * which joins the list above (blocks.ts), so an edit in a long list re-parses one part of it.
   */
  readonly itemStarts: readonly number[];
}

const ATX_H2 = /^ {0,3}##(?:[ \t]|$)/;
const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;
/** A fence marker at any indentation: one in a list item counts its indentation from the item's content. */
const FENCE_ANY = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const SETEXT_H2 = /^ {0,3}-+[ \t]*$/;
const THEMATIC = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const ATX_ANY = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
/** A list item's marker at any indentation (whether it starts an item depends on the items it is in). */
const ITEM_MARKER = /^([ \t]*)([-+*]|\d{1,9}[.)])(?=[ \t]|$)/;
const BLOCKQUOTE = /^ {0,3}>/;
const SETEXT_H1 = /^ {0,3}=+[ \t]*$/;
const LINK_DEF = /^ {0,3}\[(?:[^\]\\]|\\.)+\]:/;
/** HTML blocks of CommonMark types 1–5: how each opens, and what ends it (on the same line or later). */
const HTML_SPECIAL: readonly (readonly [RegExp, RegExp])[] = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?=[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];
const HTML_6 =
  /^ {0,3}<\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[\s/>]|$)/i;
const HTML_7 = /^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)[ \t]*$/;
const BLANK = /^[ \t]*$/;
const HTML_START = /^ {0,3}</;
/** An ATX heading at column 0: it always starts a top-level block (it interrupts paragraphs, lists and quotes). */
const ATX_TOP = /^#{1,6}(?:[ \t]|$)/;
/**
 * After a blank line, an unindented line ends every open list, quote, table and paragraph, so
 * it starts a top-level block. Lines that could continue a list or quote (`-`, `*`, `+`, `1.`,
 * `>`) or read as front matter (`---`) in a block of their own are left inside the block above.
 */
const BLOCK_START = /^[^\s\-+*>0-9]/;

/** Whether a line starts a block of its own (so it cannot continue a paragraph lazily). */
function interruptsParagraph(s: string): boolean {
  return ATX_ANY.test(s) || THEMATIC.test(s) || FENCE_OPEN.test(s) || BLOCKQUOTE.test(s) || LIST_ITEM.test(s) || HTML_6.test(s) || HTML_SPECIAL.some(([open]) => open.test(s));
}

/** Columns of a line's leading white space (a tab runs to the next multiple of 4). */
function indentOf(s: string): number {
  let col = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) col++;
    else if (c === 9) col += 4 - (col % 4);
    else break;
  }
  return col;
}

/** The column where a list item's content starts (CommonMark: after the marker and 1–4 spaces). */
function itemContentColumn(s: string, m: RegExpExecArray): number {
  const markerEnd = indentOf(m[1]!) + m[2]!.length;
  const gap = /^[ \t]*/.exec(s.slice(m[0].length))![0];
  const spaces = indentOf(' '.repeat(markerEnd) + gap) - markerEnd;
  // An empty item, or one whose text starts with indented code, has its content one column in.
  return m[0].length + gap.length === s.length || spaces > 4 ? markerEnd + 1 : markerEnd + spaces;
}

/** The scanner's state between lines. */
interface ScanState {
  /** Lines where a section starts (the preamble at 0). */
  readonly starts: number[];
  /** Lines where a top-level block starts (see BLOCK_START). */
  readonly blockStarts: number[];
  /** Lines where a part of a tight top-level list starts (see trackTopList). */
  readonly itemStarts: number[];
  /** The top-level list being scanned: its marker, the lines of its later items, and whether it must be read whole. */
  list: { marker: string; from: number; cuts: number[]; blank: boolean; whole: boolean } | undefined;
  /** An open fence; `within`: the content column of the list item it is in, whose end closes it too. */
  fence: { char: string; len: number; line: number; within?: number } | undefined;
  /** An open HTML block: it ends at a blank line, or on the line that contains `end`. */
  html: { end: 'blank' } | { end: RegExp } | undefined;
  paraStart: number;
  paraInContainer: boolean;
  paraIsLinkDefs: boolean;
  inContainer: boolean;
  inTable: boolean;
  /** The content columns of the list items the lines are in, innermost last. */
  readonly items: number[];
  blankBefore: boolean;
}

/** What a scan found in a text: its slices are cut from these lines. */
interface Scan {
  readonly text: string;
  readonly lines: number;
  /** The first line scanned (after the front matter). */
  readonly first: number;
  readonly starts: readonly number[];
  readonly blockStarts: readonly number[];
  readonly itemStarts: readonly number[];
  /** The line of a fence still open at the end. */
  readonly fence: number | undefined;
}

/** The scan each result was cut from: the next version's scan resumes from it. */
const scans = new WeakMap<readonly SectionSlice[], Scan>();

/**
 * Splits a document into its preamble and H2 sections with a line scanner that respects
 * YAML front matter, fenced code, HTML blocks and setext headings, so that each slice can be
 * parsed on its own (docs/performance.md). A section starts at a line `## Title`
 * indented 0–3 spaces, or at the first line of a paragraph underlined by `---`; lines inside
 * fences, HTML blocks and front matter never start one. Never throws; O(n) in the text length.
 * With `previous` (what it returned for an earlier version), only the lines around the change are scanned again.
 */
export function scanSections(text: string, index = new LineIndex(text), previous?: readonly SectionSlice[]): SectionSlice[] {
  const first = afterFrontMatter(index);
  const before = previous && scans.get(previous);
  const scan = (before && before.first === first && rescan(text, index, before)) || fullScan(text, index, first);
  const slices = slicesOf(scan, index);
  scans.set(slices, scan);
  return slices;
}

function fullScan(text: string, index: LineIndex, first: number): Scan {
  parseWork.scannedChars += text.length;
  const st = resetState();
  st.starts.push(0);
  for (let line = first; line < index.lineCount; line++) scanLine(st, index.lineText(line), line);
  endList(st);
  return { text, lines: index.lineCount, first, starts: st.starts, blockStarts: st.blockStarts, itemStarts: st.itemStarts, fence: st.fence?.line };
}

/**
 * The scanner's state before the first line, and after any line that starts with an ATX heading
 * at column 0 outside fences and HTML blocks (a top-level block start): such a line ends every
 * list, quote, table and paragraph, whatever came before.
 */
function resetState(): ScanState {
  return {
    starts: [], blockStarts: [], itemStarts: [], list: undefined, fence: undefined, html: undefined, paraStart: -1, paraInContainer: false, paraIsLinkDefs: false,
    inContainer: false, inTable: false, items: [], blankBefore: false,
  };
}

/**
 * `text` scanned from `before`, the scan of an earlier version: what `before` found above the
 * change stands; the scan resumes after the last heading at column 0 above the change (the state
 * there is `resetState()`), and stops at the first such heading below the change that `before`
 * also read as a block start, from which on `before`'s lines stand, moved by the lines the edit
 * added. Undefined when no heading lies above the change.
 */
function rescan(text: string, index: LineIndex, before: Scan): Scan | undefined {
  const old = before.text;
  const p = commonPrefix(old, text);
  if (p === old.length && p === text.length) return { ...before, text };
  const q = commonSuffix(old, text, Math.min(old.length, text.length) - p);
  const changed = index.positionAt(p).line;
  const topBefore = new Set([...before.starts, ...before.blockStarts]);
  let from = changed - 1;
  while (from >= before.first && !(topBefore.has(from) && ATX_TOP.test(index.lineText(from)))) from--;
  if (from < before.first) return undefined;
  const delta = index.lineCount - before.lines;
  const suffix = text.length - q;
  const st = resetState();
  let to = index.lineCount;
  for (let line = from + 1; line < index.lineCount; line++) {
    const s = index.lineText(line);
    parseWork.scannedChars += s.length + 1;
    // A heading that starts a block in both scans (its text and the line break above unchanged): from here on all is as it was.
    if (!st.fence && !st.html && index.lineStart(line) - 1 >= suffix && topBefore.has(line - delta) && ATX_TOP.test(s)) {
      to = line;
      break;
    }
    scanLine(st, s, line);
  }
  endList(st);
  const join = (olds: readonly number[], found: readonly number[]) => [...olds.filter((l) => l <= from), ...found, ...(to < index.lineCount ? olds.filter((l) => l >= to - delta).map((l) => l + delta) : [])];
  return {
    text,
    lines: index.lineCount,
    first: before.first,
    starts: join(before.starts, st.starts),
    blockStarts: join(before.blockStarts, st.blockStarts),
    itemStarts: join(before.itemStarts, st.itemStarts),
    fence: to < index.lineCount ? (before.fence === undefined ? undefined : before.fence + delta) : st.fence?.line,
  };
}

/**
 * The length of the common start of `a` and `b`, found by halving with string comparisons, which
 * V8 makes memory comparisons (character by character it cost 0.4 ms per keystroke in 100 KB).
 */
function commonPrefix(a: string, b: string): number {
  let lo = 0;
  let hi = Math.min(a.length, b.length);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.slice(lo, mid) === b.slice(lo, mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The length of the common end of `a` and `b`, at most `max`, found as `commonPrefix` finds the start. */
function commonSuffix(a: string, b: string, max: number): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.slice(a.length - mid, a.length - lo) === b.slice(b.length - mid, b.length - lo)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The first line after the front matter: `---` on the first line, closed by `---` (remark-frontmatter closes it with `---` only). */
function afterFrontMatter(index: LineIndex): number {
  if (!/^\uFEFF?---[ \t]*$/.test(index.lineText(0))) return 0;
  for (let l = 1; l < index.lineCount; l++) if (/^---[ \t]*$/.test(index.lineText(l))) return l + 1;
  return 0;
}

/** One line: the list items it is in, whether a top-level block starts on it, and what it opens, closes or continues. */
function scanLine(st: ScanState, s: string, line: number): void {
  const afterBlank = st.blankBefore;
  st.blankBefore = BLANK.test(s);
  // Fenced code has no lazy lines: a line indented less than the item's content ends the item and
  // its fence. No block starts on that line: parsed alone, the block above would run its unclosed
  // fence to its own end, a line further than in the whole text.
  const itemEnded = st.fence?.within !== undefined && !st.blankBefore && indentOf(s) < st.fence.within;
  if (itemEnded) st.fence = undefined;
  if (!st.fence && !st.html && !st.blankBefore) trackItems(st, s);
  const topStart = !st.fence && !st.html && !itemEnded && (ATX_TOP.test(s) || (afterBlank && BLOCK_START.test(s)));
  if (topStart) st.blockStarts.push(line);
  trackTopList(st, s, line, topStart, itemEnded);
  if (continuesOpenBlock(st, s) || endsBlockOrStartsSection(st, s, line)) return;
  opensBlock(st, s, line);
}

/**
 * An unindented bullet item with text after its marker: it always starts an item, even after a
 * paragraph (a marker alone could underline a heading; `2.` does not interrupt a paragraph).
 */
const TOP_ITEM = /^([-+*])[ \t]+\S/;
/** The fewest lines of a list part: a part starts at the first item at least this many lines below the last cut. */
const MIN_PART_LINES = 6;

/**
 * The parts of a top-level list, cut at items where the list reads the same part by part: tight
 * (no blank line inside it, not even in its code), no unindented line between items (lazy or
 * ending the list), no item that ends a fence it opened. Anything else and the list is read
 * whole. Its cuts count when the list has ended at the start of another block.
 */
function trackTopList(st: ScanState, s: string, line: number, topStart: boolean, itemEnded: boolean): void {
  if (topStart) return endList(st);
  const list = st.list;
  if (list && itemEnded) list.whole = true;
  if (BLANK.test(s)) {
    if (list) list.blank = true;
    if (list && (st.fence || st.html)) list.whole = true;
    return;
  }
  if (st.fence || st.html) return;
  const m = TOP_ITEM.exec(s);
  const marker = m && !THEMATIC.test(s) ? m[1]! : undefined;
  if (marker === undefined) {
    if (list && (list.blank || indentOf(s) === 0)) list.whole = true;
  } else if (!list || marker !== list.marker) {
    // Another marker starts another list (the one above is read whole).
    if (list) list.whole = true;
    endList(st);
    st.list = { marker, from: line, cuts: [], blank: false, whole: false };
  } else if (list.blank) list.whole = true;
  // Items are cut into parts of a few lines: each part is one more call of remark, whose own cost is about that of a few lines.
  else if (line - (list.cuts[list.cuts.length - 1] ?? list.from) >= MIN_PART_LINES) list.cuts.push(line);
}

/** The list's cuts count (when it was read tight to its end). */
function endList(st: ScanState): void {
  if (st.list && !st.list.whole) st.itemStarts.push(...st.list.cuts);
  st.list = undefined;
}

/**
 * A line indented less than an item's content ends the item, unless it continues the item's
 * paragraph lazily; a marker indented to the innermost item's content (0–3 more) starts one in it.
 */
function trackItems(st: ScanState, s: string): void {
  const { items } = st;
  const indent = indentOf(s);
  if (!(st.paraStart >= 0 && st.paraInContainer && !interruptsParagraph(s))) while (items.length > 0 && indent < items[items.length - 1]!) items.pop();
  const marker = ITEM_MARKER.exec(s);
  if (marker && !THEMATIC.test(s) && indent - (items[items.length - 1] ?? 0) <= 3) items.push(itemContentColumn(s, marker));
}

/** A line inside an open fence or HTML block (which it may close). */
function continuesOpenBlock(st: ScanState, s: string): boolean {
  const { fence, html } = st;
  if (fence) {
    // In a list item the closer's indentation counts from the item's content column.
    if (closesFence(fence.within !== undefined && s.startsWith(' '.repeat(fence.within)) ? s.slice(fence.within) : s, fence.char, fence.len)) st.fence = undefined;
    return true;
  }
  if (html) {
    if (html.end === 'blank' ? BLANK.test(s) : html.end.test(s)) st.html = undefined;
    st.paraStart = -1;
    return true;
  }
  return false;
}

/** A blank line, an H2 (ATX or setext), a setext H1, or a table's rows and delimiter. */
function endsBlockOrStartsSection(st: ScanState, s: string, line: number): boolean {
  if (BLANK.test(s)) {
    st.paraStart = -1;
    st.inTable = false;
    return true;
  }
  if (ATX_H2.test(s)) {
    endList(st);
    st.starts.push(line);
    st.paraStart = -1;
    st.inContainer = false;
    st.inTable = false;
    return true;
  }
  const underlines = st.paraStart >= 0 && !st.paraInContainer && !st.paraIsLinkDefs;
  if (SETEXT_H2.test(s) && underlines) {
    endList(st);
    st.starts.push(st.paraStart);
    st.paraStart = -1;
    st.inContainer = false;
    return true;
  }
  if (SETEXT_H1.test(s) && underlines) {
    st.paraStart = -1;
    return true;
  }
  if (st.inTable) {
    // A table's rows run until a blank line or another block (a thematic break, say).
    if (THEMATIC.test(s) || ATX_ANY.test(s) || FENCE_OPEN.test(s) || BLOCKQUOTE.test(s)) st.inTable = false;
    else return true;
  }
  if (st.paraStart >= 0 && !st.paraInContainer && isTableDelimiter(s) && s.includes('|')) {
    st.inTable = true;
    st.paraStart = -1;
    return true;
  }
  return false;
}

/** A line that opens a fence, an HTML block, a heading or break, a list item or quote, or a paragraph (or continues one). */
function opensBlock(st: ScanState, s: string, line: number): void {
  const f = s.includes('```') || s.includes('~~~') ? FENCE_ANY.exec(s) : null;
  // A fence indented to a list item's content (and up to 3 more) is in the item; one indented
  // less ends the list, and is a fence of its own when indented 0–3.
  const indent = f ? indentOf(s) : 0;
  const item = st.items[st.items.length - 1];
  const within = f && item !== undefined && indent >= item && indent - item <= 3 ? item : undefined;
  if (f && (within !== undefined || indent <= 3) && !(f[2]![0] === '`' && f[3]!.includes('`'))) {
    st.fence = { char: f[2]![0]!, len: f[2]!.length, line, ...(within !== undefined ? { within } : {}) };
    st.paraStart = -1;
    return;
  }
  // Every HTML block opens with `<` after up to 3 spaces.
  const html = HTML_START.test(s);
  const special = html ? HTML_SPECIAL.find(([open]) => open.test(s)) : undefined;
  if (special) {
    const [open, end] = special;
    const after = s.slice(open.exec(s)![0].length);
    if (!end.test(after)) st.html = { end };
    st.paraStart = -1;
    return;
  }
  if (html && (HTML_6.test(s) || (st.paraStart < 0 && HTML_7.test(s)))) {
    st.html = { end: 'blank' };
    st.paraStart = -1;
    return;
  }
  if (ATX_ANY.test(s) || THEMATIC.test(s)) {
    st.paraStart = -1;
    // A heading at column 0 ends the lists and quotes above it (the state is `resetState()`'s).
    if (ATX_TOP.test(s)) st.inContainer = false;
    return;
  }
  if (LIST_ITEM.test(s) || BLOCKQUOTE.test(s)) {
    st.inContainer = true;
    st.paraStart = line;
    st.paraInContainer = true;
    st.paraIsLinkDefs = false;
    return;
  }
  if (st.paraStart < 0) {
    // An indented line after a list belongs to it; an unindented one ends it.
    if (!/^[ \t]/.test(s)) st.inContainer = false;
    // Outside a list, a line indented by four spaces (or a tab) is indented code, not a paragraph.
    if (!st.inContainer && /^(?: {4}|\t)/.test(s)) return;
    st.paraStart = line;
    st.paraInContainer = st.inContainer;
    st.paraIsLinkDefs = LINK_DEF.test(s);
  } else if (st.paraIsLinkDefs && !LINK_DEF.test(s)) {
    st.paraIsLinkDefs = false;
  }
}

/** The slices between section starts (an empty preamble is kept, so the model has one shape); the last one notes a fence never closed. */
function slicesOf(scan: Scan, index: LineIndex): SectionSlice[] {
  const { text, starts, blockStarts, itemStarts, fence } = scan;
  const lines = index.lineCount;
  const slices: SectionSlice[] = [];
  for (let i = 0; i < starts.length; i++) {
    const startLine = starts[i]!;
    const endLine = i + 1 < starts.length ? starts[i + 1]! : lines;
    const from = index.lineStart(startLine);
    const to = endLine >= lines ? text.length : index.lineStart(endLine);
    slices.push({ kind: i === 0 ? 'preamble' : 'section', startLine, endLine, text: text.slice(from, to), blockStarts: blockStarts.filter((l) => l > startLine && l < endLine), itemStarts: itemStarts.filter((l) => l > startLine && l < endLine) });
  }
  if (fence !== undefined && slices.length > 0) {
    const last = slices[slices.length - 1]!;
    slices[slices.length - 1] = { ...last, unclosedFence: { line: fence } };
  }
  return slices;
}
