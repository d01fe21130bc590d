/**
 * The contract's conditions and the JSON Schemas of the names they read, as SMT-LIB (docs/prove.md,
 * "The solver"). A name is a tagged value (absent, null, number, string, boolean, list, object),
 * and a condition two formulas, "is true" and "is false", so that the dry run's three-valued logic
 * (a missing value makes a test unknown, and an unknown trigger does not fire) is exact. What is
 * not translated (a regex, `lower()`, a resource file, a path into a value) becomes a fresh,
 * unconstrained value: the formula then allows more than the dry run does, so "no model" still
 * proves that no input exists, and a model is checked by the dry run's own evaluator before it is
 * a witness. Pure.
 */
import type { Expr } from '../model/expression.ts';
import { obj } from '../model/data.ts';
import type { SmtQuery, SmtSort, SmtValue } from './types.ts';

const T = { absent: 0, null: 1, num: 2, str: 3, bool: 4, list: 5, object: 6 } as const;

/** A value as SMT terms: its tag and, per tag, its content. */
interface Val {
  readonly t: string;
  readonly r: string;
  readonly s: string;
  readonly b: string;
  readonly l: string;
}
/** A condition as SMT terms: when it is true, when it is false (neither: unknown). */
export interface Truth {
  readonly yes: string;
  readonly no: string;
}

/** A name a problem reads: its schema (undefined: the request's data, any value) and whether the call may omit it. */
export interface NameSpec {
  readonly name: string;
  readonly schema?: unknown;
  readonly optional: boolean;
}

const SCHEMA_TRANSLATED = new Set(['type', 'enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems', 'items', 'description', 'title', 'default', 'examples', 'properties', 'required', 'additionalProperties', '$comment']);
const SCHEMA_UNMODELLED = ['pattern', 'format', 'anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref', 'uniqueItems', 'contains'];

const and = (...xs: string[]) => (xs.length === 0 ? 'true' : xs.length === 1 ? xs[0]! : `(and ${xs.join(' ')})`);
const or = (...xs: string[]) => (xs.length === 0 ? 'false' : xs.length === 1 ? xs[0]! : `(or ${xs.join(' ')})`);
const not = (x: string) => `(not ${x})`;
const is = (v: Val, tag: number) => `(= ${v.t} ${tag})`;
const present = (v: Val) => not(is(v, T.absent));

/** A JSON number as an SMT-LIB real. */
export function realLiteral(n: number): string {
  const abs = Math.abs(n);
  let text = Number.isInteger(abs) ? `${BigInt(abs)}.0` : String(abs);
  if (/e/i.test(text)) text = abs.toFixed(20).replace(/0+$/, '0');
  return n < 0 ? `(- ${text})` : text;
}

/** A text as an SMT-LIB string literal: every character outside printable ASCII, and `\`, as \u{…}. */
export function stringLiteral(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    out += c >= 0x20 && c <= 0x7e && ch !== '\\' && ch !== '"' ? ch : `\\u{${c.toString(16)}}`;
  }
  return `"${out}"`;
}

/** One problem under construction: its names, assertions and what it could not translate. */
export class SmtProblem {
  private readonly decls: string[] = [];
  private readonly asserts: string[] = [];
  private readonly byName = new Map<string, { readonly index: number; readonly spec: NameSpec }>();
  private count = 0;
  /** What the formulas leave unconstrained, as code (`lower()`, `MATCHES`, a file, a path) or schema keyword and name. */
  readonly unmodelledExpr = new Set<string>();
  readonly unmodelledSchema: { keyword: string; name: string }[] = [];
  /** A gate's boundaries: each comparison with a constant, as "the two sides are equal" (`amount + fee = 50000`). */
  readonly boundaries: string[] = [];

  private fresh(): Val {
    const i = this.count++;
    this.decls.push(`(declare-const t${i} Int)(declare-const r${i} Real)(declare-const s${i} String)(declare-const b${i} Bool)(declare-const l${i} Int)`);
    this.asserts.push(`(and (>= t${i} 0) (<= t${i} 6) (>= l${i} 0))`);
    return { t: `t${i}`, r: `r${i}`, s: `s${i}`, b: `b${i}`, l: `l${i}` };
  }

  private freshBool(): string {
    const i = this.count++;
    this.decls.push(`(declare-const f${i} Bool)`);
    return `f${i}`;
  }

  assert(term: string): void {
    this.asserts.push(term);
  }

