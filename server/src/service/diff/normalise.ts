/**
 * What counts as "the same" in the semantic diff (docs/semantic-diff.md, "What is no change"):
 * text values compare with whitespace runs collapsed (reflowed paragraphs, continuation lines,
 * indentation), objects compare with their keys sorted (YAML/JSON key order, writing form), and
 * lists of names compare as sets where their order means nothing. Pure; never throws.
 */
import { codeSpans } from '../model/values.ts';
import { normaliseDuration } from '../model/values.ts';

/** Whitespace runs (line breaks and indentation included) collapsed to one space, trimmed. */
export function normText(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * A canonical string of any model value: strings whitespace-normalised, object keys sorted,
 * `undefined` members dropped. Two values are the same when their canonical strings are equal.
 */
export function canonical(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(normText(v));
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const keys = Object.keys(v).filter((k) => (v as Record<string, unknown>)[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return v === undefined ? 'undefined' : JSON.stringify(v) ?? 'null';
}

/**
 * True when two model values are the same after normalisation (`canonical(a) === canonical(b)`),
 * without building the canonical strings: most compared values are equal, and this is the hot path.
 */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'string' || typeof b === 'string') return typeof a === 'string' && typeof b === 'string' && normText(a) === normText(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
    return true;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const k in x) if (!same(x[k], y[k])) return false;
    for (const k in y) if (!(k in x) && y[k] !== undefined) return false;
    return true;
  }
  return false;
}

/** A value as one short line for a message: text normalised and cut at `max` characters. */
export function brief(v: unknown, max = 80): string {
  const s = v === undefined ? '—' : typeof v === 'string' ? normText(v) : Array.isArray(v) && v.every((x) => typeof x !== 'object') ? v.map((x) => normText(String(x))).join(', ') : canonical(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/**
 * Two values as short lines that show where they differ: when either is longer than `max`, both
 * are cut to a window that starts a little before their first difference, so that a long text
 * changed near its end does not read the same on both sides ("…may produc…" → "…may produc…").
 */
export function briefPair(before: unknown, after: unknown, max = 80): [string, string] {
  const x = brief(before, Number.MAX_SAFE_INTEGER);
  const y = brief(after, Number.MAX_SAFE_INTEGER);
  if (x.length <= max && y.length <= max) return [x, y];
  let p = 0;
  while (p < x.length && p < y.length && x[p] === y[p]) p++;
  // Start at a word boundary about 20 characters before the difference.
  let start = Math.max(0, p - 20);
  if (start > 0) start = Math.max(0, x.lastIndexOf(' ', start) + 1);
  const cut = (s: string) => {
    const body = s.slice(start, start + max - 2);
    return `${start > 0 ? '…' : ''}${body}${start + max - 2 < s.length ? '…' : ''}`;
  };
  return [cut(x), cut(y)];
}

/** Straight double quotes inside a value made typographic, so that a message that quotes it does not read `""x" fails"`. */
export function unquote(s: string): string {
  return s.replace(/"([^"]*)"/g, '“$1”').replace(/"/g, '”');
}

/**
 * The words of a text for similarity: lowercased letters and digits; CJK text by character,
 * since it has no spaces.
 */
export function words(s: string): string[] {
  return s.toLowerCase().match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}_]+/gu) ?? [];
}

/** Dice coefficient of two word bags (0: nothing shared, 1: the same words). */
export function similarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const w of a) counts.set(w, (counts.get(w) ?? 0) + 1);
  let shared = 0;
  for (const w of b) {
    const n = counts.get(w) ?? 0;
    if (n > 0) {
      shared++;
      counts.set(w, n - 1);
    }
  }
  return (2 * shared) / (a.length + b.length);
}

/** The names written in backticks in a text (`check_inventory`, `vendor_whitelist.csv`). */
export function codeNames(s: unknown): Set<string> {
  return new Set(typeof s === 'string' ? codeSpans(s).map((c) => c.text) : []);
}

/** Names in `a` that are not in `b`, as "`x`, `y`" for a message; empty when none. */
export function lostNames(a: Set<string>, b: Set<string>): string {
  return [...a].filter((n) => !b.has(n)).map((n) => `\`${n}\``).join(', ');
}

const COMPARISON = /([\p{L}_][\p{L}\p{N}_.]*)\s*(>=|<=|≥|≤|>|<)\s*(-?\d[\d,_]*(?:\.\d+)?)/gu;

/**
 * How a condition's scope moved when only the numbers of its comparisons changed
 * (`amount > 50000` → `amount > 100000` matches fewer cases): `wider`, `narrower`, or undefined
 * when the text changed otherwise or the comparisons disagree (docs/semantic-diff.md, "Conditions").
 */
