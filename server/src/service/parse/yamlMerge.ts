import type { Code } from 'mdast';
import type { Range } from '../types.ts';
import { pointerSegment, type ParsedBlock } from './yamlBlock.ts';
import { fieldForLabel, sectionForTitle, type FieldSpec, type SectionSpec } from '../schema/sections.ts';
import { fenceMapper, problemFinding, unknownField, type Builder, type Mutable } from './builder.ts';

// The YAML/JSON block form: a fenced mapping merged into an object, or a list appended as items.

/** Merges a YAML mapping into an object, keys matched by field key or alias. */
export function mergeMapping(b: Builder, obj: Mutable, prefix: string, fields: readonly FieldSpec[] | undefined, block: ParsedBlock, code: Code, seen: Map<string, Range>, from = '', sectionTitle = ''): void {
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
export function soleSectionKey(value: unknown, spec: SectionSpec): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const keys = Object.keys(value as Mutable);
  return keys.length === 1 && sectionForTitle(keys[0]!)?.key === spec.key ? keys[0] : undefined;
}

/** Appends YAML list items (a top-level list, or the list under the section key) to `items`. */
export function appendBlockItems(b: Builder, items: unknown[], spec: SectionSpec, block: ParsedBlock, code: Code): boolean {
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
  // An item's keys are matched like any label (aliases → field keys); an unknown one is reported and left out.
  const renames = list.map((item, i) => (spec.fields.length > 0 && isMapping(item) ? itemKeys(b, item, spec, block, mapper, `${from}/${i}`) : undefined));
  list.forEach((item, i) => items.push(renames[i] ? renamed(item as Mutable, renames[i]!) : item));
  // One pass over the block's spans (a block may hold thousands of items).
  const lead = `${from}/`;
  for (const [p, s] of block.spans) {
    if (!p.startsWith(lead)) continue;
    const slash = p.indexOf('/', lead.length);
    const i = Number(slash < 0 ? p.slice(lead.length) : p.slice(lead.length, slash));
    if (!Number.isInteger(i)) continue;
    let rest = slash < 0 ? '' : p.slice(slash);
    const rename = renames[i];
    if (rename && rest) {
      const end = rest.indexOf('/', 1);
      const dst = rename.get(end < 0 ? rest.slice(1) : rest.slice(1, end));
      if (dst === undefined) continue;
      rest = `/${dst}${end < 0 ? '' : rest.slice(end)}`;
    }
    const value = mapper(s.value);
    b.map.set(`/${base + i}${rest}`, s.key ? { key: mapper(s.key), value } : { value });
  }
  for (const pr of block.problems) b.findings.push(problemFinding(pr, mapper));
  return true;
}


const isMapping = (v: unknown): v is Mutable => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The keys of one YAML list item: source pointer segment → field key. Unknown keys get an
 * `unknown-field` finding (with its did-you-mean) and no entry, so they are left out of the item.
 */
function itemKeys(b: Builder, item: Mutable, spec: SectionSpec, block: ParsedBlock, mapper: (span: readonly [number, number]) => Range, at: string): Map<string, string> {
  const keys = new Map<string, string>();
  for (const k of Object.keys(item)) {
    const field = fieldForLabel(spec.fields, k);
    if (field) {
      keys.set(pointerSegment(k), pointerSegment(field.key));
      continue;
    }
    const span = block.spans.get(`${at}/${pointerSegment(k)}`);
    b.findings.push(unknownField(span?.key ? mapper(span.key) : mapper([0, 0]), k, spec.title, spec.fields));
  }
  return keys;
}

function renamed(item: Mutable, keys: ReadonlyMap<string, string>): Mutable {
  const out: Mutable = {};
  for (const [k, v] of Object.entries(item)) {
    const dst = keys.get(pointerSegment(k));
    if (dst !== undefined) out[dst.replace(/~1/g, '/').replace(/~0/g, '~')] = v;
  }
  return out;
}
