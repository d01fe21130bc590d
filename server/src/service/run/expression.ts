/**
 * The contract expression language (docs/contract-format.md §7.4, brief §9 "Dialects"): the
 * backticked conditions of HUMAN_IN_THE_LOOP rows and FAILURE_PROTOCOL entries and the `check` of
 * a safety guard, evaluated by the dry run on snapshot data. Parsing and evaluation are pure,
 * bounded (input length, nesting depth, list sizes) and never throw; `MATCHES` runs on RE2.
 */
import { compileRe2 } from '../validate/regexDialect.ts';
import { FILE_LIKE } from '../model/references.ts';
import { refText, type MessageRef } from './runMessage.ts';

/** A parsed expression. */
export type Expr =
  | { readonly kind: 'literal'; readonly value: unknown }
  | { readonly kind: 'path'; readonly root: string; readonly steps: readonly PathStep[]; readonly text: string }
  | { readonly kind: 'file'; readonly name: string }
  | { readonly kind: 'list'; readonly items: readonly Expr[] }
  | { readonly kind: 'call'; readonly fn: 'len' | 'lower' | 'upper' | 'exists'; readonly arg: Expr }
  | { readonly kind: 'not'; readonly arg: Expr }
  | { readonly kind: 'and' | 'or'; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'compare'; readonly op: '=' | '!=' | '<' | '<=' | '>' | '>='; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'in'; readonly negated: boolean; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'matches'; readonly negated: boolean; readonly left: Expr; readonly pattern: string }
  | { readonly kind: 'null'; readonly negated: boolean; readonly arg: Expr };

/** One step of a path after its first name: `.name`, `[2]` or `[*]`. */
export type PathStep = { readonly field: string } | { readonly index: number } | { readonly all: true };

/** The result of parsing: an expression, or why the text is not one (then it is prose). */
/** A parsed expression, or why the text is not one (`error`: an `expr.*` message) and where (UTF-16 offset). */
export type ParseResult = { readonly ok: true; readonly expr: Expr } | { readonly ok: false; readonly error: MessageRef; readonly offset: number };

/** Longest expression text parsed, in UTF-16 code units; longer text is prose. */
export const MAX_EXPRESSION_LENGTH = 4000;
const MAX_DEPTH = 64;

type Token =
  | { t: 'num'; v: number; at: number }
  | { t: 'str'; v: string; at: number }
  | { t: 'word'; v: string; at: number }
  | { t: 'file'; v: string; at: number }
  | { t: 'op'; v: string; at: number }
  | { t: 'end'; at: number };

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IN', 'MATCHES', 'IS', 'NULL', 'TRUE', 'FALSE']);
const FUNCTIONS = new Set(['len', 'lower', 'upper', 'exists']);

