/**
 * The values a search tries for one name (docs/prove.md, "What is modelled"): from its JSON
 * Schema (enum, const, boolean, minimum/maximum) and the constants the conditions compare it
 * with. For a name compared only with constants (`x > 50000`, `x IN ('A','B')`, `x = true`), the
 * candidates hold one value of every region the constants and the bounds cut the line into, so
 * trying them all covers every input the schema allows: the domain is `complete`. Pure.
 */
import type { Expr } from '../model/expression.ts';
import { obj } from '../model/data.ts';

/** A name's value is absent from the call (an optional property). */
export const ABSENT = Symbol('absent');
export type Candidate = unknown | typeof ABSENT;

/** What the search tries for one name, and why it may not cover every allowed value. */
export interface Domain {
  readonly name: string;
  readonly values: readonly Candidate[];
  /** Schema keywords the candidates do not model (`pattern`, `format`…): the result is then qualified. */
  readonly unmodelled: readonly string[];
}

/** Constants a condition compares each bare name with (`amount > 50000` → amount: [50000]). */
export function constantsByName(exprs: readonly Expr[]): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  const add = (name: string, v: unknown) => out.set(name, [...(out.get(name) ?? []), v]);
  const bare = (e: Expr): string | undefined => (e.kind === 'path' && e.steps.length === 0 ? e.root : e.kind === 'path' && e.root === 'output' && e.steps.length === 1 && 'field' in e.steps[0]! ? e.text : undefined);
  const walk = (e: Expr): void => {
    if (e.kind === 'compare') {
      const [l, r] = [bare(e.left), bare(e.right)];
      if (l && e.right.kind === 'literal') add(l, e.right.value);
      if (r && e.left.kind === 'literal') add(r, e.left.value);
    } else if (e.kind === 'in') {
      const l = bare(e.left);
      if (l && e.right.kind === 'list') for (const i of e.right.items) if (i.kind === 'literal') add(l, i.value);
    }
    if (e.kind === 'not') walk(e.arg);
    if (e.kind === 'and' || e.kind === 'or') (walk(e.left), walk(e.right));
  };
  exprs.forEach(walk);
  return out;
}

const UNMODELLED_KEYWORDS = ['pattern', 'format', 'multipleOf', 'minLength', 'maxLength', 'anyOf', 'oneOf', 'allOf', 'not', 'if'];

/** One value per region of the number line cut by the bounds and the constants. */
function numbers(s: Record<string, unknown>, constants: readonly number[], integer: boolean): number[] {
  const num = (k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  const lo = num('minimum') ?? (num('exclusiveMinimum') !== undefined ? num('exclusiveMinimum')! + (integer ? 1 : 1e-6) : undefined);
  const hi = num('maximum') ?? (num('exclusiveMaximum') !== undefined ? num('exclusiveMaximum')! - (integer ? 1 : 1e-6) : undefined);
  const step = integer ? 1 : 0.5;
  const points = [...new Set([...constants, ...(lo !== undefined ? [lo] : []), ...(hi !== undefined ? [hi] : [])])].sort((a, b) => a - b);
  if (points.length === 0) points.push(0);
  const out = new Set<number>();
  points.forEach((p, i) => {
    out.add(p);
    const next = points[i + 1];
    if (next !== undefined && next - p > 0) out.add(integer ? Math.floor((p + next) / 2) : (p + next) / 2);
  });
  out.add(points[0]! - step);
  out.add(points[points.length - 1]! + step);
  return [...out].filter((v) => (lo === undefined || v >= lo) && (hi === undefined || v <= hi) && (!integer || Number.isInteger(v)));
}

/** A string none of the constants equals: the "any other text" region. */
function otherString(constants: readonly unknown[]): string {
  let s = 'other';
  while (constants.includes(s)) s += '_';
  return s;
}

/**
 * The candidates of one name from its schema (undefined: no schema gives it) and the constants
 * compared with it. `optional`: the value may be absent.
 */
export function domainOf(name: string, schema: unknown, constants: readonly unknown[], optional: boolean): Domain {
  const s = obj(schema);
  const tail: Candidate[] = optional ? [ABSENT] : [];
  if (!s) return { name, values: [...new Set([...constants, otherString(constants)]), ...tail], unmodelled: [] };
  const unmodelled = UNMODELLED_KEYWORDS.filter((k) => k in s);
  if ('const' in s) return { name, values: [s['const'], ...tail], unmodelled };
  if (Array.isArray(s['enum'])) return { name, values: [...s['enum'], ...tail], unmodelled };
  const types = (Array.isArray(s['type']) ? s['type'] : [s['type']]).filter((t) => typeof t === 'string');
  const nums = constants.filter((c): c is number => typeof c === 'number');
  const values: Candidate[] = [];
  for (const t of types) {
    if (t === 'integer') values.push(...numbers(s, nums.flatMap((c) => [Math.floor(c), Math.ceil(c)]), true));
    else if (t === 'number') values.push(...numbers(s, nums, false));
    else if (t === 'boolean') values.push(true, false);
    else if (t === 'string') values.push(...new Set([...constants.filter((c) => typeof c === 'string'), otherString(constants)]));
    else if (t === 'null') values.push(null);
    else unmodelled.push(`type ${t}`);
  }
  if (types.length === 0) unmodelled.push('type');
  return { name, values: [...values, ...tail], unmodelled };
}

const FORMAT_SAMPLES: Readonly<Record<string, string>> = { date: '2024-01-01', 'date-time': '2024-01-01T00:00:00Z', time: '00:00:00Z', email: 'someone@example.com', uri: 'https://example.com/', uuid: '00000000-0000-4000-8000-000000000000' };

/** A value a schema allows, for the properties no condition reads (so that the witness passes the schema). */
export function sampleValue(schema: unknown, depth = 0): unknown {
  const s = obj(schema);
  if (!s || depth > 8) return null;
  if ('const' in s) return s['const'];
  if (Array.isArray(s['enum']) && s['enum'].length > 0) return s['enum'][0];
  if ('default' in s) return s['default'];
  if (Array.isArray(s['examples']) && s['examples'].length > 0) return s['examples'][0];
  if (Array.isArray(s['type']) && s['type'].includes('null')) return null;
  const t = Array.isArray(s['type']) ? s['type'][0] : s['type'];
  if (t === 'string' && typeof s['format'] === 'string' && s['format'] in FORMAT_SAMPLES) return FORMAT_SAMPLES[s['format']];
  const min = typeof s['minimum'] === 'number' ? s['minimum'] : 0;
  if (t === 'integer' || t === 'number') return typeof s['maximum'] === 'number' ? Math.min(min, s['maximum']) : min;
  if (t === 'boolean') return false;
  if (t === 'string') return 'x'.repeat(typeof s['minLength'] === 'number' ? Math.max(1, s['minLength']) : 1);
  if (t === 'array') return Array.from({ length: typeof s['minItems'] === 'number' ? Math.min(s['minItems'], 8) : 0 }, () => sampleValue(s['items'], depth + 1));
  if (t === 'object' || obj(s['properties'])) {
    const props = obj(s['properties']) ?? {};
    const required = Array.isArray(s['required']) ? s['required'].filter((r): r is string => typeof r === 'string') : [];
    return Object.fromEntries(required.map((r) => [r, sampleValue(props[r], depth + 1)]));
  }
  return null;
}
