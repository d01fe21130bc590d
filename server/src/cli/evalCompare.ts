/**
 * `agents-md eval --compare A B` (docs/dry-run.md §7, "Comparing two runs"): two eval runs read
 * from their `eval.json`, query by query: which queries were fixed, broken, changed (another
 * outcome, path or figure), added or removed, and the figures of both. Runs nothing.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compareEvalRuns, type EvalFigures, evalFigures, type Lang, type QueryChange, type QueryReport, runMessage } from '../service/index.ts';
import { alignColumns } from '../service/host.ts';
import { readRegularFile } from '../node/paths.ts';
import { RUNS_DIR } from '../node/runFolder.ts';
import { InputError } from '../node/inputError.ts';
import { displayPath } from './report.ts';
import { EXIT } from './exitCodes.ts';
import { indented } from './terminal.ts';
import { chosenFormat, type FormatOptions } from './format/registry.ts';

/** An eval run as `eval` wrote it. */
interface EvalRun {
  readonly id: string;
  readonly queries: readonly QueryReport[];
}

/** Reads a run named by its id (under `<root>/.agents-md/runs`), its folder, or its eval.json. */
function readEvalRun(arg: string, root: string, cwd: string): EvalRun {
  const candidates = [resolve(cwd, arg), join(resolve(root, RUNS_DIR), arg)];
  for (const c of candidates) {
    const file = statSync(c, { throwIfNoEntry: false })?.isDirectory() ? join(c, 'eval.json') : c;
    if (!existsSync(file)) continue;
    try {
      const data = JSON.parse(new TextDecoder().decode(readRegularFile(file, 256 * 1024 * 1024))) as { run_id?: unknown; queries?: unknown };
      if (Array.isArray(data.queries)) return { id: typeof data.run_id === 'string' ? data.run_id : displayPath(cwd, file), queries: data.queries as QueryReport[] };
    } catch {
      // not JSON, or unreadable: reported below
    }
  }
  throw new InputError('run.eval.compare-unreadable', { run: arg });
}

/** The order changes are listed in (what needs attention first), with their labels. */
const ORDER: readonly QueryChange[] = ['broken', 'fixed', 'changed', 'removed', 'added'];
const LABEL: Readonly<Record<QueryChange, string>> = { broken: 'eval.compare.broken', fixed: 'eval.compare.fixed', changed: 'eval.compare.changed', removed: 'eval.compare.removed', added: 'eval.compare.added', same: 'eval.compare.same' };

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;

/** Compares two eval runs; exit 1 when a query that met its expectations in A fails or is gone in B. */
export function compareCommand(paths: readonly string[], o: { root?: string } & FormatOptions, lang: Lang, setExitCode: (code: number) => void): void {
  const cwd = process.cwd();
  const root = resolve(cwd, o.root ?? '.');
  const t = (id: string, args: Readonly<Record<string, string | number>> = {}) => runMessage(id, args, lang);
  if (paths.length !== 2) throw new InputError('run.eval.compare-usage', { count: paths.length });
  const [a, b] = [readEvalRun(paths[0]!, root, cwd), readEvalRun(paths[1]!, root, cwd)];
  const comparisons = compareEvalRuns(a.queries, b.queries);
  const figures: [EvalFigures, EvalFigures] = [evalFigures(a.queries), evalFigures(b.queries)];
  const count = (c: QueryChange) => comparisons.filter((x) => x.change === c).length;
  const regressions = comparisons.filter((x) => x.change === 'broken' || (x.change === 'removed' && x.before!.mismatches.length === 0)).length;
  setExitCode(regressions > 0 ? EXIT.FAILED : EXIT.OK);
  if (chosenFormat(o) === 'json') {
    const side = (r?: QueryReport) => (r ? { status: r.status, code: r.code, error_code: r.errorCode ?? null, passed: r.mismatches.length === 0, path: r.path, steps: r.steps, tokens: r.tokens } : null);
    const queries = comparisons.map((c) => ({ key: c.key, change: c.change, differences: c.differences, a: side(c.before), b: side(c.after) }));
    process.stdout.write(`${JSON.stringify({ a: a.id, b: b.id, figures: { a: figures[0], b: figures[1] }, queries }, null, 2)}\n`);
    return;
  }
  const out = (s: string) => process.stdout.write(`${s}\n`);
  out(t('eval.compare-title', { a: a.id, b: b.id, broken: count('broken'), fixed: count('fixed'), changed: count('changed'), removed: count('removed'), added: count('added'), same: count('same') }));
  const result = (r?: QueryReport) => (r ? t('eval.compare-result', { mark: t(r.mismatches.length === 0 ? 'eval.pass' : 'eval.fail'), code: r.errorCode ? `${r.code} / ${r.errorCode}` : r.code, path: r.path.join(' → ') }) : '—');
  const listed = ORDER.flatMap((c) => comparisons.filter((x) => x.change === c));
  if (listed.length > 0) {
    const rows = listed.map((c) => [t(LABEL[c.change]), c.key.replace(/#([^#]*)$/, ' › $1')]);
    alignColumns(rows).split('\n').forEach((row, i) => {
      const c = listed[i]!;
      out(row);
      out(indented(t('eval.compare-sides', { a: result(c.before), b: result(c.after) }), 4));
      if (c.change === 'changed') out(indented(t('eval.compare-differs', { fields: c.differences.join(', ') }), 4));
      for (const m of c.after?.mismatches ?? []) out(indented(t('eval.mismatch', { field: m.field, expected: m.expected, actual: m.actual }), 4));
    });
  }
  out('');
  const f = (x: EvalFigures) => ({ success: percent(x.successRate), rounds: x.averageRounds.toFixed(2), tokens: x.totalTokens, human: percent(x.humanInterventionRate), passed: x.passed, total: x.total });
  const [fa, fb] = [f(figures[0]), f(figures[1])];
  out(t('eval.compare-figures', { passedA: fa.passed, totalA: fa.total, passedB: fb.passed, totalB: fb.total, successA: fa.success, successB: fb.success, roundsA: fa.rounds, roundsB: fb.rounds, tokensA: fa.tokens, tokensB: fb.tokens, humanA: fa.human, humanB: fb.human }));
}
