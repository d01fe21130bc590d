/**
 * Copies of strings that outlive the document version they were read from. V8 keeps a substring
 * of 13 characters or more as a view of its whole parent: a tool's description kept from one
 * version kept that version's whole text alive, and a heap kept a document per keystroke
 * (docs/performance.md, "Less per keystroke, and no document kept per keystroke").
 */

/** `s` as a string of its own (no view of a larger one). */
export function detached(s: string): string {
  // The concatenation is flattened into a new string before the slice is taken of it.
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/** Plain data (objects, arrays, strings) with every string detached; other values as they are. */
export function detachedValue<T>(v: T): T {
  if (typeof v === 'string') return detached(v) as T;
  if (Array.isArray(v)) return v.map(detachedValue) as T;
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = detachedValue(x);
    return out as T;
  }
  return v;
}
