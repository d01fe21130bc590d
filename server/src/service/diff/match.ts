/**
 * Pairs the items of two versions of a list (tools, HITL rows, boundaries…) by identity, so that
 * reordering is no change (docs/semantic-diff.md, "Matching"):
 * 1. by each identity key in turn (a name; for failure entries the error code, then the
 *    condition); among items with the same key, one with identical content is preferred, so a
 *    list with duplicate names still pairs sensibly;
 * 2. by identical content with another identity: a rename;
 * 3. by word similarity at or above a threshold, best pairs first: a rename with edits, or a
 *    reworded text.
 * Whatever is left is removed (before) or added (after). Pure; O(n) for steps 1–2 and
 * O(unmatched² × words) for step 3.
 */
import { same, similarity } from './normalise.ts';

export interface MatchOptions<T> {
  /** Identity keys, tried in order; a key function returns undefined for items without that identity. */
  readonly keys: readonly ((item: T) => string | undefined)[];
  /** The item's content without its identity: equal content under another identity is a rename (undefined: never). */
  readonly content?: (item: T) => string | undefined;
  /** Words compared for similarity pairing (undefined: the item takes no part), and the least score. */
  readonly similar?: { readonly words: (item: T) => readonly string[] | undefined; readonly threshold: number };
}

/** How a pair was found. */
export type PairedBy = 'key' | 'content' | 'similarity';

export interface Pair<T> {
  readonly before: T;
  readonly after: T;
  readonly beforeIndex: number;
  readonly afterIndex: number;
  readonly by: PairedBy;
}

export interface Matching<T> {
  readonly pairs: Pair<T>[];
  readonly removed: { readonly item: T; readonly index: number }[];
  readonly added: { readonly item: T; readonly index: number }[];
}

/** Matches `before` and `after` items (see the module comment). */
export function matchItems<T>(before: readonly T[], after: readonly T[], options: MatchOptions<T>): Matching<T> {
  const pairs: Pair<T>[] = [];
  const freeB = new Set(before.keys());
  const freeA = new Set(after.keys());
  const pair = (b: number, a: number, by: PairedBy) => {
    pairs.push({ before: before[b]!, after: after[a]!, beforeIndex: b, afterIndex: a, by });
    freeB.delete(b);
    freeA.delete(a);
  };

  for (const key of options.keys) {
    const byKey = new Map<string, number[]>();
    for (const a of freeA) {
      const k = key(after[a]!);
      if (k !== undefined) byKey.set(k, [...(byKey.get(k) ?? []), a]);
    }
    for (const b of [...freeB]) {
      const k = key(before[b]!);
      const candidates = k === undefined ? undefined : byKey.get(k)?.filter((a) => freeA.has(a));
      if (!candidates || candidates.length === 0) continue;
      const exact = candidates.length > 1 ? candidates.find((a) => same(after[a], before[b])) : undefined;
      pair(b, exact ?? candidates[0]!, 'key');
    }
  }

  if (options.content && freeB.size > 0 && freeA.size > 0) {
    const byContent = new Map<string, number[]>();
    for (const a of freeA) {
      const c = options.content(after[a]!);
      if (c !== undefined) byContent.set(c, [...(byContent.get(c) ?? []), a]);
    }
    for (const b of [...freeB]) {
      const c = options.content(before[b]!);
      const a = c === undefined ? undefined : byContent.get(c)?.find((x) => freeA.has(x));
      if (a !== undefined) pair(b, a, 'content');
    }
  }

  const similar = options.similar;
  if (similar && freeB.size > 0 && freeA.size > 0) {
    const wa = new Map([...freeA].map((a) => [a, similar.words(after[a]!)]));
    const scored: { b: number; a: number; score: number }[] = [];
    for (const b of freeB) {
      const wb = similar.words(before[b]!);
      if (!wb) continue;
      for (const a of freeA) {
        const w = wa.get(a);
        if (!w) continue;
        const score = similarity(wb, w);
        if (score >= similar.threshold) scored.push({ b, a, score });
      }
    }
    scored.sort((x, y) => y.score - x.score || x.b - y.b || x.a - y.a);
    for (const s of scored) if (freeB.has(s.b) && freeA.has(s.a)) pair(s.b, s.a, 'similarity');
  }

  return {
    pairs,
    removed: [...freeB].sort((x, y) => x - y).map((index) => ({ item: before[index]!, index })),
    added: [...freeA].sort((x, y) => x - y).map((index) => ({ item: after[index]!, index })),
  };
}