function tokenize(text: string): Token[] | { error: MessageRef; offset: number } {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const rest = text.slice(i);
    const num = /^-?\d+(?:\.\d+)?(?![\w.])/.exec(rest);
    if (num) {
      out.push({ t: 'num', v: Number(num[0]), at: i });
      i += num[0].length;
      continue;
    }
    if (c === "'" || c === '"') {
      let j = i + 1;
      let s = '';
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        s += text[j];
        j++;
      }
      if (j >= text.length) return { error: { id: 'expr.unterminated', args: {} }, offset: i };
      out.push({ t: 'str', v: s, at: i });
      i = j + 1;
      continue;
    }
    const file = /^[\w./-]+/.exec(rest);
    if (file && FILE_LIKE.test(file[0]) && !/^(?:output|input|memory)\./.test(file[0])) {
      out.push({ t: 'file', v: file[0], at: i });
      i += file[0].length;
      continue;
    }
    const word = /^[A-Za-z_\p{L}][\w\p{L}]*/u.exec(rest);
    if (word) {
      out.push({ t: 'word', v: word[0], at: i });
      i += word[0].length;
      continue;
    }
    const op = /^(?:==|!=|<>|<=|>=|[=<>()[\],.*])/.exec(rest);
    if (op) {
      out.push({ t: 'op', v: op[0] === '==' ? '=' : op[0] === '<>' ? '!=' : op[0], at: i });
      i += op[0].length;
      continue;
    }
    return { error: { id: 'expr.unexpected', args: { text: c } }, offset: i };
  }
  out.push({ t: 'end', at: text.length });
  return out;
}

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.i]!;
  }
  private next(): Token {
    return this.tokens[this.i++] ?? this.tokens[this.tokens.length - 1]!;
  }
  private isKeyword(k: string, tok = this.peek()): boolean {
    return tok.t === 'word' && tok.v.toUpperCase() === k;
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t.t === 'op' && t.v === v;
  }
  private expectOp(v: string): void {
    if (!this.isOp(v)) throw new SyntaxFailure({ id: 'expr.expected', args: { text: v } }, this.peek().at);
    this.i++;
  }
  private enter(): void {
    if (++this.depth > MAX_DEPTH) throw new SyntaxFailure({ id: 'expr.too-deep', args: {} }, this.peek().at);
  }

  parse(): Expr {
    const e = this.or();
    if (this.peek().t !== 'end') throw new SyntaxFailure({ id: 'expr.trailing', args: {} }, this.peek().at);
    return e;
  }
  private or(): Expr {
    return this.chain('or', () => this.and());
  }
  private and(): Expr {
    return this.chain('and', () => this.not());
  }
  /** `operand (KEYWORD operand)*`, left-associative. */
  private chain(kind: 'and' | 'or', operand: () => Expr): Expr {
    let left = operand();
    while (this.isKeyword(kind.toUpperCase())) {
      this.i++;
      left = { kind, left, right: operand() };
    }
    return left;
  }
  private not(): Expr {
    if (this.isKeyword('NOT') && !this.isKeyword('IN', this.tokens[this.i + 1]) && !this.isKeyword('MATCHES', this.tokens[this.i + 1])) {
      this.i++;
      this.enter();
      const arg = this.not();
      this.depth--;
      return { kind: 'not', arg };
    }
    return this.test();
  }
  private test(): Expr {
    const left = this.operand();
    const t = this.peek();
    if (t.t === 'op' && ['=', '!=', '<', '<=', '>', '>='].includes(t.v)) {
      this.i++;
      return { kind: 'compare', op: t.v as '=', left, right: this.operand() };
    }
    let negated = false;
    if (this.isKeyword('NOT')) {
      negated = true;
      this.i++;
    }
    if (this.isKeyword('IN')) {
      this.i++;
      return { kind: 'in', negated, left, right: this.operand() };
    }
    if (this.isKeyword('MATCHES')) {
      this.i++;
      const p = this.next();
      if (p.t !== 'str') throw new SyntaxFailure({ id: 'expr.matches-pattern', args: {} }, p.at);
      return { kind: 'matches', negated, left, pattern: p.v };
    }
    if (negated) throw new SyntaxFailure({ id: 'expr.after-not', args: {} }, this.peek().at);
    if (this.isKeyword('IS')) {
      this.i++;
      let neg = false;
      if (this.isKeyword('NOT')) {
        neg = true;
        this.i++;
      }
      if (!this.isKeyword('NULL')) throw new SyntaxFailure({ id: 'expr.expected', args: { text: 'NULL' } }, this.peek().at);
      this.i++;
      return { kind: 'null', negated: neg, arg: left };
    }
    return left;
  }
  private operand(): Expr {
    this.enter();
    try {
      const t = this.next();
      if (t.t === 'num') return { kind: 'literal', value: t.v };
      if (t.t === 'str') return { kind: 'literal', value: t.v };
      if (t.t === 'file') return { kind: 'file', name: t.v };
      if (t.t === 'op' && t.v === '(') {
        const e = this.or();
        this.expectOp(')');
        return e;
      }
      if (t.t === 'op' && t.v === '[') {
        const items: Expr[] = [];
        if (!this.isOp(']')) {
          for (;;) {
            items.push(this.operand());
            if (this.isOp(',')) {
              this.i++;
              continue;
            }
            break;
          }
        }
        this.expectOp(']');
        return { kind: 'list', items };
      }
      if (t.t === 'word') {
        const upper = t.v.toUpperCase();
        if (upper === 'TRUE' || upper === 'FALSE') return { kind: 'literal', value: upper === 'TRUE' };
        if (upper === 'NULL') return { kind: 'literal', value: null };
        if (KEYWORDS.has(upper)) throw new SyntaxFailure({ id: 'expr.unexpected-keyword', args: { keyword: upper } }, t.at);
        if (FUNCTIONS.has(t.v.toLowerCase()) && this.isOp('(')) {
          this.i++;
          const arg = this.or();
          this.expectOp(')');
          return { kind: 'call', fn: t.v.toLowerCase() as 'len', arg };
        }
        return this.path(t);
      }
      throw new SyntaxFailure(t.t === 'end' ? { id: 'expr.unexpected-end', args: {} } : { id: 'expr.unexpected', args: { text: 'v' in t ? String(t.v) : '' } }, t.at);
    } finally {
      this.depth--;
    }
  }
  private path(first: Token & { t: 'word' }): Expr {
    const steps: PathStep[] = [];
    let text = first.v;
    for (;;) {
      if (this.isOp('.')) {
        this.i++;
        const n = this.next();
        if (n.t !== 'word') throw new SyntaxFailure({ id: 'expr.field-name', args: {} }, n.at);
        steps.push({ field: n.v });
        text += `.${n.v}`;
      } else if (this.isOp('[')) {
        this.i++;
        const n = this.next();
        if (n.t === 'op' && n.v === '*') {
          steps.push({ all: true });
          text += '[*]';
        } else if (n.t === 'num' && Number.isInteger(n.v) && n.v >= 0) {
          steps.push({ index: n.v });
          text += `[${n.v}]`;
        } else throw new SyntaxFailure({ id: 'expr.index', args: {} }, n.at);
        this.expectOp(']');
      } else break;
    }
    return { kind: 'path', root: first.v, steps, text };
  }
}