  /** Declares a name with its schema's constraints (once); its value. */
  name(spec: NameSpec): Val {
    const known = this.byName.get(spec.name);
    if (known) return this.valOf(known.index);
    const v = this.fresh();
    this.byName.set(spec.name, { index: this.count - 1, spec });
    if (!spec.optional) this.assert(present(v));
    if (spec.schema !== undefined) this.assert(or(is(v, T.absent), this.schema(v, spec.schema, spec.name)));
    return v;
  }

  private valOf(i: number): Val {
    return { t: `t${i}`, r: `r${i}`, s: `s${i}`, b: `b${i}`, l: `l${i}` };
  }

  /** The constraints a JSON Schema puts on a value (absent aside: the caller decides). */
  private schema(v: Val, schema: unknown, name: string): string {
    const s = obj(schema);
    if (!s) return 'true';
    for (const k of Object.keys(s)) if (SCHEMA_UNMODELLED.includes(k) || !SCHEMA_TRANSLATED.has(k)) this.unmodelledSchema.push({ keyword: k, name });
    const num = (k: string) => (typeof s[k] === 'number' && Number.isFinite(s[k]) ? (s[k] as number) : undefined);
    const types = (Array.isArray(s['type']) ? s['type'] : s['type'] === undefined ? [] : [s['type']]).filter((x): x is string => typeof x === 'string');
    const tagOf: Record<string, string> = { null: is(v, T.null), number: is(v, T.num), integer: and(is(v, T.num), `(is_int ${v.r})`), string: is(v, T.str), boolean: is(v, T.bool), array: is(v, T.list), object: is(v, T.object) };
    const out: string[] = [];
    if (types.length > 0) out.push(or(...types.map((t) => tagOf[t] ?? 'false')));
    if (Array.isArray(s['enum'])) out.push(or(...s['enum'].map((x) => this.equal(v, this.literal(x)))));
    if ('const' in s) out.push(this.equal(v, this.literal(s['const'])));
    const bound = (k: string, op: string) => num(k) !== undefined && out.push(`(=> ${is(v, T.num)} (${op} ${v.r} ${realLiteral(num(k)!)}))`);
    bound('minimum', s['exclusiveMinimum'] === true ? '>' : '>=');
    bound('maximum', s['exclusiveMaximum'] === true ? '<' : '<=');
    bound('exclusiveMinimum', '>');
    bound('exclusiveMaximum', '<');
    const m = num('multipleOf');
    if (m !== undefined && m > 0) {
      const k = this.count++;
      this.decls.push(`(declare-const k${k} Int)`);
      out.push(`(=> ${is(v, T.num)} (= ${v.r} (* (to_real k${k}) ${realLiteral(m)})))`);
    }
    const len = (k: string, op: string, tag: number, of: string) => num(k) !== undefined && out.push(`(=> ${is(v, tag)} (${op} ${of} ${Math.floor(num(k)!)}))`);
    len('minLength', '>=', T.str, `(str.len ${v.s})`);
    len('maxLength', '<=', T.str, `(str.len ${v.s})`);
    len('minItems', '>=', T.list, v.l);
    len('maxItems', '<=', T.list, v.l);
    return and(...out);
  }

  /** A constant JSON value. A list or an object literal: any value of its tag (not modelled). */
  private literal(x: unknown): Val {
    const c = (t: number, rest: Partial<Val> = {}): Val => ({ t: String(t), r: '0.0', s: '""', b: 'false', l: '0', ...rest });
    if (x === null) return c(T.null);
    if (typeof x === 'number') return c(T.num, { r: realLiteral(x) });
    if (typeof x === 'string') return c(T.str, { s: stringLiteral(x) });
    if (typeof x === 'boolean') return c(T.bool, { b: String(x) });
    const v = this.fresh();
    this.assert(is(v, Array.isArray(x) ? T.list : T.object));
    return v;
  }

  /** `equal()` of the dry run: the same tag and content; lists and objects other than empty lists compare by a fresh choice. */
  private equal(a: Val, b: Val): string {
    const composite = or(and(is(a, T.list), or(and(`(= ${a.l} 0)`, `(= ${b.l} 0)`), this.freshBool())), and(is(a, T.object), this.freshBool()));
    return and(`(= ${a.t} ${b.t})`, or(is(a, T.null), and(is(a, T.num), `(= ${a.r} ${b.r})`), and(is(a, T.str), `(= ${a.s} ${b.s})`), and(is(a, T.bool), `(= ${a.b} ${b.b})`), composite));
  }

