import type { Code, Heading, List, ListItem, Nodes, Paragraph, Root, RootContent, Table, TableCell } from 'mdast';
import type { Range } from '../types.ts';
import type { JsonSchema } from '../catalogue/schemas.ts';
import { LineIndex } from '../text/lineIndex.ts';
import { parseMarkdown } from './markdown.ts';
import { parseYamlBlock, pointerSegment, type ParsedBlock } from './yamlBlock.ts';
import { suggestField } from './suggest.ts';
import { fieldForLabel, sectionForTitle, type FieldSpec, type SectionSpec } from '../catalogue/sections.ts';
import { FRONT_MATTER_FIELDS } from '../catalogue/sections.ts';
import { normaliseLabel } from '../catalogue/normalise.ts';
import type { CommentInfo, Finding, HeadingInfo, PointerSpan, ProseInfo, SectionModel } from '../model/types.ts';
import type { SectionSlice } from './scanSections.ts';
import { interpretBullet } from './bullets.ts';
import { coerceScalar, splitInlineList, stripCode } from './values.ts';

/** Converts offsets in a slice's text to document positions. */
export class SliceLocator {
  readonly index: LineIndex;
  constructor(
    readonly text: string,
    readonly startLine: number,
    readonly bom: boolean,
  ) {
    this.index = new LineIndex(text);
  }
  range(start: number, end: number): Range {
    return { start: this.pos(start), end: this.pos(end) };
  }
  pos(offset: number): { line: number; character: number } {
    const p = this.index.positionAt(offset, this.startLine);
    return this.bom && p.line === 0 ? { line: 0, character: p.character + 1 } : p;
  }
  nodeRange(node: { position?: { start: { offset?: number }; end: { offset?: number } } | undefined }): Range {
    return this.range(node.position?.start.offset ?? 0, node.position?.end.offset ?? 0);
  }
}

type Mutable = Record<string, unknown>;

/** Collects a section's value and source map while walking its blocks. */
/** An unknown label, with the field it most likely means when there is one (docs/rules.md, unknown-field). */
function unknownField(range: Range, label: string, section: string, fields: readonly FieldSpec[] | undefined): Finding {
  const suggestion = fields ? suggestField(label, fields) : undefined;
  return { code: 'unknown-field', range, args: { label, section, ...(suggestion ? { suggestion } : {}) }, ...(suggestion ? { variant: 'suggest' } : {}) };
}

/** A problem of a YAML/JSON block as a finding at its place in the document (variant and arguments kept). */
function problemFinding(pr: ParsedBlock['problems'][number], mapper: (span: readonly [number, number]) => Range): Finding {
  return { code: pr.code, range: mapper(pr.span), ...(pr.args ? { args: pr.args } : {}), ...(pr.variant ? { variant: pr.variant } : {}) };
}

class Builder {
  readonly map = new Map<string, PointerSpan>();
  readonly findings: Finding[] = [];
  readonly prose: ProseInfo[] = [];
  constructor(readonly loc: SliceLocator) {}

  raw(node: Nodes): string {
    return this.loc.text.slice(node.position?.start.offset ?? 0, node.position?.end.offset ?? 0);
  }

  /** Maps a parsed YAML/JSON block's spans into document ranges under `prefix`. */
  addBlock(block: ParsedBlock, code: Code, prefix: string): void {
    const mapper = fenceMapper(this.loc, code);
    if (!mapper) return;
    for (const [p, s] of block.spans) {
      const value = mapper(s.value);
      this.map.set(prefix + p, s.key ? { key: mapper(s.key), value } : { value });
    }
    for (const pr of block.problems) {
      this.findings.push(problemFinding(pr, mapper));
    }
  }
}

/**
 * Builds a function that maps offsets inside a fenced block's content to document ranges.
 * remark strips the indentation of fences in list items and block quotes from `code.value`, so
 * each content line is matched to its source line and shifted by what was removed.
 */
function fenceMapper(loc: SliceLocator, code: Code): ((span: readonly [number, number]) => Range) | undefined {
  const start = code.position?.start.offset;
  if (start === undefined) return undefined;
  const firstLine = loc.index.positionAt(start).line + 1;
  const valueIndex = new LineIndex(code.value);
  const removed: number[] = [];
  for (let i = 0; i < valueIndex.lineCount; i++) {
    const src = loc.index.lineText(firstLine + i);
    const val = valueIndex.lineText(i);
    removed.push(src.endsWith(val) ? src.length - val.length : 0);
  }
  const at = (offset: number) => {
    const p = valueIndex.positionAt(offset);
    const line = firstLine + p.line;
    const character = p.character + (removed[p.line] ?? 0);
    return loc.pos(loc.index.lineStart(line) + character);
  };
  return (span) => ({ start: at(span[0]), end: at(span[1]) });
}

