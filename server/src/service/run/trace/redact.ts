/**
 * PII redaction for the trace (COMPLIANCE `pii_fields`): values under a key that
 * COMPLIANCE names are replaced, and every occurrence of a value learnt that way is replaced in
 * all strings of later payloads (a name from a record that the model repeats in its answer).
 * The engine works on the real data; only what is written to the trace is redacted.
 */

/** The text that replaces a redacted value. */
export function redactedMark(field: string): string {
  return `[REDACTED:${field}]`;
}

/** Shortest value learnt for substring redaction: shorter ones would blank unrelated text. */
const MIN_VALUE_LENGTH = 3;

/** Redacts the PII fields of a contract from trace payloads. */
export class Redactor {
  private readonly fields: ReadonlyMap<string, string>;
  private readonly values = new Map<string, string>();

  /** `fields`: COMPLIANCE `pii_fields` (compared case-insensitively). */
  constructor(fields: readonly string[]) {
    this.fields = new Map(fields.map((f) => [f.toLowerCase(), f]));
  }

  /** True when there is nothing to redact. */
  get empty(): boolean {
    return this.fields.size === 0;
  }

  /** Learns the PII values held anywhere in `value` (under a PII key), for substring redaction. */
  learn(value: unknown): void {
    if (this.empty) return;
    const stack: unknown[] = [value];
    let budget = 1_000_000;
    while (stack.length > 0 && budget-- > 0) {
      const v = stack.pop();
      if (Array.isArray(v)) stack.push(...v);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          const field = this.fields.get(k.toLowerCase());
          if (field && (typeof x === 'string' || typeof x === 'number') && String(x).length >= MIN_VALUE_LENGTH) this.values.set(String(x), field);
          else stack.push(x);
        }
      }
    }
  }

  /** A copy of `value` with PII keys' values and learnt PII values replaced. */
  apply<T>(value: T): T {
    if (this.empty) return value;
    return this.walk(value, 0) as T;
  }

  private walk(v: unknown, depth: number): unknown {
    if (depth > 200) return v;
    if (typeof v === 'string') return this.text(v);
    if (Array.isArray(v)) return v.map((x) => this.walk(x, depth + 1));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const field = this.fields.get(k.toLowerCase());
        out[k] = field && x !== null && x !== undefined ? redactedMark(field) : this.walk(x, depth + 1);
      }
      return out;
    }
    return v;
  }

  private text(s: string): string {
    let out = s;
    for (const [value, field] of this.values) if (out.includes(value)) out = out.split(value).join(redactedMark(field));
    return out;
  }
}