export function conditionScope(before: unknown, after: unknown): 'wider' | 'narrower' | undefined {
  if (typeof before !== 'string' || typeof after !== 'string') return undefined;
  const clauses = clauseScope(before, after) ?? membershipScope(before, after);
  if (clauses) return clauses;
  const parse = (s: string) => [...normText(s).matchAll(COMPARISON)].map((m) => ({ name: m[1]!, op: m[2]!, n: Number(m[3]!.replace(/[,_]/g, '')) }));
  const shape = (s: string) => normText(s).replace(COMPARISON, '$1 $2 #');
  if (shape(before) !== shape(after)) return undefined;
  const b = parse(before);
  const a = parse(after);
  let direction: 'wider' | 'narrower' | undefined;
  for (let i = 0; i < b.length; i++) {
    const x = b[i]!;
    const y = a[i]!;
    if (x.n === y.n) continue;
    // `x > n` matches more when n goes down; `x < n` matches more when n goes up.
    const greater = x.op === '>' || x.op === '>=' || x.op === '≥';
    const d = greater === y.n < x.n ? 'wider' : 'narrower';
    if (direction && direction !== d) return undefined;
    direction = d;
  }
  return direction;
}

const CONNECTIVE = /\s+(AND|OR|&&|\|\|)\s+/i;

/** A condition as its clauses and the one connective joining them (`and` for a single clause); undefined when mixed or grouped. */
function clausesOf(s: string): { op: 'and' | 'or' | undefined; clauses: Set<string> } | undefined {
  const text = normText(s.replace(/`/g, ''));
  if (/[()]/.test(text.replace(/\b[\p{L}_][\p{L}\p{N}_]*\([^()]*\)/gu, ''))) return undefined;
  const parts = text.split(CONNECTIVE);
  const ops = new Set(parts.filter((_, i) => i % 2 === 1).map((o) => (o === '&&' || o.toLowerCase() === 'and' ? 'and' : 'or')));
  if (ops.size > 1) return undefined;
  return { op: [...ops][0] as 'and' | 'or' | undefined, clauses: new Set(parts.filter((_, i) => i % 2 === 0).map((c) => c.toLowerCase())) };
}

/**
 * How a condition's scope moved when clauses joined by AND (or by OR) were removed or added:
 * fewer AND clauses (or more OR clauses) match more cases. Undefined for any other edit.
 */
function clauseScope(before: string, after: string): 'wider' | 'narrower' | undefined {
  const b = clausesOf(before);
  const a = clausesOf(after);
  if (!b || !a) return undefined;
  const op = b.op ?? a.op;
  if (!op || (b.op && a.op && b.op !== a.op)) return undefined;
  const within = (x: Set<string>, y: Set<string>) => x.size < y.size && [...x].every((c) => y.has(c));
  // Fewer clauses: AND matches more, OR matches less.
  if (within(a.clauses, b.clauses)) return op === 'and' ? 'wider' : 'narrower';
  if (within(b.clauses, a.clauses)) return op === 'and' ? 'narrower' : 'wider';
  return undefined;
}

const MEMBERSHIP = /([\p{L}_][\p{L}\p{N}_.]*)\s+(NOT\s+IN|IN)\s*[[(]([^\])]*)[\])]/giu;

/**
 * How a condition's scope moved when only the lists of its `IN` / `NOT IN` tests changed: fewer
 * values under `IN` (or more under `NOT IN`) match fewer cases. Undefined when the text changed
 * otherwise, a list both lost and gained values, or two lists disagree.
 */
function membershipScope(before: string, after: string): 'wider' | 'narrower' | undefined {
  const plain = (s: string) => normText(s.replace(/`/g, ''));
  const shape = (s: string) => plain(s).replace(MEMBERSHIP, (_, name: string, op: string) => `${name} ${op.replace(/\s+/g, ' ').toUpperCase()} #`);
  if (shape(before) !== shape(after)) return undefined;
  const lists = (s: string) =>
    [...plain(s).matchAll(MEMBERSHIP)].map((m) => ({ not: /^not/i.test(m[2]!), values: new Set(m[3]!.split(',').map((v) => v.trim().replace(/^(['"])(.*)\1$/, '$2')).filter(Boolean)) }));
  const b = lists(before);
  const a = lists(after);
  const within = (x: Set<string>, y: Set<string>) => x.size < y.size && [...x].every((v) => y.has(v));
  let direction: 'wider' | 'narrower' | undefined;
  for (let i = 0; i < b.length; i++) {
    const x = b[i]!;
    const y = a[i]!;
    if (x.values.size === y.values.size && [...x.values].every((v) => y.values.has(v))) continue;
    const fewer = within(y.values, x.values);
    if (!fewer && !within(x.values, y.values)) return undefined;
    // `IN` matches fewer cases with fewer values; `NOT IN` matches more.
    const d = fewer !== x.not ? 'narrower' : 'wider';
    if (direction && direction !== d) return undefined;
    direction = d;
  }
  return direction;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A duration in milliseconds (`30s`, `15 mins`, `24h`, `90 days`, `30 days rolling`), read as
 * the parser reads FAILURE_PROTOCOL waits; undefined when the text holds no duration
 * (`Until order closed`, `permanent`).
 */
export function durationMs(v: unknown): number | undefined {
  const d = typeof v === 'string' ? normaliseDuration(v) : undefined;
  const m = d ? /^(\d+(?:\.\d+)?)([smhd])$/.exec(d) : null;
  return m ? Number(m[1]) * UNIT_MS[m[2]!]! : undefined;
}

/** `05:00 UTC` → minutes after midnight, or undefined. */
export function minutesOfDay(v: unknown): number | undefined {
  const m = typeof v === 'string' ? /^\s*(\d{1,2}):(\d{2})/.exec(v) : null;
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}