  private unknownTruth(what: string): Truth {
    this.unmodelledExpr.add(what);
    const yes = this.freshBool();
    const no = this.freshBool();
    this.assert(not(and(yes, no)));
    return { yes, no };
  }

  private unknownVal(what: string): Val {
    this.unmodelledExpr.add(what);
    return this.fresh();
  }

  /**
   * A condition's truth. `resolve` gives the value of a path: a name's value, `absent` for what
   * the scope does not have (`output.*` at a tool call), undefined for a path not modelled.
   */
  truth(e: Expr, resolve: (p: Expr & { kind: 'path' }) => Val | 'absent' | undefined): Truth {
    const truth = (x: Expr) => this.truth(x, resolve);
    const value = (x: Expr) => this.value(x, resolve);
    switch (e.kind) {
      case 'and': {
        const [a, b] = [truth(e.left), truth(e.right)];
        return { yes: and(a.yes, b.yes), no: or(a.no, b.no) };
      }
      case 'or': {
        const [a, b] = [truth(e.left), truth(e.right)];
        return { yes: or(a.yes, b.yes), no: and(a.no, b.no) };
      }
      case 'not': {
        const a = truth(e.arg);
        return { yes: a.no, no: a.yes };
      }
      case 'compare': {
        const [a, b] = [value(e.left), value(e.right)];
        if (e.left.kind === 'literal' || e.right.kind === 'literal') this.boundaries.push(and(present(a), present(b), this.equal(a, b)));
        return this.compare(e.op, a, b);
      }
      case 'in': {
        // A single value in parentheses is not a list: the dry run's IN is then never true or false.
        if (e.right.kind === 'literal') return { yes: 'false', no: 'false' };
        if (e.right.kind !== 'list') return this.unknownTruth(e.right.kind === 'file' ? e.right.name : e.right.kind === 'path' ? e.right.text : 'IN');
        const a = value(e.left);
        const items = e.right.items.map(value);
        const defined = and(present(a), ...items.map(present));
        const inside = or(and(is(a, T.list), or(`(= ${a.l} 0)`, this.freshBool())), and(not(is(a, T.list)), or(...items.map((i) => this.equal(a, i)))));
        this.boundaries.push(and(defined, inside));
        return { yes: and(defined, e.negated ? not(inside) : inside), no: and(defined, e.negated ? inside : not(inside)) };
      }
      case 'matches': {
        // The subject must be a present scalar for MATCHES to be true or false at all.
        const a = value(e.left);
        const t = this.unknownTruth('MATCHES');
        const scalar = or(is(a, T.num), is(a, T.str), is(a, T.bool));
        return { yes: and(scalar, t.yes), no: and(scalar, t.no) };
      }
      case 'null': {
        const a = value(e.arg);
        const isNull = or(is(a, T.absent), is(a, T.null));
        return e.negated ? { yes: not(isNull), no: isNull } : { yes: isNull, no: not(isNull) };
      }
      default: {
        const v = value(e);
        const truthy = or(and(is(v, T.num), `(not (= ${v.r} 0.0))`), and(is(v, T.str), `(not (= ${v.s} ""))`), and(is(v, T.bool), v.b), and(is(v, T.list), `(> ${v.l} 0)`), is(v, T.object));
        return { yes: truthy, no: and(present(v), not(truthy)) };
      }
    }
  }

  private compare(op: string, a: Val, b: Val): Truth {
    const defined = and(present(a), present(b));
    if (op === '=' || op === '!=') {
      const eq = this.equal(a, b);
      return op === '=' ? { yes: and(defined, eq), no: and(defined, not(eq)) } : { yes: and(defined, not(eq)), no: and(defined, eq) };
    }
    const nums = and(is(a, T.num), is(b, T.num));
    const strs = and(is(a, T.str), is(b, T.str));
    const strOp = op === '<' ? `(str.< ${a.s} ${b.s})` : op === '<=' ? `(str.<= ${a.s} ${b.s})` : op === '>' ? `(str.< ${b.s} ${a.s})` : `(str.<= ${b.s} ${a.s})`;
    const numOp = `(${op} ${a.r} ${b.r})`;
    return { yes: or(and(nums, numOp), and(strs, strOp)), no: or(and(nums, not(numOp)), and(strs, not(strOp))) };
  }

