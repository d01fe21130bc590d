/**
 * Evaluation of the contract expression language (syntax: model/expression.ts) by the dry run on
 * snapshot data. Pure, bounded (list sizes) and never throws; missing values, non-numbers in
 * arithmetic and division by zero make a test unknown; `MATCHES` runs on RE2.
 */
import { compileRe2 } from '../../validate/regexDialect.ts';
import type { Expr, PathStep } from '../../model/expression.ts';

/** What an expression reads: the roots and the resource files it names. */
export interface Scope {
  /** `output`: the final answer, when there is one. */
  readonly output?: unknown;
  /** `input.query`, `input.entities.<name>`. */
  readonly input: { readonly query: string; readonly entities: Readonly<Record<string, unknown>> };
  /** `memory.<pool>`: the records retrieved from each pool. */
  readonly memory: Readonly<Record<string, readonly unknown[]>>;
  /** Bare names, looked up in order (tool-call arguments, the query's data, the entities). */
  readonly names: readonly Readonly<Record<string, unknown>>[];
  /** The values a resource file gives (docs/dry-run.md), or undefined when it is not available. */
  readonly file: (name: string) => readonly unknown[] | undefined;
}

/** Three-valued truth: a missing value makes a test unknown, never silently true or false. */
export type Truth = true | false | 'unknown';

/** The result of evaluating a condition: its truth and the names it could not find. */
export interface Evaluation {
  readonly value: Truth;
  readonly missing: readonly string[];
}

const MISSING = Symbol('missing');
type Value = unknown | typeof MISSING;

/** Evaluates a condition. Pure, never throws; missing values make the result `unknown`. */
export function evaluate(expr: Expr, scope: Scope): Evaluation {
  const missing: string[] = [];
  const value = truth(expr, scope, missing);
  return { value, missing: [...new Set(missing)] };
}

function truth(e: Expr, s: Scope, missing: string[]): Truth {
  switch (e.kind) {
    case 'and': {
      const a = truth(e.left, s, missing);
      if (a === false) return false;
      const b = truth(e.right, s, missing);
      return b === false ? false : a === true && b === true ? true : 'unknown';
    }
    case 'or': {
      const a = truth(e.left, s, missing);
      if (a === true) return true;
      const b = truth(e.right, s, missing);
      return b === true ? true : a === false && b === false ? false : 'unknown';
    }
    case 'not': {
      const a = truth(e.arg, s, missing);
      return a === 'unknown' ? a : !a;
    }
    case 'compare': {
      const a = value(e.left, s, missing);
      const b = value(e.right, s, missing);
      if (a === MISSING || b === MISSING) return 'unknown';
      return compare(e.op, a, b);
    }
    case 'in': {
      const a = value(e.left, s, missing);
      const b = value(e.right, s, missing);
      if (a === MISSING || b === MISSING || !Array.isArray(b)) return 'unknown';
      const inside = Array.isArray(a) ? a.every((x) => b.some((y) => equal(x, y))) : b.some((y) => equal(a, y));
      return e.negated ? !inside : inside;
    }
    case 'matches': {
      const a = value(e.left, s, missing);
      const re = compileRe2(e.pattern);
      if (a === MISSING || a === null || typeof a === 'object' || !re) return 'unknown';
      const m = re.matcher(String(a)).find();
      return e.negated ? !m : m;
    }
    case 'null': {
      const a = value(e.arg, s, missing);
      const isNull = a === MISSING || a === null;
      return e.negated ? !isNull : isNull;
    }
    default: {
      const v = value(e, s, missing);
      if (v === MISSING) return 'unknown';
      return Boolean(v) && !(Array.isArray(v) && v.length === 0);
    }
  }
}

function value(e: Expr, s: Scope, missing: string[]): Value {
  switch (e.kind) {
    case 'literal':
      return e.value;
    case 'list': {
      const items = e.items.map((x) => value(x, s, missing));
      return items.includes(MISSING) ? MISSING : items;
    }
    case 'file': {
      const v = s.file(e.name);
      if (!v) missing.push(e.name);
      return v ? [...v] : MISSING;
    }
    case 'path': {
      const v = resolvePath(e, s);
      if (v === MISSING) missing.push(e.text);
      return v;
    }
    case 'call':
      return call(e, s, missing);
    case 'arith': {
      const a = value(e.left, s, missing);
      const b = value(e.right, s, missing);
      return arithmetic(e.op, a, b);
    }
    case 'neg': {
      const a = value(e.arg, s, missing);
      return typeof a === 'number' ? -a : MISSING;
    }
    default: {
      const t = truth(e, s, missing);
      return t === 'unknown' ? MISSING : t;
    }
  }
}

/**
 * `+ - * /` on numbers. Anything else (a missing value, a string, a division by zero, a result
 * that is not a finite number) has no value, so the test that reads it is unknown, never false.
 */
