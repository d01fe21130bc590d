/** Readers of the contract data: they accept any data, so that a reader never throws on odd input. */

export type Obj = Record<string, unknown>;

/** The value if it is an array, else an empty array. */
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** The value if it is a plain object, else undefined. */
export function obj(v: unknown): Obj | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** The value if it is a non-empty string (trimmed), else undefined. */
export function str(v: unknown): string | undefined {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}