  private value(e: Expr, resolve: (p: Expr & { kind: 'path' }) => Val | 'absent' | undefined): Val {
    const value = (x: Expr) => this.value(x, resolve);
    const derived = (t: string, rest: Partial<Val>): Val => ({ t, r: '0.0', s: '""', b: 'false', l: '0', ...rest });
    switch (e.kind) {
      case 'literal':
        return this.literal(e.value);
      case 'path': {
        const v = resolve(e);
        if (v === 'absent') return derived(String(T.absent), {});
        return v ?? this.unknownVal(e.text);
      }
      case 'arith': {
        const [a, b] = [value(e.left), value(e.right)];
        const ok = and(is(a, T.num), is(b, T.num), ...(e.op === '/' ? [`(not (= ${b.r} 0.0))`] : []));
        return derived(`(ite ${ok} ${T.num} ${T.absent})`, { r: `(${e.op} ${a.r} ${b.r})` });
      }
      case 'neg': {
        const a = value(e.arg);
        return derived(`(ite ${is(a, T.num)} ${T.num} ${T.absent})`, { r: `(- ${a.r})` });
      }
      case 'call':
        return this.call(e, value);
      case 'file':
      case 'list':
      case 'matches':
        return this.unknownVal(e.kind === 'file' ? e.name : e.kind === 'list' ? '(…)' : 'MATCHES');
      default: {
        const t = this.truth(e, resolve);
        return derived(`(ite ${or(t.yes, t.no)} ${T.bool} ${T.absent})`, { b: t.yes });
      }
    }
  }

  private call(e: Expr & { kind: 'call' }, value: (x: Expr) => Val): Val {
    const derived = (t: string, rest: Partial<Val>): Val => ({ t, r: '0.0', s: '""', b: 'false', l: '0', ...rest });
    const a = value(e.args[0]!);
    if (e.fn === 'exists') return derived(String(T.bool), { b: not(or(is(a, T.absent), is(a, T.null))) });
    if (e.fn === 'len') return derived(`(ite ${or(is(a, T.str), is(a, T.list), is(a, T.object))} ${T.num} ${T.absent})`, { r: `(to_real (ite ${is(a, T.str)} (str.len ${a.s}) ${a.l}))` });
    if (e.fn === 'abs') return derived(`(ite ${is(a, T.num)} ${T.num} ${T.absent})`, { r: `(ite (>= ${a.r} 0.0) ${a.r} (- ${a.r}))` });
    if ((e.fn === 'min' || e.fn === 'max') && e.args.length > 1) {
      const vs = e.args.map(value);
      const r = vs.slice(1).reduce((m, v) => `(ite (${e.fn === 'min' ? '<' : '>'} ${v.r} ${m}) ${v.r} ${m})`, vs[0]!.r);
      return derived(`(ite ${and(...vs.map((v) => is(v, T.num)))} ${T.num} ${T.absent})`, { r });
    }
    return this.unknownVal(`${e.fn}()`);
  }

  /** The query: every declaration and assertion, plus `extra`; the names' constants read back. */
  query(extra: readonly string[] = []): SmtQuery {
    const read: { name: string; sort: SmtSort }[] = [];
    for (const { index: i } of this.byName.values()) read.push({ name: `t${i}`, sort: 'Int' }, { name: `r${i}`, sort: 'Real' }, { name: `s${i}`, sort: 'String' }, { name: `b${i}`, sort: 'Bool' }, { name: `l${i}`, sort: 'Int' });
    return { smt: [...this.decls, ...[...this.asserts, ...extra].map((a) => `(assert ${a})`)].join('\n'), read };
  }

  /** The names declared, in order. */
  names(): string[] {
    return [...this.byName.keys()];
  }

  /** The names' values in a model, as JSON (absent names left out); lists and objects from the schema's sample. */
  decode(values: Readonly<Record<string, SmtValue>>, sample: (schema: unknown, tag: 'list' | 'object') => unknown): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, { index: i, spec }] of this.byName) {
      const t = Number(values[`t${i}`]);
      if (t === T.absent) continue;
      const integer = JSON.stringify(obj(spec.schema)?.['type'] ?? '').includes('integer');
      const r = Number(values[`r${i}`]);
      if (t === T.null) out[name] = null;
      else if (t === T.num) out[name] = integer ? Math.round(r) : r;
      else if (t === T.str) out[name] = String(values[`s${i}`]);
      else if (t === T.bool) out[name] = values[`b${i}`] === true;
      else if (t === T.list) out[name] = Array.from({ length: Math.min(Number(values[`l${i}`]), 64) }, () => sample(obj(spec.schema)?.['items'], 'list'));
      else out[name] = sample(spec.schema, 'object') ?? {};
    }
    return out;
  }
}
