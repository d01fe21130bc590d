import type { Code, List, ListItem, Paragraph, RootContent } from 'mdast';
import type { Range } from '../types.ts';
import type { JsonSchema } from '../schema/schemas.ts';
import { parseYamlBlock, pointerSegment } from './yamlBlock.ts';
import { fieldForLabel, type FieldSpec, type SectionSpec } from '../schema/sections.ts';
import { normaliseLabel } from '../schema/normalise.ts';
import type { PointerSpan } from '../model/types.ts';
import { interpretBullet } from './bullets.ts';
import { coerceScalar, splitInlineList, stripCode } from '../model/values.ts';
import { allNestedItems, isYamlish, labelOf, nestedItems, unknownField, type Builder, type Labelled, type Mutable, type SliceLocator } from './builder.ts';

// The labelled-bullet form (docs/contract-format.md, "Labelled bullets"): `- **Label**: value`
// with nested bullets, for objects (a section, a tool, a pool) and for the items of array sections.

/** Sets `obj[field.key]` from Markdown text, coercing scalars by the field's schema type. */
export function setField(
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
      // A field may name other separators in its schema (`x-list-separators`: `A > B > C`), used when there is no comma.
      const separators = field.listSeparators && !/[,，、]/.test(l.value) ? field.listSeparators : undefined;
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
export function nestedObject(b: Builder, field: FieldSpec, nested: readonly ListItem[], p: string): Mutable {
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
      b.findings.push(unknownField(b.loc.nodeRange(para), label, field.key, subFields));
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
export function shiftRange(_loc: SliceLocator, r: Range, start: number, end: number): Range {
  if (r.start.line !== r.end.line) return r;
  return { start: { line: r.start.line, character: r.start.character + start }, end: { line: r.start.line, character: r.start.character + end } };
}

/**
 * A label with no inline value that ends a list (`- **Input Schema**:`): its value may be the
 * YAML/JSON block right after the list (docs/contract-format.md, "A code block as value").
 */
export interface OpenLabel {
  readonly field: FieldSpec;
  readonly label: Labelled;
}

/** Whether a block can be the field's value: a field of an object or array type, or of any type. */
const takesBlock = (field: FieldSpec): boolean => field.types.length === 0 || field.types.includes('object') || field.types.includes('array');

/** Sets `obj[field.key]` to the parsed block `code`, labelled by `l`. */
function setFieldFromBlock(b: Builder, obj: Mutable, prefix: string, field: FieldSpec, l: Labelled, code: Code, seen: Map<string, Range>): void {
  const prev = seen.get(field.key);
  if (prev) {
    b.findings.push({ code: 'duplicate-key', range: l.labelRange, args: { key: l.label }, related: [{ range: prev, messageId: 'related.firstDefined' }] });
    return;
  }
  const block = parseYamlBlock(code.value, isYamlish(code));
  const p = `${prefix}/${pointerSegment(field.key)}`;
  seen.set(field.key, l.labelRange);
  obj[field.key] = block.value;
  b.addBlock(block, code, p);
  const s = b.map.get(p);
  b.map.set(p, { key: l.labelRange, value: s?.value ?? b.loc.nodeRange(code) });
}

/**
 * Gives an open label its value: `code` when the node after the list is a YAML/JSON block (true:
 * the block is taken), else the label's own empty value, as any other empty label.
 */
export function closeLabel(b: Builder, obj: Mutable, prefix: string, open: OpenLabel, next: RootContent | undefined, seen: Map<string, Range>): boolean {
  if (next?.type === 'code' && isYamlish(next)) {
    setFieldFromBlock(b, obj, prefix, open.field, open.label, next, seen);
    return true;
  }
  setField(b, obj, prefix, open.field, open.label, [], seen);
  return false;
}

/**
 * Fills an object (a section, a tool, a pool) from a list of labelled bullets. With `leaveOpen`,
 * a last bullet that is a label with no value and nothing under it is returned instead of set, for
 * the caller to close with the node after the list (`closeLabel`).
 */
export function fillObjectFromList(b: Builder, obj: Mutable, prefix: string, fields: readonly FieldSpec[], list: List, seen: Map<string, Range>, sectionTitle: string, leaveOpen = false): OpenLabel | undefined {
  for (const [k, item] of list.children.entries()) {
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
    const code = item.children.find((c): c is Code => c.type === 'code' && !!isYamlish(c));
    if (code && !l.value && takesBlock(field)) {
      setFieldFromBlock(b, obj, prefix, field, l, code, seen);
      continue;
    }
    if (leaveOpen && k === list.children.length - 1 && !l.value && item.children.length === 1 && takesBlock(field)) return { field, label: l };
    setField(b, obj, prefix, field, l, nestedItems(item), seen);
  }
  return undefined;
}

export function appendBulletItem(b: Builder, items: unknown[], spec: SectionSpec, item: ListItem): void {
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