/** Longest line and deepest block nesting remark is given; beyond them its time grows too fast (bench/robustness). */
export const MAX_LINE_LENGTH = 20_000;
export const MAX_NESTING = 100;

/**
 * Why a slice is too complex to hand to remark, as the `content-too-complex` message variant and
 * its arguments, or undefined: a line longer than MAX_LINE_LENGTH characters (`size` = its
 * length), or more than MAX_NESTING nested block quotes and list markers (`size` = the depth).
 */
function complexity(text: string): { variant: 'longLine' | 'nesting'; args: { size: number; limit: number } } | undefined {
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end - start > MAX_LINE_LENGTH) return { variant: 'longLine', args: { size: end - start, limit: MAX_LINE_LENGTH } };
    const prefix = /^(?:[ \t]*(?:>|[-+*](?=[ \t])|\d{1,9}[.)](?=[ \t])))*/.exec(text.slice(start, Math.min(end, start + 4 * MAX_NESTING + 400)))![0];
    const depth = (prefix.match(/>|[-+*]|\d{1,9}[.)]/g) ?? []).length;
    if (depth > MAX_NESTING) return { variant: 'nesting', args: { size: depth, limit: MAX_NESTING } };
    start = end + 1;
  }
  return undefined;
}

/** Plain text of a node (inline code keeps its content, emphasis markers dropped). */
export function plainText(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string' && node.type !== 'html') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(plainText).join('');
  return '';
}

/** Label and value of a `**Label**: value` paragraph, with offsets into the slice text. */
interface Labelled {
  label: string;
  labelRange: Range;
  value: string;
  valueRange: Range;
}

function labelOf(b: Builder, para: Paragraph, fields: readonly FieldSpec[] | undefined): Labelled | undefined {
  const first = para.children[0];
  const text = b.loc.text;
  const paraEnd = para.position?.end.offset ?? 0;
  if (first && first.type === 'strong') {
    let label = plainText(first).trim();
    let after = first.position?.end.offset ?? 0;
    let colon = /[:：]$/.test(label);
    if (colon) label = label.replace(/\s*[:：]$/, '');
    const m = /^[ \t]*[:：]/.exec(text.slice(after, paraEnd));
    if (!colon && m) {
      colon = true;
      after += m[0].length;
    }
    if (!colon) return undefined;
    while (after < paraEnd && /[ \t]/.test(text[after]!)) after++;
    return {
      label,
      labelRange: b.loc.nodeRange(first),
      value: text.slice(after, paraEnd).trim(),
      valueRange: b.loc.range(after, paraEnd),
    };
  }
  // `- key: value` without bold counts only when `key` is a known field.
  const start = para.position?.start.offset ?? 0;
  const line = text.slice(start, paraEnd);
  const m = /^([A-Za-z_][\w \-]*?|[\p{Script=Han}\w ]+?)[ \t]*[:：][ \t]*/u.exec(line);
  if (m && fields && fieldForLabel(fields, m[1]!)) {
    return {
      label: m[1]!,
      labelRange: b.loc.range(start, start + m[1]!.length),
      value: line.slice(m[0].length).trim(),
      valueRange: b.loc.range(start + m[0].length, paraEnd),
    };
  }
  return undefined;
}

/** The items of every list nested directly in a list item (an HTML comment between them splits one list in two). */
function nestedItems(item: ListItem): ListItem[] {
  return item.children.flatMap((c) => (c.type === 'list' ? c.children : []));
}

/** The nested items of a list item at every depth, in document order (list fields flatten them). */
function allNestedItems(item: ListItem): ListItem[] {
  return nestedItems(item).flatMap((n) => [n, ...allNestedItems(n)]);
}

function isYamlish(code: Code): 'yaml' | 'json' | undefined {
  const lang = (code.lang ?? '').toLowerCase();
  if (lang === 'yaml' || lang === 'yml') return 'yaml';
  if (lang === 'json' || lang === 'jsonc') return 'json';
  return undefined;
}

