import type { Heading, List, Paragraph, RootContent } from 'mdast';
import type { Range } from '../types.ts';
import { parseYamlBlock, pointerSegment } from './yamlBlock.ts';
import { fieldForLabel, sectionForTitle, type FieldSpec, type SectionSpec } from '../schema/sections.ts';
import { normaliseLabel } from '../schema/normalise.ts';
import type { PointerSpan } from '../model/types.ts';
import { coerceScalar, stripCode } from '../model/values.ts';
import { headingTextRange, isYamlish, labelOf, lineStartOffset, noteProse, plainText, unknownField, type Builder, type Mutable } from './builder.ts';
import { appendBulletItem, closeLabel, fillObjectFromList, setField, type OpenLabel } from './labels.ts';
import { appendBlockItems, mergeMapping, soleSectionKey } from './yamlMerge.ts';
import { appendTableRows, fillObjectFromTable } from './tables.ts';
import { addItem, buildItem, itemEnd, itemKey, placed, rememberItems, type BuiltItem } from './headingItems.ts';

// A section's value by the shape its schema gives it (array, object, JSON Schema), read from
// whichever input forms the section is written in.

/** An H3 that starts an item in TOOLS and MEMORY_POOLS: an identifier, optionally in backticks. */
const ITEM_HEADING = /^`?[\p{L}_][\p{L}\p{N}_.\-]*`?$/u;

/**
 * Builds the value of an array section. `reuse`: items built by earlier versions (headingItems.ts),
 * taken instead of building an item whose text is the same; without it (a section whose blocks do
 * not read the same on their own) items are neither taken nor kept.
 */
export function buildArraySection(b: Builder, spec: SectionSpec, blocks: RootContent[], reuse?: ReadonlyMap<string, BuiltItem>): unknown[] {
  const items: unknown[] = [];
  const built = new Map<string, BuiltItem>();
  for (let k = 0; k < blocks.length; k++) {
    const node = blocks[k]!;
    if (node.type === 'heading') {
      const text = plainText(node).trim();
      const isWrapper = spec.titles.includes(normaliseLabel(text));
      // A heading that starts no item ends the item above; H4 and deeper belong to it.
      if (!(spec.headingItems && node.depth === 3 && !isWrapper && ITEM_HEADING.test(text))) continue;
      const end = itemEnd(blocks, k);
      // From the start of the heading's line.
      const key = itemKey(spec.title, b.loc.text.slice(lineStartOffset(node), blocks[end - 1]!.position?.end.offset ?? 0));
      const line = b.loc.pos(node.position?.start.offset ?? 0).line;
      // Two items of the same text are two objects: one earlier item is taken once.
      const earlier = built.has(key) ? undefined : reuse?.get(key);
      const item = earlier ? placed(earlier, items.length, line) : buildItem(b, items.length, line, (sub) => buildHeadingItem(sub, spec, blocks.slice(k, end), items.length, text));
      items.push(item.value);
      addItem(b, item);
      if (!built.has(key)) built.set(key, item);
      k = end - 1;
      continue;
    }
    if (node.type === 'table') appendTableRows(b, items, spec, node, reuse, reuse ? built : undefined);
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
    else noteQuotedRows(b, spec, node);
  }
  if (reuse) rememberItems(items, built);
  return items;
}

/** One H3 item (`### name`, then its bullets, YAML blocks and paragraphs) at index `i`. */
function buildHeadingItem(b: Builder, spec: SectionSpec, nodes: readonly RootContent[], i: number, text: string): Mutable {
  const heading = nodes[0] as Heading;
  const obj: Mutable = { name: stripCode(text) };
  const prefix = `/${i}`;
  const r = b.loc.nodeRange(heading);
  b.map.set(prefix, { value: r });
  b.map.set(`${prefix}/name`, { value: headingTextRange(b, heading) });
  const seen = new Map<string, Range>([['name', r]]);
  let open: OpenLabel | undefined;
  for (const node of nodes.slice(1)) {
    // A list that ended in a label with no value: a block right after it is that field's value.
    if (open) {
      const taken = closeLabel(b, obj, prefix, open, node, seen);
      open = undefined;
      if (taken) continue;
    }
    if (node.type === 'list') open = fillObjectFromList(b, obj, prefix, spec.fields, node, seen, spec.title, true);
    else if (node.type === 'code' && isYamlish(node)) mergeMapping(b, obj, prefix, spec.fields, parseYamlBlock(node.value, isYamlish(node)), node, seen, '', spec.title);
    else if (node.type === 'paragraph') {
      const l = labelOf(b, node, spec.fields);
      const field = l && fieldForLabel(spec.fields, l.label);
      if (l && field) setField(b, obj, prefix, field, l, [], seen);
      else if (!l && spec.fields.some((f) => f.key === 'description') && obj['description'] === undefined) {
        obj['description'] = b.raw(node).trim();
        b.map.set(`${prefix}/description`, { value: b.loc.nodeRange(node) });
      }
    }
  }
  if (open) closeLabel(b, obj, prefix, open, undefined, seen);
  return obj;
}

/**
 * A quoted note right above table rows (`> see the runbook` then `| … |`) takes the rows into the
 * quote, as lazy lines of its paragraph: Markdown reads no table there, and without this finding
 * the rows (HITL gates, tools) would be gone without a word. A quote of its own (`> | a |`) is not.
 */
function noteQuotedRows(b: Builder, spec: SectionSpec, node: RootContent): void {
  if (node.type === 'blockquote' && /\n[ \t]*\|/.test(b.raw(node))) {
    b.findings.push({ code: 'unrecognised-content', range: b.loc.nodeRange(node), variant: 'quotedRows', args: { section: spec.title } });
  }
}

/** Builds the value of an object section. */
export function buildObjectSection(b: Builder, spec: SectionSpec, blocks: RootContent[]): Mutable {
  const obj: Mutable = {};
  const seen = new Map<string, Range>();
  let field: { spec: FieldSpec; range: Range } | undefined;
  let open: OpenLabel | undefined;
  for (const node of blocks) {
    // A list that ended in a label with no value: a block right after it is that field's value.
    if (open) {
      const taken = closeLabel(b, obj, '', open, node, seen);
      open = undefined;
      if (taken) continue;
    }
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
    if (node.type === 'list') open = fillObjectFromList(b, obj, '', spec.fields, node, seen, spec.title, true);
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
    } else noteQuotedRows(b, spec, node);
  }
  if (open) closeLabel(b, obj, '', open, undefined, seen);
  return obj;
}

/** OUTPUT_SCHEMA: the first YAML/JSON block is the schema (optionally under `output_schema:`). */
export function buildSchemaSection(b: Builder, spec: SectionSpec, blocks: RootContent[]): unknown {
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

