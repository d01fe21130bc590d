/**
 * The search behind every obligation (docs/prove.md): every combination of the names' candidate
 * values (domain.ts), each checked by the dry run's own evaluator and schema check, so that a
 * witness is exactly what `agents-md run` will see. Bounded: at most MAX_INPUTS combinations.
 * Which parts of a condition the candidates cover is said by `unmodelled`. Pure.
 */
import type { Expr } from '../model/expression.ts';
import { exprPaths } from '../run/engine/expression.ts';
import { ABSENT, type Domain } from './domain.ts';

/** Most combinations one search tries; beyond, the result is qualified. */
export const MAX_INPUTS = 20_000;

export interface SearchResult {
  /** The inputs found, in the order tried (boundary values first), at most `limit`. */
  readonly found: readonly Readonly<Record<string, unknown>>[];
  /** Whether every combination was tried. */
  readonly exhaustive: boolean;
  readonly tried: number;
}

/** Every combination of the domains' values over `base`, kept when `accept` holds; stops at `limit` found or MAX_INPUTS tried. */
export function search(domains: readonly Domain[], base: Readonly<Record<string, unknown>>, accept: (input: Readonly<Record<string, unknown>>) => boolean, limit = 1): SearchResult {
  const found: Record<string, unknown>[] = [];
  let tried = 0;
  const total = domains.reduce((n, d) => n * Math.max(1, d.values.length), 1);
  const index = domains.map(() => 0);
  for (let k = 0; k < Math.min(total, MAX_INPUTS); k++) {
    const input: Record<string, unknown> = { ...base };
    domains.forEach((d, i) => {
      const v = d.values[index[i]!];
      if (v === ABSENT || d.values.length === 0) delete input[d.name];
      else input[d.name] = v;
    });
    tried++;
    if (accept(input)) {
      found.push(input);
      if (found.length >= limit) return { found, exhaustive: false, tried };
    }
    for (let i = domains.length - 1; i >= 0; i--) {
      index[i] = index[i]! + 1;
      if (index[i]! < domains[i]!.values.length) break;
      index[i] = 0;
    }
  }
  return { found, exhaustive: total <= MAX_INPUTS, tried };
}

/** What the candidates cannot cover in a condition, as code (`len()`, `MATCHES`, a file, an operator, a path): the `{what}` of a qualified result. */
export function unmodelled(expr: Expr): string[] {
  const out = new Set<string>();
  const walk = (e: Expr): void => {
    switch (e.kind) {
      case 'call':
        out.add(`${e.fn}()`);
        break;
      case 'matches':
        out.add('MATCHES');
        break;
      case 'file':
        out.add(e.name);
        break;
      case 'arith':
        out.add(e.op);
        break;
      case 'neg':
        out.add('-');
        break;
      case 'path':
        if (e.steps.length > 0 && !(e.root === 'output' && e.steps.length === 1 && 'field' in e.steps[0]!)) out.add(e.text);
        break;
      case 'compare':
        if (e.left.kind === 'path' && e.right.kind === 'path') out.add(`${e.left.text} ${e.op} ${e.right.text}`);
        break;
    }
    for (const c of children(e)) walk(c);
  };
  walk(expr);
  return [...out];
}

function children(e: Expr): readonly Expr[] {
  switch (e.kind) {
    case 'list':
      return e.items;
    case 'call':
      return e.args;
    case 'arith':
    case 'and':
    case 'or':
    case 'compare':
    case 'in':
      return [e.left, e.right];
    case 'neg':
    case 'not':
    case 'null':
      return [e.arg];
    case 'matches':
      return [e.left];
    default:
      return [];
  }
}

/** The bare names a condition reads (`amount`, not `input.query`), and `output.x` fields as `output.x`. */
export function namesRead(expr: Expr): string[] {
  return [...new Set(exprPaths(expr).flatMap((p) => (p.steps.length === 0 ? [p.root] : p.root === 'output' && p.steps.length === 1 && 'field' in p.steps[0]! ? [p.text] : [])))];
}
