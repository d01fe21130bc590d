/**
 * The contract expression language (docs/contract-format.md §7.4): the syntax of the backticked
 * conditions of HUMAN_IN_THE_LOOP rows and FAILURE_PROTOCOL entries and of the `check` of a
 * safety guard, beside the model so that the validator and the dry run read a condition alike.
 * Parsing is pure, bounded (input length, nesting depth) and never throws; the dry run evaluates
 * (run/engine/expression.ts).
 */
import { FILE_LIKE } from './references.ts';

/** A message of the dry run (`expr.*` in run/messages.ts) with its arguments: why a text is not an expression. */
export interface SyntaxMessage {
  readonly id: string;
  readonly args: Readonly<Record<string, string | number>>;
}

/** A parsed expression. */
export type Expr =
  | { readonly kind: 'literal'; readonly value: unknown }
  | { readonly kind: 'path'; readonly root: string; readonly steps: readonly PathStep[]; readonly text: string }
  | { readonly kind: 'file'; readonly name: string }
  | { readonly kind: 'list'; readonly items: readonly Expr[] }
  | { readonly kind: 'call'; readonly fn: FunctionName; readonly args: readonly Expr[] }
  | { readonly kind: 'arith'; readonly op: '+' | '-' | '*' | '/'; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'neg'; readonly arg: Expr }
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
export type ParseResult = { readonly ok: true; readonly expr: Expr } | { readonly ok: false; readonly error: SyntaxMessage; readonly offset: number };

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
/** The functions and how many arguments each takes (`min` and `max`: one list, or several values). */
const FUNCTIONS = { len: [1, 1], lower: [1, 1], upper: [1, 1], exists: [1, 1], abs: [1, 1], min: [1, 16], max: [1, 16] } as const;
export type FunctionName = keyof typeof FUNCTIONS;
const isFunction = (name: string): name is FunctionName => Object.prototype.hasOwnProperty.call(FUNCTIONS, name);

function tokenize(text: string): Token[] | { error: SyntaxMessage; offset: number } {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const rest = text.slice(i);
    // A sign is an operator (`a-1`, `x > -5`), never part of the number.
    const num = /^\d+(?:\.\d+)?(?![\w.])/.exec(rest);
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
    const op = /^(?:==|!=|<>|<=|>=|&&|\|\||[=<>()[\],.*+\-/!])/.exec(rest);
    if (op) {
      // `&&`, `||` and `!` are spellings of AND, OR and NOT (docs/contract-format.md §7.4).
      const spelt = SPELLINGS[op[0]];
      out.push(spelt ? { t: 'word', v: spelt, at: i } : { t: 'op', v: op[0] === '==' ? '=' : op[0] === '<>' ? '!=' : op[0], at: i });
      i += op[0].length;
      continue;
    }
    return { error: { id: 'expr.unexpected', args: { text: c } }, offset: i };
  }
  out.push({ t: 'end', at: text.length });
  return out;
}

const SPELLINGS: Readonly<Record<string, string>> = { '&&': 'AND', '||': 'OR', '!': 'NOT' };

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
    const left = this.sum();
    const t = this.peek();
    if (t.t === 'op' && ['=', '!=', '<', '<=', '>', '>='].includes(t.v)) {
      this.i++;
      return { kind: 'compare', op: t.v as '=', left, right: this.sum() };
    }
    let negated = false;
    if (this.isKeyword('NOT')) {
      negated = true;
      this.i++;
    }
    if (this.isKeyword('IN')) {
      this.i++;
      return { kind: 'in', negated, left, right: this.sum() };
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
  /** `product (('+' | '-') product)*`, left-associative. */
  private sum(): Expr {
    let left = this.product();
    while (this.isOp('+') || this.isOp('-')) {
      const op = (this.next() as { v: '+' | '-' }).v;
      left = { kind: 'arith', op, left, right: this.product() };
    }
    return left;
  }
  /** `unary (('*' | '/') unary)*`, left-associative. */
  private product(): Expr {
    let left = this.unary();
    while (this.isOp('*') || this.isOp('/')) {
      const op = (this.next() as { v: '*' | '/' }).v;
      left = { kind: 'arith', op, left, right: this.unary() };
    }
    return left;
  }
  private unary(): Expr {
    if (!this.isOp('-')) return this.operand();
    this.i++;
    this.enter();
    const arg = this.unary();
    this.depth--;
    // A negative number stays a literal (`x > -5`).
    return arg.kind === 'literal' && typeof arg.value === 'number' ? { kind: 'literal', value: -arg.value } : { kind: 'neg', arg };
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
        const fn = t.v.toLowerCase();
        if (isFunction(fn) && this.isOp('(')) return this.call(fn, t.at);
        return this.path(t);
      }
      throw new SyntaxFailure(t.t === 'end' ? { id: 'expr.unexpected-end', args: {} } : { id: 'expr.unexpected', args: { text: 'v' in t ? String(t.v) : '' } }, t.at);
    } finally {
      this.depth--;
    }
  }
  /** `fn(arg, …)` after its name, with the number of arguments the function takes. */
  private call(fn: FunctionName, at: number): Expr {
    this.i++;
    const args: Expr[] = [];
    if (!this.isOp(')')) {
      for (;;) {
        args.push(this.or());
        if (!this.isOp(',')) break;
        this.i++;
      }
    }
    this.expectOp(')');
    const [min, max] = FUNCTIONS[fn];
    if (args.length < min || args.length > max) throw new SyntaxFailure({ id: 'expr.arguments', args: { fn, count: args.length } }, at);
    return { kind: 'call', fn, args };
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
    readonly ref: SyntaxMessage,
    readonly offset: number,
  ) {
    super(ref.id);
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
