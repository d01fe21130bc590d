/** Small readers shared by rules: they accept any data, so a rule never throws on odd input. */

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

/** Header of a contract used by rule examples: front matter that marks the file a contract. */
export const FM = '---\ncontract: true\nname: demo\nversion: 1.0.0\n---\n';
