/**
 * Conditions as written in HUMAN_IN_THE_LOOP rows and FAILURE_PROTOCOL entries
 * (docs/contract-format.md §7.4): which are expressions the dry run evaluates, which are prose it
 * fires only by name, and where a backticked expression breaks. Each code span is read on its
 * own; spans joined only by `and`/`or` read as one expression; prose around a span stays prose.
 */
import { parseExpression, type Expr, type SyntaxMessage } from './expression.ts';
import { Lru } from '../util/lru.ts';

/** Kinds that test nothing on their own: a name, a value, a file, a list or a sum is prose as a condition. */
const NOT_A_TEST = new Set<Expr['kind']>(['path', 'literal', 'file', 'list', 'arith', 'neg']);

/** The code spans of a text: `[start, end)` of each span's content, in UTF-16 code units. */
function codeSpans(text: string): { readonly start: number; readonly end: number }[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => ({ start: m.index! + 1, end: m.index! + 1 + m[1]!.length }));
}

const CONNECTOR = /^(?:and|or|AND|OR|&&|\|\|)$/;

/** The text an expression is read from: the text itself, its one code span, or code spans joined only by and/or. */
function expressionText(text: string): string | undefined {
  const t = text.trim();
  if (!t.includes('`')) return t;
  const spans = codeSpans(t);
  if (spans.length === 0 || t[0] !== '`' || t[t.length - 1] !== '`') return undefined;
  const parts: string[] = [];
  for (let k = 0; k < spans.length; k++) {
    if (k > 0) {
      const between = t.slice(spans[k - 1]!.end + 1, spans[k]!.start - 1).trim();
      if (!CONNECTOR.test(between)) return undefined;
      parts.push(between);
    }
    parts.push(spans.length === 1 ? t.slice(spans[k]!.start, spans[k]!.end) : `(${t.slice(spans[k]!.start, spans[k]!.end)})`);
  }
  return parts.join(' ');
}

/**
 * A condition as written in a contract: an expression when the text (its one code span, or code
 * spans joined by and/or) parses as one that tests something (a comparison, a membership, a
 * function, a logical operator); otherwise prose, which the dry run fires only by name
 * (docs/dry-run.md §3). A bare name or a sum (`follow-up`, `a * b`) is prose.
 */
export function conditionExpression(text: string): Expr | undefined {
  const t = expressionText(text);
  const r = t === undefined ? undefined : parseExpression(t);
  return r?.ok && !NOT_A_TEST.has(r.expr.kind) ? r.expr : undefined;
}

/** Why a text is not an expression, and where: `[start, end)` in UTF-16 code units of the text. */
export interface ExpressionSyntaxError {
  readonly error: SyntaxMessage;
  readonly start: number;
  readonly end: number;
}

/** Comparison and arithmetic-free signs that backticked text was meant as an expression: operators, calls, upper-case keywords. */
const EXPRESSION_SIGNS = /[=<>!]|&&|\|\||\b(?:len|lower|upper|exists|abs|min|max)\s*\(|\b(?:AND|OR|NOT|IN|MATCHES|IS)\b/;

function syntaxError(text: string, from: number, to: number): ExpressionSyntaxError | undefined {
  const r = parseExpression(text.slice(from, to));
  if (r.ok) return undefined;
  // From the offending token to the end of the expression; an unexpected end marks the whole of it.
  const at = from + r.offset;
  return at < to ? { error: r.error, start: at, end: to } : { error: r.error, start: from, end: to };
}

/**
 * The syntax errors of a condition's parts that look like expressions (an operator, a function
 * call or an upper-case keyword) but do not parse: each code span on its own, or the whole text
 * when it has no backticks (a Markdown cell that was one code span comes unwrapped). Prose
 * around a span is never checked.
 */
export function conditionSyntaxErrors(text: string): readonly ExpressionSyntaxError[] {
  // By text: a keystroke elsewhere leaves every condition as it was (docs/performance.md).
  const known = syntaxErrorsByText.get(text);
  if (known) return known;
  const parts = text.includes('`') ? codeSpans(text) : [{ start: 0, end: text.length }];
  const out: ExpressionSyntaxError[] = [];
  for (const p of parts) {
    if (!EXPRESSION_SIGNS.test(text.slice(p.start, p.end))) continue;
    const e = syntaxError(text, p.start, p.end);
    if (e) out.push(e);
  }
  syntaxErrorsByText.set(text, out);
  return out;
}
const syntaxErrorsByText = new Lru<string, readonly ExpressionSyntaxError[]>(2000);

/**
 * Whether a condition holds an expression the dry run cannot evaluate: a code span that is a
 * valid test sits inside prose (`` `fraud_score >= 0.8` or the loss date is recent ``), so the
 * whole condition is prose and fires only by name.
 */
export function conditionNotEvaluated(text: string): boolean {
  if (!text.includes('`') || conditionExpression(text)) return false;
  return codeSpans(text).some((p) => conditionExpression(text.slice(p.start, p.end)) !== undefined);
}

/** The syntax error of a safety guard's `check`, which is an expression as a whole (run/engine/verify.ts parses it as written). */
export function checkSyntaxError(text: string): ExpressionSyntaxError | undefined {
  return syntaxError(text, 0, text.length);
}
