import type { RootContent } from 'mdast';
import type { Finding, PointerSpan, ProseInfo } from '../model/types.ts';
import { shiftFinding, shiftRange, shiftSpan } from './shift.ts';
import { Builder } from './builder.ts';
import { detachedValue } from '../util/detached.ts';

// Tools as the unit of reuse (docs/performance.md, "Incremental parsing"): an H3 item of an array
// section (a tool, a memory pool) is built from its own blocks only, so an item whose text is the
// same as in the previous version is taken from it instead of being read again, moved when lines
// above it were added or removed. Its value is the previous object itself: what is cached by value
// (schema errors, rule results) carries over too.

/** One heading item as built: what it added to its section's value, source map, findings and prose. */
export interface BuiltItem {
  readonly line: number;
  readonly index: number;
  readonly value: Readonly<Record<string, unknown>>;
  readonly map: ReadonlyMap<string, PointerSpan>;
  readonly findings: readonly Finding[];
  readonly prose: readonly ProseInfo[];
}

/** The items of an array section's value as they were built, by their key (`itemKey`). */
const builtItems = new WeakMap<object, ReadonlyMap<string, BuiltItem>>();

/** What an item's build depends on besides its position: its section and its text. */
export const itemKey = (section: string, text: string): string => `${section}\u0000${text}`;

/** Keeps the records of a section value's items, for the next version's parse. */
export function rememberItems(value: object, items: ReadonlyMap<string, BuiltItem>): void {
  if (items.size > 0) builtItems.set(value, items);
}

/** The items of earlier section values, by key (later ones win). */
export function itemPool(values: readonly unknown[]): Map<string, BuiltItem> {
  const out = new Map<string, BuiltItem>();
  for (const v of values) {
    const items = v !== null && typeof v === 'object' ? builtItems.get(v) : undefined;
    if (items) for (const [k, item] of items) out.set(k, item);
  }
  return out;
}

/** The nodes of the heading item that starts at `nodes[at]`: up to the next heading of depth 3 or less. */
export function itemEnd(nodes: readonly RootContent[], at: number): number {
  let end = at + 1;
  while (end < nodes.length && !(nodes[end]!.type === 'heading' && (nodes[end] as { depth: number }).depth <= 3)) end++;
  return end;
}

/** `item` at `index` and first line `line`: its pointers renumbered and its ranges moved. */
export function placed(item: BuiltItem, index: number, line: number): BuiltItem {
  const d = line - item.line;
  if (d === 0 && index === item.index) return item;
  const from = `/${item.index}`;
  const to = `/${index}`;
  const map = new Map<string, PointerSpan>();
  for (const [p, s] of item.map) map.set(to + p.slice(from.length), d === 0 ? s : shiftSpan(s, d));
  return {
    line,
    index,
    value: item.value,
    map,
    findings: d === 0 ? item.findings : item.findings.map((f) => shiftFinding(f, d)),
    prose: d === 0 ? item.prose : item.prose.map((p) => ({ ...p, range: shiftRange(p.range, d) })),
  };
}

/** Adds a built item's map entries, findings and prose to the section's builder. */
export function addItem(b: Builder, item: BuiltItem): void {
  for (const [p, s] of item.map) b.map.set(p, s);
  b.findings.push(...item.findings);
  b.prose.push(...item.prose);
}

/** Builds an item with `build` into a builder of its own, and records what it added. */
export function buildItem(b: Builder, index: number, line: number, build: (sub: Builder) => Readonly<Record<string, unknown>>): BuiltItem {
  const sub = new Builder(b.loc);
  const value = build(sub);
  // An item outlives the version it was read from: its strings are its own (util/detached.ts).
  return { line, index, value: detachedValue(value), map: sub.map, findings: detachedValue(sub.findings), prose: detachedValue(sub.prose) };
}