class SyntaxFailure extends Error {
  constructor(
    readonly ref: MessageRef,
    readonly offset: number,
  ) {
    super(refText(ref));
  }
}

/** Parses an expression. Never throws; text that is not an expression comes back as `ok: false`. */
export function parseExpression(text: string): ParseResult {
  if (text.length > MAX_EXPRESSION_LENGTH) return { ok: false, error: { id: 'expr.too-long', args: { max: MAX_EXPRESSION_LENGTH } }, offset: 0 };
  const tokens = tokenize(text);
  if (!Array.isArray(tokens)) return { ok: false, ...tokens };
  try {
    return { ok: true, expr: new Parser(tokens).parse() };
  } catch (e) {
    return e instanceof SyntaxFailure ? { ok: false, error: e.ref, offset: e.offset } : { ok: false, error: { id: 'expr.internal', args: { detail: String(e) } }, offset: 0 };
  }
}

/**
 * A condition as written in a contract: an expression when the text parses as one and is more
 * than a bare name or literal (an operator, a function or a comparison); otherwise prose, which
 * the dry run fires only by name (brief §9). Enclosing backticks are removed first.
 */
export function conditionExpression(text: string): Expr | undefined {
  const t = text.trim().replace(/^`([^`]+)`$/, '$1');
  const r = parseExpression(t);
  if (!r.ok) return undefined;
  return r.expr.kind === 'path' || r.expr.kind === 'literal' || r.expr.kind === 'file' || r.expr.kind === 'list' ? undefined : r.expr;
}

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
    case 'call': {
      if (e.fn === 'exists') {
        const v = e.arg.kind === 'path' ? resolvePath(e.arg, s) : value(e.arg, s, missing);
        return v !== MISSING && v !== null;
      }
      const v = value(e.arg, s, missing);
      if (v === MISSING) return MISSING;
      if (e.fn === 'len') return Array.isArray(v) ? v.length : typeof v === 'string' ? v.length : v && typeof v === 'object' ? Object.keys(v).length : MISSING;
      if (typeof v !== 'string') return MISSING;
      return e.fn === 'lower' ? v.toLowerCase() : v.toUpperCase();
    }
    default: {
      const t = truth(e, s, missing);
      return t === 'unknown' ? MISSING : t;
    }
  }
}

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
