/**
 * Canonical JSON: object keys sorted (by UTF-16 code units), no whitespace, `undefined` members
 * dropped, as JSON.stringify does otherwise. Two equal values have one text, so a checksum over it
 * does not depend on key order. Used for trace checksums and for comparing tool arguments.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}
