/**
 * `agents-md eval` as plain data (docs/dry-run.md "Eval"): each query's result against its
 * expectations, the four figures asked of every version (success rate, average rounds,
 * token use, human-intervention rate) and the path drift against a previous run ("决策路径漂移率":
 * how far the same questions' decision paths moved). Pure.
 */
import type { Expectation } from '../snapshot/snapshot.ts';
import type { RunResult } from '../engine/engine.ts';
import { failedAssertions, type Failed } from './assertions.ts';

/** A field of an expectation that the run did not meet. */
export interface Mismatch {
  readonly field: 'outcome' | 'code' | 'error_code' | 'tools' | Failed['field'];
  readonly expected: string;
  readonly actual: string;
}

/** The expectations a run did not meet (empty: it met them all, or it had none). */
export function checkExpectation(expect: Expectation | undefined, result: Pick<RunResult, 'outcome' | 'stats' | 'answer' | 'events'>): Mismatch[] {
  if (!expect) return [];
  const out: Mismatch[] = [];
  const o = result.outcome;
  if (expect.outcome !== undefined && expect.outcome !== o.status) out.push({ field: 'outcome', expected: expect.outcome, actual: o.status });
  if (expect.code !== undefined && expect.code !== o.code) out.push({ field: 'code', expected: expect.code, actual: o.code });
  const errorCode = o.protocol?.errorCode;
  if (expect.errorCode !== undefined && expect.errorCode !== errorCode) out.push({ field: 'error_code', expected: expect.errorCode, actual: errorCode ?? '—' });
  if (expect.tools !== undefined && expect.tools.join(',') !== result.stats.tools.join(',')) out.push({ field: 'tools', expected: `[${expect.tools.join(', ')}]`, actual: `[${result.stats.tools.join(', ')}]` });
  out.push(...failedAssertions(expect, { answer: result.answer, tools: result.stats.tools, events: result.events }));
  return out;
}

/** One query's line of the eval report. */
export interface QueryReport {
  /** Stable key of the query across runs: the snapshot's path (relative to the root) and the query id. */
  readonly key: string;
  readonly snapshot: string;
  readonly query: string;
  readonly status: string;
  readonly code: string;
  readonly errorCode?: string;
  readonly steps: number;
  readonly tokens: number;
  readonly humanDecisions: number;
  readonly path: readonly string[];
  readonly mismatches: readonly Mismatch[];
  /** The trace file, relative to the root. */
  readonly trace?: string;
  /** Which run of the query this is, from 1, when `eval --repeat` ran it more than once. */
  readonly attempt?: number;
}

/** The figures of an eval run. Rates are fractions in [0, 1]; NaN-free (0 when there is no query). */
export interface EvalFigures {
  readonly total: number;
  readonly passed: number;
  /** Share of queries whose run succeeded (任务成功率). */
  readonly successRate: number;
  /** Mean model steps per query (平均轮次). */
  readonly averageRounds: number;
  readonly totalTokens: number;
  readonly averageTokens: number;
  /** Share of queries in which a human decided at least once (人工干预率). */
  readonly humanInterventionRate: number;
}

/** Computes the figures of a set of query reports. */
export function evalFigures(reports: readonly QueryReport[]): EvalFigures {
  const n = reports.length;
  const sum = (f: (r: QueryReport) => number) => reports.reduce((s, r) => s + f(r), 0);
  const totalTokens = sum((r) => r.tokens);
  return {
    total: n,
    passed: reports.filter((r) => r.mismatches.length === 0).length,
    successRate: n ? reports.filter((r) => r.status === 'success').length / n : 0,
    averageRounds: n ? sum((r) => r.steps) / n : 0,
    totalTokens,
    averageTokens: n ? totalTokens / n : 0,
    humanInterventionRate: n ? reports.filter((r) => r.humanDecisions > 0).length / n : 0,
  };
}

/** Levenshtein distance between two paths, divided by the longer length (0: same path, 1: nothing in common). */
export function pathDistance(a: readonly string[], b: readonly string[]): number {
  const m = a.length;
  const n = b.length;
  if (m === 0 && n === 0) return 0;
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[n]! / Math.max(m, n);
}

/** Path drift between this run and a previous one, over the queries both have. */
export interface PathDrift {
  readonly compared: number;
  readonly changed: readonly { readonly key: string; readonly before: readonly string[]; readonly after: readonly string[]; readonly distance: number }[];
  /** Mean normalised distance over the compared queries. */
  readonly meanDistance: number;
}

/** Compares the paths of the queries present in both runs (matched by `key`). */
export function pathDrift(current: readonly Pick<QueryReport, 'key' | 'path'>[], previous: readonly Pick<QueryReport, 'key' | 'path'>[]): PathDrift {
  const before = new Map(previous.map((r) => [r.key, r.path]));
  const changed: PathDrift['changed'][number][] = [];
  let compared = 0;
  let total = 0;
  for (const r of current) {
    const b = before.get(r.key);
    if (!b) continue;
    compared++;
    const d = pathDistance(b, r.path);
    total += d;
    if (d > 0) changed.push({ key: r.key, before: b, after: r.path, distance: d });
  }
  return { compared, changed, meanDistance: compared ? total / compared : 0 };
}
