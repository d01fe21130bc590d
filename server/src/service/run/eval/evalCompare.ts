/**
 * Two eval runs side by side, query by query (`agents-md eval --compare A B`, docs/dry-run.md
 * §7 "Comparing two runs"), and the pass rate of each query over repeated runs (`--repeat N`). A
 * query is the same in both runs when its snapshot path and id are (its `key`). Pure.
 */
import type { QueryReport } from './evaluate.ts';

/** How a query's result moved from run A to run B. */
export type QueryChange = 'fixed' | 'broken' | 'changed' | 'same' | 'added' | 'removed';

/** One query in both runs (one side absent when the query is only in one). */
export interface QueryComparison {
  readonly key: string;
  readonly change: QueryChange;
  readonly before?: QueryReport;
  readonly after?: QueryReport;
  /** What differs besides passing: `outcome`, `code`, `error_code`, `path`, `steps`, `tokens`, `human`. */
  readonly differences: readonly string[];
}

/** The first report of each query (the first attempt of a repeated query). */
function byKey(reports: readonly QueryReport[]): Map<string, QueryReport> {
  const out = new Map<string, QueryReport>();
  for (const r of reports) if (!out.has(r.key)) out.set(r.key, r);
  return out;
}

const passes = (r: QueryReport) => r.mismatches.length === 0;

/** What differs between two results of one query, besides passing. */
function differences(a: QueryReport, b: QueryReport): string[] {
  const out: string[] = [];
  if (a.status !== b.status) out.push('outcome');
  if (a.code !== b.code) out.push('code');
  if ((a.errorCode ?? '') !== (b.errorCode ?? '')) out.push('error_code');
  if (a.path.join('\u0000') !== b.path.join('\u0000')) out.push('path');
  if (a.steps !== b.steps) out.push('steps');
  if (a.tokens !== b.tokens) out.push('tokens');
  if (a.humanDecisions !== b.humanDecisions) out.push('human');
  return out;
}

/**
 * Every query of either run with how it moved: `fixed` (failed its expectations in A, meets them
 * in B), `broken` (the reverse), `changed` (passing alike, but another outcome, path or figure),
 * `same`, `added` (only in B), `removed` (only in A). In A's order, then B's new queries.
 */
export function compareEvalRuns(a: readonly QueryReport[], b: readonly QueryReport[]): QueryComparison[] {
  const before = byKey(a);
  const after = byKey(b);
  const out: QueryComparison[] = [];
  for (const [key, x] of before) {
    const y = after.get(key);
    if (!y) {
      out.push({ key, change: 'removed', before: x, differences: [] });
      continue;
    }
    const d = differences(x, y);
    const change: QueryChange = passes(x) && !passes(y) ? 'broken' : !passes(x) && passes(y) ? 'fixed' : d.length > 0 ? 'changed' : 'same';
    out.push({ key, change, before: x, after: y, differences: d });
  }
  for (const [key, y] of after) if (!before.has(key)) out.push({ key, change: 'added', after: y, differences: [] });
  return out;
}

/** A query's pass rate over its attempts (`--repeat N`). */
export interface PassRate {
  readonly key: string;
  readonly runs: number;
  readonly passed: number;
  /** passed / runs, in [0, 1]. */
  readonly rate: number;
}

/** The pass rate of each query over its attempts, in the order queries first appear. */
export function passRates(reports: readonly QueryReport[]): PassRate[] {
  const counts = new Map<string, { runs: number; passed: number }>();
  for (const r of reports) {
    const c = counts.get(r.key) ?? { runs: 0, passed: 0 };
    counts.set(r.key, { runs: c.runs + 1, passed: c.passed + (passes(r) ? 1 : 0) });
  }
  return [...counts].map(([key, c]) => ({ key, ...c, rate: c.runs ? c.passed / c.runs : 0 }));
}
