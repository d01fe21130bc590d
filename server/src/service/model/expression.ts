/**
 * The contract expression language (docs/contract-format.md §7.4): the syntax of the backticked
 * conditions of HUMAN_IN_THE_LOOP rows and FAILURE_PROTOCOL entries and of the `check` of a
 * safety guard, beside the model so that the validator and the dry run read a condition alike.
 * Parsing is pure, bounded (input length, nesting depth) and never throws; the dry run evaluates
 * (run/expression.ts).
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
const FUNCTIONS = new Set(['len', 'lower', 'upper', 'exists']);

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

/**
 * A condition as written in a contract: an expression when the text parses as one and is more
 * than a bare name or literal (an operator, a function or a comparison); otherwise prose, which
 * the dry run fires only by name (docs/dry-run.md §3). Enclosing backticks are removed first.
 */
export function conditionExpression(text: string): Expr | undefined {
  const t = text.trim().replace(/^`([^`]+)`$/, '$1');
  const r = parseExpression(t);
  if (!r.ok) return undefined;
  return r.expr.kind === 'path' || r.expr.kind === 'literal' || r.expr.kind === 'file' || r.expr.kind === 'list' ? undefined : r.expr;
}

/** Why a text is not an expression, and where: `[start, end)` in UTF-16 code units of the text. */
export interface ExpressionSyntaxError {
  readonly error: SyntaxMessage;
  readonly start: number;
  readonly end: number;
}

/** Comparison operators, function calls and upper-case keywords: backticked text with one of them was meant as an expression. */
const EXPRESSION_SIGNS = /[=<>!]|\b(?:len|lower|upper|exists)\s*\(|\b(?:AND|OR|NOT|IN|MATCHES|IS)\b/;

function syntaxError(text: string, from: number, to: number): ExpressionSyntaxError | undefined {
  const r = parseExpression(text.slice(from, to));
  if (r.ok) return undefined;
  // From the offending token to the end of the expression; an unexpected end marks the whole of it.
  const at = from + r.offset;
  return at < to ? { error: r.error, start: at, end: to } : { error: r.error, start: from, end: to };
}

/**
 * The syntax error of a condition that looks like an expression (it has an operator, a function
 * call or an upper-case keyword) but does not parse, so that `conditionExpression` reads it as
 * prose, which the dry run fires only by name. Enclosing backticks are skipped as there.
 * Undefined for expressions and for text without those signs.
 */
export function conditionSyntaxError(text: string): ExpressionSyntaxError | undefined {
  const m = /^(\s*`)([^`]+)`\s*$/.exec(text);
  const [from, inner] = m ? [m[1]!.length, m[2]!] : [0, text];
  if (!EXPRESSION_SIGNS.test(inner)) return undefined;
  return syntaxError(text, from, from + inner.length);
}

/** The syntax error of a safety guard's `check`, which is an expression as a whole (run/verify.ts parses it as written). */
export function checkSyntaxError(text: string): ExpressionSyntaxError | undefined {
  return syntaxError(text, 0, text.length);
}
