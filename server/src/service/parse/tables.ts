import type { Table, TableCell, TableRow } from 'mdast';
import type { Range } from '../types.ts';
import { pointerSegment } from './yamlBlock.ts';
import { fieldForLabel, type FieldSpec, type SectionSpec } from '../schema/sections.ts';
import { addItem, buildItem, itemKey, placed, type BuiltItem } from './headingItems.ts';
import { coerceScalar, splitInlineList, stripCode } from '../model/values.ts';
import { lineStartOffset, plainText, unknownField, type Builder, type Mutable } from './builder.ts';
import { setField } from './labels.ts';

// The GFM table form: one item per row (array sections) or `| Field | Value |` rows (object sections).

/**
 * Table rows → items (array sections), header cells matched to item fields. A row is an item as a
 * tool is (headingItems.ts): one whose text and header are the same as in the previous version
 * is taken from `reuse` (moved when lines above it changed), so an edit in one row reads that row
 * only, and the other rows stay the same objects (what is cached by value carries over).
 */
export function appendTableRows(b: Builder, items: unknown[], spec: SectionSpec, table: Table, reuse?: ReadonlyMap<string, BuiltItem>, built?: Map<string, BuiltItem>): void {
  const [header, ...rows] = table.children;
  if (!header) return;
  const columns = header.children.map((cell) => {
    const label = plainText(cell).trim();
    const field = fieldForLabel(spec.fields, label);
    const range = cellContent(b, cell).range;
    if (!field && label) b.findings.push(unknownField(range, label, spec.title, spec.fields));
    return { field, range };
  });
  // From the start of the line.
  const textOf = (n: TableRow) => b.loc.text.slice(lineStartOffset(n), n.position?.end.offset ?? 0);
  const head = textOf(header);
  const headLine = b.loc.pos(header.position?.start.offset ?? 0).line;
  for (const row of rows) {
    const line = b.loc.pos(row.position?.start.offset ?? 0).line;
    // A row's map holds its header cells' ranges (as keys): it is taken only as far below the same header.
    const key = itemKey(`${spec.title}\u0000${head}\u0000${line - headLine}`, textOf(row));
    // Two rows of the same text are two objects: one earlier row is taken once.
    const earlier = built?.has(key) ? undefined : reuse?.get(key);
    const item = earlier ? placed(earlier, items.length, line) : buildItem(b, items.length, line, (sub) => buildRow(sub, items.length, row, columns));
    items.push(item.value);
    addItem(b, item);
    if (built && !built.has(key)) built.set(key, item);
  }
}

/** One row's item: its cells under their columns' fields. */
function buildRow(b: Builder, i: number, row: TableRow, columns: readonly { field: FieldSpec | undefined; range: Range }[]): Mutable {
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
    // An empty cell is an absent field (docs/contract-format.md §4.2): a static source has no times.
    if (raw === '') return;
    const value = col.field.types.includes('array') && !col.field.types.includes('string') ? splitInlineList(raw).map((p) => stripCode(p.text)) : coerceScalar(raw, col.field.types);
    item[col.field.key] = value;
    b.map.set(`/${i}/${pointerSegment(col.field.key)}`, { key: col.range, value: range });
  });
  return item;
}

/**
 * A table cell's text and range without its pipes and padding (remark's cell position includes
 * the leading `|`). Escaped pipes (`\|`) are unescaped in the text.
 */
export function cellContent(b: Builder, cell: TableCell): { text: string; range: Range } {
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
export function fillObjectFromTable(b: Builder, obj: Mutable, prefix: string, spec: SectionSpec, table: Table, seen: Map<string, Range>): void {
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
    if (value.text === '') continue;
    setField(b, obj, prefix, field, { label, labelRange: keyRange, value: value.text, valueRange: value.range }, [], seen);
  }
}