function arithmetic(op: '+' | '-' | '*' | '/', a: Value, b: Value): Value {
  if (typeof a !== 'number' || typeof b !== 'number') return MISSING;
  if (op === '/' && b === 0) return MISSING;
  const r = op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : a / b;
  return Number.isFinite(r) ? r : MISSING;
}

function call(e: Expr & { kind: 'call' }, s: Scope, missing: string[]): Value {
  const first = e.args[0]!;
  if (e.fn === 'exists') {
    const v = first.kind === 'path' ? resolvePath(first, s) : value(first, s, missing);
    return v !== MISSING && v !== null;
  }
  if (e.fn === 'min' || e.fn === 'max') {
    // One list argument (`max(items[*].price)`) or several values.
    const vs = e.args.map((x) => value(x, s, missing));
    const items = vs.length === 1 && Array.isArray(vs[0]) ? (vs[0] as unknown[]) : vs;
    if (items.length === 0 || !items.every((x): x is number => typeof x === 'number')) return MISSING;
    return items.reduce((m, x) => (e.fn === 'min' ? Math.min(m, x) : Math.max(m, x)));
  }
  const v = value(first, s, missing);
  if (v === MISSING) return MISSING;
  if (e.fn === 'len') return Array.isArray(v) ? v.length : typeof v === 'string' ? v.length : v && typeof v === 'object' ? Object.keys(v).length : MISSING;
  if (e.fn === 'abs') return typeof v === 'number' ? Math.abs(v) : MISSING;
  if (typeof v !== 'string') return MISSING;
  return e.fn === 'lower' ? v.toLowerCase() : v.toUpperCase();
}

/** Every path an expression reads, in order, each once (by its text). */
export function exprPaths(expr: Expr): (Expr & { kind: 'path' })[] {
  const out = new Map<string, Expr & { kind: 'path' }>();
  const visit = (e: Expr): void => {
    if (e.kind === 'path') {
      if (!out.has(e.text)) out.set(e.text, e);
    } else if (e.kind === 'list') e.items.forEach(visit);
    else if (e.kind === 'call') e.args.forEach(visit);
    else if (e.kind === 'not' || e.kind === 'null' || e.kind === 'neg') visit(e.arg);
    else if (e.kind === 'and' || e.kind === 'or' || e.kind === 'compare' || e.kind === 'in' || e.kind === 'arith') {
      visit(e.left);
      visit(e.right);
    } else if (e.kind === 'matches') visit(e.left);
  };
  visit(expr);
  return [...out.values()];
}

/** The value a path reads, undefined when it is missing. */
export const pathValue = (e: Expr & { kind: 'path' }, s: Scope): unknown => {
  const v = resolvePath(e, s);
  return v === MISSING ? undefined : v;
};

function resolvePath(e: Expr & { kind: 'path' }, s: Scope): Value {
  if (e.root === 'output') return s.output === undefined ? MISSING : walk(s.output, e.steps);
  if (e.root === 'input') return walk(s.input, e.steps);
  if (e.root === 'memory') return walk(s.memory, e.steps);
  for (const names of s.names) {
    if (Object.prototype.hasOwnProperty.call(names, e.root)) return walk(names[e.root], e.steps);
  }
  return MISSING;
}

/** Follows path steps; `[*]` maps the rest of the path over a list, skipping items without it. */
function walk(current: unknown, steps: readonly PathStep[]): Value {
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    if ('all' in step) {
      if (!Array.isArray(current)) return MISSING;
      const rest = steps.slice(i + 1);
      const out: unknown[] = [];
      for (const item of current) {
        const v = walk(item, rest);
        if (v !== MISSING) out.push(v);
      }
      return out;
    }
    if ('index' in step) {
      if (!Array.isArray(current) || step.index >= current.length) return MISSING;
      current = current[step.index];
    } else if (current && typeof current === 'object' && !Array.isArray(current) && Object.prototype.hasOwnProperty.call(current, step.field)) {
      current = (current as Record<string, unknown>)[step.field];
    } else return MISSING;
  }
  return current;
}

function compare(op: string, a: unknown, b: unknown): Truth {
  if (op === '=') return equal(a, b);
  if (op === '!=') return !equal(a, b);
  const x = typeof a === 'number' && typeof b === 'number' ? [a, b] : typeof a === 'string' && typeof b === 'string' ? [a, b] : undefined;
  if (!x) return 'unknown';
  const [l, r] = x as [number, number];
  return op === '<' ? l < r : op === '<=' ? l <= r : op === '>' ? l > r : l >= r;
}

/** Deep equality of JSON values; numbers compare numerically, strings exactly. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

/** The text of a value for the trace (`unknown` for a missing one). */
export function showValue(v: unknown): string {
  return v === undefined ? 'unknown' : JSON.stringify(v) ?? String(v);
}
