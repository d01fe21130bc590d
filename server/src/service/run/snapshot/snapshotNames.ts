/**
 * Where a snapshot names a contract's tools and pools (docs/dry-run.md, "Snapshots"), so that
 * references and rename reach snapshot files: tool mocks (`tools:` keys, at the top and per
 * query), scripted calls (`call:`, `calls[].name`), scripted decisions (`human:` keys),
 * expectations (`expect.tools`), and pool states (`pools:` keys).
 */
import { isMap, isScalar, isSeq, parseDocument, type Node, type Scalar } from 'yaml';
import { LineIndex } from '../../text/lineIndex.ts';
import type { Range } from '../../types.ts';

/** A name written in a snapshot: a tool or a pool, and the range of the name itself (quotes excluded). */
export interface SnapshotName {
  readonly kind: 'tool' | 'pool';
  readonly name: string;
  readonly range: Range;
}

/** Every tool and pool name a snapshot (YAML or JSON, which is YAML) writes. Text that does not parse gives what it can. */
export function snapshotNames(text: string): SnapshotName[] {
  const doc = parseDocument(text, { uniqueKeys: false });
  const index = new LineIndex(text);
  const out: SnapshotName[] = [];
  const add = (kind: SnapshotName['kind'], node: unknown) => {
    if (!isScalar(node) || typeof node.value !== 'string' || !node.range) return;
    const quoted = (node as Scalar).type === 'QUOTE_DOUBLE' || (node as Scalar).type === 'QUOTE_SINGLE' ? 1 : 0;
    const start = node.range[0] + quoted;
    // A plain or quoted scalar on one line is renamed in place; anything else is left alone.
    if (text.slice(start, start + node.value.length) !== node.value) return;
    out.push({ kind, name: node.value, range: index.rangeAt(start, start + node.value.length) });
  };
  const keys = (kind: SnapshotName['kind'], map: unknown) => {
    if (isMap(map)) for (const p of map.items) add(kind, p.key);
  };
  const get = (map: unknown, key: string): Node | undefined => (isMap(map) ? (map.get(key, true) as Node | undefined) : undefined);
  const root = doc.contents;
  keys('tool', get(root, 'tools'));
  keys('pool', get(root, 'pools'));
  const queries = get(root, 'queries');
  for (const q of isSeq(queries) ? queries.items : []) {
    keys('tool', get(q, 'tools'));
    keys('pool', get(q, 'pools'));
    keys('tool', get(q, 'human'));
    const model = get(q, 'model');
    for (const step of isSeq(model) ? model.items : []) {
      add('tool', get(step, 'call'));
      const calls = get(step, 'calls');
      for (const c of isSeq(calls) ? calls.items : []) add('tool', get(c, 'name'));
    }
    const expected = get(get(q, 'expect'), 'tools');
    for (const t of isSeq(expected) ? expected.items : []) add('tool', t);
  }
  return out;
}