/** Sets `obj[field.key]` from Markdown text, coercing scalars by the field's schema type. */
function setField(
  b: Builder,
  obj: Mutable,
  prefix: string,
  field: FieldSpec,
  l: Labelled,
  nested: readonly ListItem[],
  seen: Map<string, Range>,
): void {
  const p = `${prefix}/${pointerSegment(field.key)}`;
  const prev = seen.get(field.key);
  if (prev) {
    b.findings.push({ code: 'duplicate-key', range: l.labelRange, args: { key: l.label }, related: [{ range: prev, messageId: 'related.firstDefined' }] });
    return;
  }
  seen.set(field.key, l.labelRange);
  if (nested.length > 0 && !l.value && field.types.includes('object') && !field.types.includes('array')) {
    obj[field.key] = nestedObject(b, field, nested, p);
    b.map.set(p, { key: l.labelRange, value: b.loc.range(nested[0]!.position?.start.offset ?? 0, nested[nested.length - 1]!.position?.end.offset ?? 0) });
    return;
  }
  const wantsArray = field.types.includes('array') && !(field.types.includes('string') && nested.length === 0);
  if (wantsArray) {
    const items: unknown[] = [];
    let i = 0;
    const itemRanges: [string, PointerSpan][] = [];
    if (nested.length > 0) {
      for (const item of nested.flatMap((n) => [n, ...allNestedItems(n)])) {
        const para = item.children.find((c): c is Paragraph => c.type === 'paragraph');
        const r = b.loc.nodeRange(para ?? item);
        items.push(para ? stripCode(b.raw(para).trim()) : '');
        itemRanges.push([`${p}/${i++}`, { value: r }]);
      }
    } else if (l.value) {
      // Seed 001 writes source priority as `A > B > C`.
      const separators = field.key === 'source_priority' && !/[,，、]/.test(l.value) ? /[>＞]/ : undefined;
      for (const part of splitInlineList(l.value, separators)) {
        items.push(stripCode(part.text));
        itemRanges.push([`${p}/${i++}`, { value: shiftRange(b.loc, l.valueRange, part.start, part.end) }]);
      }
    }
    obj[field.key] = items;
    const last = nested[nested.length - 1];
    b.map.set(p, { key: l.labelRange, value: l.value || !last ? l.valueRange : b.loc.range(nested[0]!.position?.start.offset ?? 0, last.position?.end.offset ?? 0) });
    for (const [ip, s] of itemRanges) b.map.set(ip, s);
    return;
  }
  obj[field.key] = coerceScalar(l.value, field.types);
  b.map.set(p, { key: l.labelRange, value: l.valueRange });
}

/**
 * An object written as nested bullets under a label (`- **Circuit Breaker**:` then
 * `  - **Failures**: 3`), or a map (`- **Tool Timeouts**:` then `` - `read_file`: 30s ``): each
 * nested `label: value` sets the property the label names (by alias) or, in a map, the label itself.
 */
function nestedObject(b: Builder, field: FieldSpec, nested: readonly ListItem[], p: string): Mutable {
  const props = (field.schema['properties'] ?? {}) as Record<string, JsonSchema>;
  const subFields: FieldSpec[] = Object.entries(props).map(([key, schema]) => ({
    key,
    labels: [normaliseLabel(key), ...((schema['x-aliases'] as string[] | undefined) ?? []).map(normaliseLabel)],
    types: typeof schema['type'] === 'string' ? [schema['type'] as string] : Array.isArray(schema['type']) ? (schema['type'] as string[]) : [],
    schema,
  }));
  const additional = field.schema['additionalProperties'];
  const valueTypes = additional && typeof additional === 'object' ? [String((additional as JsonSchema)['type'] ?? 'string')] : ['string'];
  const out: Mutable = {};
  for (const item of nested) {
    const para = item.children[0]?.type === 'paragraph' ? (item.children[0] as Paragraph) : undefined;
    if (!para) continue;
    const raw = b.raw(para);
    const m = /^\s*(\*\*|`)?([^*`:：]+?)(?:\*\*|`)?\s*[:：]\s*/.exec(raw);
    if (!m) continue;
    const label = m[2]!.trim();
    const sub = fieldForLabel(subFields, label);
    if (!sub && subFields.length > 0 && !additional) {
      b.findings.push({ code: 'unknown-field', range: b.loc.nodeRange(para), args: { label, section: field.key } });
      continue;
    }
    const key = sub?.key ?? label;
    const start = (para.position?.start.offset ?? 0) + m[0].length;
    out[key] = coerceScalar(raw.slice(m[0].length).trim(), sub?.types ?? valueTypes);
    b.map.set(`${p}/${pointerSegment(key)}`, { key: b.loc.range(para.position?.start.offset ?? 0, start), value: b.loc.range(start, para.position?.end.offset ?? start) });
  }
  return out;
}

/** A sub-range of a single-line value range, by character offsets into the value text. */
function shiftRange(_loc: SliceLocator, r: Range, start: number, end: number): Range {
  if (r.start.line !== r.end.line) return r;
  return { start: { line: r.start.line, character: r.start.character + start }, end: { line: r.start.line, character: r.start.character + end } };
}

/** Fills an object (a section, a tool, a pool) from a list of labelled bullets. */
function fillObjectFromList(b: Builder, obj: Mutable, prefix: string, fields: readonly FieldSpec[], list: List, seen: Map<string, Range>, sectionTitle: string): void {
  for (const item of list.children) {
    const para = item.children[0]?.type === 'paragraph' ? (item.children[0] as Paragraph) : undefined;
    const l = para ? labelOf(b, para, fields) : undefined;
    if (!l) {
      // An unlabelled bullet inside an object: nested labelled bullets may still fill fields.
      for (const child of item.children) if (child.type === 'list') fillObjectFromList(b, obj, prefix, fields, child, seen, sectionTitle);
      continue;
    }
    const field = fieldForLabel(fields, l.label);
    if (!field) {
      b.findings.push(unknownField(l.labelRange, l.label, sectionTitle, fields));
      continue;
    }
    const nested = nestedItems(item);
    const code = item.children.find((c): c is Code => c.type === 'code' && !!isYamlish(c));
    if (code && !l.value && (field.types.includes('object') || field.types.length === 0)) {
      const block = parseYamlBlock(code.value, isYamlish(code));
      const p = `${prefix}/${pointerSegment(field.key)}`;
      seen.set(field.key, l.labelRange);
      obj[field.key] = block.value;
      b.addBlock(block, code, p);
      const s = b.map.get(p);
      b.map.set(p, { key: l.labelRange, value: s?.value ?? b.loc.nodeRange(code) });
      continue;
    }
    setField(b, obj, prefix, field, l, nested, seen);
  }
}

/** Merges a YAML mapping into an object, keys matched by field key or alias. */
function mergeMapping(b: Builder, obj: Mutable, prefix: string, fields: readonly FieldSpec[] | undefined, block: ParsedBlock, code: Code, seen: Map<string, Range>, from = '', sectionTitle = ''): void {
  const value = from ? (block.value as Mutable | undefined)?.[from.slice(1)] : block.value;
  const mapper = fenceMapper(b.loc, code);
  if (!mapper) return;
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    // A block that did not parse still reports why.
    if (block.value === undefined) for (const pr of block.problems) b.findings.push(problemFinding(pr, mapper));
    return;
  }
  // Source key segment → destination key, for the keys that were merged.
  const accepted = new Map<string, string>();
  for (const [k, v] of Object.entries(value as Mutable)) {
    const field = fields ? fieldForLabel(fields, k) : undefined;
    const key = field?.key ?? k;
    const span = block.spans.get(`${from}/${pointerSegment(k)}`);
    const keyRange = span?.key ? mapper(span.key) : mapper([0, 0]);
    if (fields && !field) {
      b.findings.push(unknownField(keyRange, k, sectionTitle, fields));
      continue;
    }
    const prev = seen.get(key);
    if (prev) {
      b.findings.push({ code: 'duplicate-key', range: keyRange, args: { key: k }, related: [{ range: prev, messageId: 'related.firstDefined' }] });
      continue;
    }
    seen.set(key, keyRange);
    obj[key] = v;
    accepted.set(pointerSegment(k), pointerSegment(key));
  }
  // One pass over the block's spans (a block may hold thousands of values).
  const lead = `${from}/`;
  for (const [p, s] of block.spans) {
    if (!p.startsWith(lead)) continue;
    const slash = p.indexOf('/', lead.length);
    const seg = slash < 0 ? p.slice(lead.length) : p.slice(lead.length, slash);
    const dst = accepted.get(seg);
    if (dst === undefined) continue;
    const value = mapper(s.value);
    b.map.set(`${prefix}/${dst}${slash < 0 ? '' : p.slice(slash)}`, s.key ? { key: mapper(s.key), value } : { value });
  }
  for (const pr of block.problems) b.findings.push(problemFinding(pr, mapper));
}

/**
 * The key of a YAML mapping that wraps a whole section (`tools:` in TOOLS), when it is the
 * mapping's only key: a field that shares a name with a section alias (`completion_criteria`
 * in TASK) must not be unwrapped.
 */
function soleSectionKey(value: unknown, spec: SectionSpec): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const keys = Object.keys(value as Mutable);
  return keys.length === 1 && sectionForTitle(keys[0]!)?.key === spec.key ? keys[0] : undefined;
}

/** Appends YAML list items (a top-level list, or the list under the section key) to `items`. */
function appendBlockItems(b: Builder, items: unknown[], spec: SectionSpec, block: ParsedBlock, code: Code): boolean {
  let from = '';
  let list = block.value;
  if (list && typeof list === 'object' && !Array.isArray(list)) {
    const keyed = soleSectionKey(list, spec);
    if (keyed === undefined) return false;
    from = `/${pointerSegment(keyed)}`;
    list = (list as Mutable)[keyed];
  }
  if (!Array.isArray(list)) return false;
  const mapper = fenceMapper(b.loc, code);
  if (!mapper) return true;
  const base = items.length;
  for (const item of list) items.push(item);
  // One pass over the block's spans (a block may hold thousands of items).
  const lead = `${from}/`;
  for (const [p, s] of block.spans) {
    if (!p.startsWith(lead)) continue;
    const slash = p.indexOf('/', lead.length);
    const i = Number(slash < 0 ? p.slice(lead.length) : p.slice(lead.length, slash));
    if (!Number.isInteger(i)) continue;
    const value = mapper(s.value);
    b.map.set(`/${base + i}${slash < 0 ? '' : p.slice(slash)}`, s.key ? { key: mapper(s.key), value } : { value });
  }
  for (const pr of block.problems) b.findings.push(problemFinding(pr, mapper));
  return true;
}

/** Table rows → items (array sections), header cells matched to item fields. */
function appendTableRows(b: Builder, items: unknown[], spec: SectionSpec, table: Table): void {
  const [header, ...rows] = table.children;
  if (!header) return;
  const columns = header.children.map((cell) => {
    const label = plainText(cell).trim();
    const field = fieldForLabel(spec.fields, label);
    const range = cellContent(b, cell).range;
    if (!field && label) b.findings.push(unknownField(range, label, spec.title, spec.fields));
    return { field, range };
  });
  for (const row of rows) {
    const i = items.length;
    const item: Mutable = {};
    const rowRange = b.loc.nodeRange(row);
    b.map.set(`/${i}`, { value: rowRange });
    if (row.children.length !== columns.length) {
      b.findings.push({ code: 'table-shape', range: rowRange, args: { cells: row.children.length, columns: columns.length } });
    }
    row.children.forEach((cell, c) => {
      const col = columns[c];
      if (!col?.field) return;
      const { text: raw, range } = cellContent(b, cell);
      const value = col.field.types.includes('array') && !col.field.types.includes('string') ? splitInlineList(raw).map((p) => stripCode(p.text)) : coerceScalar(raw, col.field.types);
      item[col.field.key] = value;
      b.map.set(`/${i}/${pointerSegment(col.field.key)}`, { key: col.range, value: range });
    });
    items.push(item);
  }
}

/**
 * A table cell's text and range without its pipes and padding (remark's cell position includes
 * the leading `|`). Escaped pipes (`\|`) are unescaped in the text.
 */
function cellContent(b: Builder, cell: TableCell): { text: string; range: Range } {
  let start = cell.position?.start.offset ?? 0;
  let end = cell.position?.end.offset ?? start;
  const t = b.loc.text;
  if (t[start] === '|') start++;
  // The last cell runs to the end of the line, past the closing pipe and any spaces after it.
  while (end > start && /[ \t]/.test(t[end - 1]!)) end--;
  if (end > start && t[end - 1] === '|' && t[end - 2] !== '\\') end--;
  while (start < end && /[ \t]/.test(t[start]!)) start++;
  while (end > start && /[ \t]/.test(t[end - 1]!)) end--;
  return { text: t.slice(start, end).replace(/\\\|/g, '|'), range: b.loc.range(start, end) };
}

/** Key/value tables (`| Field | Value |`) in object sections. */
function fillObjectFromTable(b: Builder, obj: Mutable, prefix: string, spec: SectionSpec, table: Table, seen: Map<string, Range>): void {
  const [, ...rows] = table.children;
  for (const row of rows) {
    const [k, v] = row.children;
    if (!k || !v) continue;
    const label = plainText(k).trim();
    const field = fieldForLabel(spec.fields, label);
    const keyRange = cellContent(b, k).range;
    if (!field) {
      b.findings.push(unknownField(keyRange, label, spec.title, spec.fields));
      continue;
    }
    const value = cellContent(b, v);
    setField(b, obj, prefix, field, { label, labelRange: keyRange, value: value.text, valueRange: value.range }, [], seen);
  }
}

/** An H3 that starts an item in TOOLS and MEMORY_POOLS: an identifier, optionally in backticks. */
const ITEM_HEADING = /^`?[\p{L}_][\p{L}\p{N}_.\-]*`?$/u;

/** Builds the value of an array section. */
function buildArraySection(b: Builder, spec: SectionSpec, blocks: RootContent[]): unknown[] {
  const items: unknown[] = [];
  let current: { obj: Mutable; prefix: string; seen: Map<string, Range> } | undefined;
  for (const node of blocks) {
    if (node.type === 'heading') {
      // H4 and deeper belong to the H3 above them.
      if (node.depth > 3 && current) continue;
      current = undefined;
      const text = plainText(node).trim();
      const isWrapper = spec.titles.includes(normaliseLabel(text));
      if (spec.headingItems && node.depth === 3 && !isWrapper && ITEM_HEADING.test(text)) {
        const name = stripCode(text);
        const i = items.length;
        const obj: Mutable = { name };
        items.push(obj);
        const r = b.loc.nodeRange(node);
        b.map.set(`/${i}`, { value: r });
        b.map.set(`/${i}/name`, { value: headingTextRange(b, node) });
        current = { obj, prefix: `/${i}`, seen: new Map([['name', r]]) };
      }
      continue;
    }
    if (current) {
      if (node.type === 'list') fillObjectFromList(b, current.obj, current.prefix, spec.fields, node, current.seen, spec.title);
      else if (node.type === 'code' && isYamlish(node)) {
        mergeMapping(b, current.obj, current.prefix, spec.fields, parseYamlBlock(node.value, isYamlish(node)), node, current.seen, '', spec.title);
      } else if (node.type === 'paragraph') {
        const l = labelOf(b, node, spec.fields);
        const field = l && fieldForLabel(spec.fields, l.label);
        if (l && field) setField(b, current.obj, current.prefix, field, l, [], current.seen);
        else if (!l && spec.fields.some((f) => f.key === 'description') && current.obj['description'] === undefined) {
          current.obj['description'] = b.raw(node).trim();
          b.map.set(`${current.prefix}/description`, { value: b.loc.nodeRange(node) });
        }
      }
      continue;
    }
    if (node.type === 'table') appendTableRows(b, items, spec, node);
    else if (node.type === 'code' && isYamlish(node)) {
      const block = parseYamlBlock(node.value, isYamlish(node));
      if (!appendBlockItems(b, items, spec, block, node)) {
        // A single mapping: one item.
        if (block.value && typeof block.value === 'object') {
          const i = items.length;
          const obj: Mutable = {};
          items.push(obj);
          b.map.set(`/${i}`, { value: b.loc.nodeRange(node) });
          mergeMapping(b, obj, `/${i}`, spec.fields, block, node, new Map(), '', spec.title);
        } else b.addBlock({ ...block, spans: new Map() }, node, '');
      }
    } else if (node.type === 'list') {
      for (const item of node.children) appendBulletItem(b, items, spec, item);
    } else if (node.type === 'paragraph') noteProse(b, node);
  }
  return items;
}

function appendBulletItem(b: Builder, items: unknown[], spec: SectionSpec, item: ListItem): void {
  const i = items.length;
  const para = item.children[0]?.type === 'paragraph' ? (item.children[0] as Paragraph) : undefined;
  const itemRange = b.loc.nodeRange(item);
  if (spec.bullets) {
    const l = para ? labelOf(b, para, undefined) : undefined;
    const nested = nestedItems(item).map((n) => {
      const p = n.children[0]?.type === 'paragraph' ? (n.children[0] as Paragraph) : undefined;
      return { text: p ? b.raw(p).trim() : '', range: b.loc.nodeRange(n), labelled: p ? labelOf(b, p, spec.fields) : undefined };
    });
    const out = interpretBullet(spec.bullets, {
      text: para ? b.raw(para).trim() : '',
      range: para ? b.loc.nodeRange(para) : itemRange,
      label: l,
      nested,
      fields: spec.fields,
    });
    for (const f of out.findings) b.findings.push(f);
    // A bullet the form could not read is reported (unrecognised-content) and left out of the data.
    if (out.value === undefined) return;
    items.push(out.value);
    b.map.set(`/${i}`, { value: itemRange });
    for (const [p, s] of out.spans) b.map.set(`/${i}${p}`, s);
    return;
  }
  // Objects written as bullets: `- **Pool**: device_log` with nested labelled bullets.
  const l = para ? labelOf(b, para, spec.fields) : undefined;
  if (l && fieldForLabel(spec.fields, l.label)) {
    const obj: Mutable = {};
    items.push(obj);
    b.map.set(`/${i}`, { value: itemRange });
    const seen = new Map<string, Range>();
    const wrapper: List = { type: 'list', children: [{ ...item, children: [para!] }] };
    fillObjectFromList(b, obj, `/${i}`, spec.fields, wrapper, seen, spec.title);
    for (const child of item.children) if (child.type === 'list') fillObjectFromList(b, obj, `/${i}`, spec.fields, child, seen, spec.title);
    return;
  }
  b.findings.push({ code: 'unrecognised-content', range: para ? b.loc.nodeRange(para) : itemRange, args: { section: spec.title } });
}

function headingTextRange(b: Builder, node: Heading): Range {
  const first = node.children[0];
  const last = node.children[node.children.length - 1];
  if (!first || !last) return b.loc.nodeRange(node);
  return b.loc.range(first.position?.start.offset ?? 0, last.position?.end.offset ?? 0);
}

const PROSE_MIN = 280;

function noteProse(b: Builder, para: Paragraph): void {
  const len = plainText(para).length;
  if (len >= PROSE_MIN) b.prose.push({ range: b.loc.nodeRange(para), length: len });
}

/** Builds the value of an object section. */
function buildObjectSection(b: Builder, spec: SectionSpec, blocks: RootContent[]): Mutable {
  const obj: Mutable = {};
  const seen = new Map<string, Range>();
  let field: { spec: FieldSpec; range: Range } | undefined;
  for (const node of blocks) {
    if (node.type === 'heading') {
      const f = fieldForLabel(spec.fields, plainText(node));
      field = f ? { spec: f, range: headingTextRange(b, node) } : undefined;
      continue;
    }
    if (field) {
      const key = field.spec.key;
      const p = `/${pointerSegment(key)}`;
      const isArray = field.spec.types.includes('array');
      if (node.type === 'list' && isArray) {
        const arr = (Array.isArray(obj[key]) ? obj[key] : (obj[key] = [])) as unknown[];
        if (!b.map.has(p)) b.map.set(p, { key: field.range, value: b.loc.nodeRange(node) });
        const visit = (list: List) => {
          for (const item of list.children) {
            const para = item.children[0]?.type === 'paragraph' ? (item.children[0] as Paragraph) : undefined;
            b.map.set(`${p}/${arr.length}`, { value: b.loc.nodeRange(para ?? item) });
            arr.push(para ? b.raw(para).trim() : '');
            for (const child of item.children) if (child.type === 'list') visit(child);
          }
        };
        visit(node);
        continue;
      }
      if (node.type === 'paragraph' && !isArray && obj[key] === undefined) {
        obj[key] = coerceScalar(b.raw(node).trim(), field.spec.types);
        b.map.set(p, { key: field.range, value: b.loc.nodeRange(node) });
        continue;
      }
      if (node.type === 'code' && isYamlish(node) && obj[key] === undefined) {
        const block = parseYamlBlock(node.value, isYamlish(node));
        obj[key] = block.value;
        b.addBlock(block, node, p);
        b.map.set(p, { key: field.range, value: b.loc.nodeRange(node) });
        continue;
      }
    }
    if (node.type === 'list') fillObjectFromList(b, obj, '', spec.fields, node, seen, spec.title);
    else if (node.type === 'table') fillObjectFromTable(b, obj, '', spec, node, seen);
    else if (node.type === 'code' && isYamlish(node)) {
      const block = parseYamlBlock(node.value, isYamlish(node));
      const keyed = soleSectionKey(block.value, spec);
      mergeMapping(b, obj, '', spec.fields, block, node, seen, keyed !== undefined ? `/${pointerSegment(keyed)}` : '', spec.title);
    } else if (node.type === 'paragraph') {
      const l = labelOf(b, node, spec.fields);
      const f = l && fieldForLabel(spec.fields, l.label);
      if (l && f) setField(b, obj, '', f, l, [], seen);
      else if (l) b.findings.push(unknownField(l.labelRange, l.label, spec.title, spec.fields));
      else noteProse(b, node);
    }
  }
  return obj;
}

/** OUTPUT_SCHEMA: the first YAML/JSON block is the schema (optionally under `output_schema:`). */
function buildSchemaSection(b: Builder, spec: SectionSpec, blocks: RootContent[]): unknown {
  for (const node of blocks) {
    if (node.type !== 'code' || !isYamlish(node)) continue;
    const block = parseYamlBlock(node.value, isYamlish(node));
    const v = block.value as Mutable | undefined;
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && sectionForTitle(Object.keys(v)[0]!)?.key === spec.key) {
      const k = Object.keys(v)[0]!;
      const obj: Mutable = {};
      mergeMapping(b, obj, '', undefined, block, node, new Map());
      const inner = obj[k];
      const shifted = new Map<string, PointerSpan>();
      for (const [p, s] of b.map) if (p.startsWith(`/${pointerSegment(k)}`)) shifted.set(p.slice(k.length + 1), s);
      b.map.clear();
      for (const [p, s] of shifted) b.map.set(p, s);
      return inner;
    }
    b.addBlock(block, node, '');
    return block.value;
  }
  return undefined;
}

/** Builds the front matter's data from the preamble's `yaml` node. */
function buildFrontMatter(b: Builder, tree: Root): SectionModel['frontMatter'] {
  const node = tree.children[0];
  if (!node || node.type !== 'yaml') return undefined;
  const block = parseYamlBlock(node.value, 'yaml');
  // The YAML node starts on the `---` line and its content on the next, as a fence's does.
  const asFence: Code = { type: 'code', value: node.value, ...(node.position ? { position: node.position } : {}) };
  const fm = new Builder(b.loc);
  fm.addBlock(block, asFence, '');
  for (const f of fm.findings) b.findings.push(f);
  const value = block.value && typeof block.value === 'object' && !Array.isArray(block.value) ? (block.value as Record<string, unknown>) : {};
  // Front matter that does not parse contributes nothing but its `contract:` marker, so that a
  // typo elsewhere in it does not silently turn a contract into a free-form file.
  const marker = block.value === undefined ? /^contract:[ \t]*(true|false)[ \t]*$/m.exec(node.value) : null;
  if (marker) value['contract'] = marker[1] === 'true';
  if (block.value !== null && block.value !== undefined && value !== block.value) {
    b.findings.push({ code: 'schema', range: b.loc.nodeRange(node), variant: 'frontMatter' });
  }
  for (const k of Object.keys(value)) {
    if (!FRONT_MATTER_FIELDS.some((f) => f.key === k) && !sectionForTitle(k)) {
      const s = fm.map.get(`/${pointerSegment(k)}`);
      // Unknown front-matter keys are common (tools of other agents' formats): warn, keep going.
      b.findings.push({ code: 'unknown-field', range: s?.key ?? b.loc.nodeRange(node), args: { label: k }, variant: 'frontMatter' });
    }
  }
  return { value, map: fm.map, range: b.loc.nodeRange(node) };
}

/**
 * Parses one slice (preamble or H2 section) with remark and builds its model: the section's
 * value per its schema, a source map for every value, and findings for what could not be read.
 * Never throws. Positions are absolute in the document (`slice.startLine` added).
 */
export function buildSection(slice: SectionSlice, bom: boolean): SectionModel {
  const loc = new SliceLocator(slice.text, slice.startLine, bom);
  const tooComplex = complexity(slice.text);
  let tree: Root = { type: 'root', children: [] };
  let parseError: string | undefined;
  if (!tooComplex) {
    try {
      tree = parseMarkdown(slice.text);
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
  collectInfo(b, tree, headings, comments, fences);

  const endPos = loc.pos(slice.text.length);
  const range: Range = { start: { line: slice.startLine, character: 0 }, end: endPos };
  let title: string | undefined;
  let titleRange: Range | undefined;
  let spec: SectionSpec | undefined;
  let value: unknown;
  let frontMatter: SectionModel['frontMatter'];

  const blocks = tree.children;
  if (slice.kind === 'preamble') {
    frontMatter = buildFrontMatter(b, tree);
    if (!frontMatter && /^---[ \t]*(?:\r\n|\n|\r)/.test(slice.text) && tree.children[0]?.type !== 'yaml') {
      // An opening `---` never closed: remark reads a thematic break and the YAML as text.
      b.findings.push({ code: 'yaml-syntax', range: loc.range(0, 3), variant: 'unclosedFrontMatter' });
    }
  } else {
    const h = blocks[0];
    if (h && h.type === 'heading' && h.depth === 2) {
      title = plainText(h).trim();
      titleRange = headingTextRange(b, h);
      spec = sectionForTitle(title);
      const rest = blocks.slice(1);
      if (spec) {
        value = spec.shape === 'array' ? buildArraySection(b, spec, rest) : spec.shape === 'schema' ? buildSchemaSection(b, spec, rest) : buildObjectSection(b, spec, rest);
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
    mdast: tree,
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
