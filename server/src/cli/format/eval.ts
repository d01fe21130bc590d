/**
 * `agents-md eval`'s output formats (docs/cli.md, "Output formats"; docs/dry-run.md "Eval"): the
 * report in the display language with its columns aligned by display width, JSON (the same in
 * every language) and JUnit XML for CI dashboards.
 */
import { runMessage, type EvalFigures, type PassRate, type PathDrift, type QueryReport } from '../../service/index.ts';
import { alignColumns } from '../../service/host.ts';
import { displayPath } from '../report.ts';
import { indented } from '../terminal.ts';
import type { Formatters } from './registry.ts';
import { painter } from './text.ts';
import { junitXml } from './junit.ts';

/** One eval run: its queries' reports (every attempt), figures, pass rates when repeated, drift against the previous run. */
export interface EvalOutput {
  readonly runId: string;
  readonly figures: EvalFigures;
  readonly repeat: number;
  readonly rates?: readonly PassRate[];
  readonly previousId?: string;
  readonly drift?: PathDrift;
  readonly reports: readonly QueryReport[];
  /** Where run folders are (`<root>/.agents-md/runs`) and this run's folder. */
  readonly runsDir: string;
  readonly folderDir: string;
}

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;

/** Repeated queries are shown by their first run. */
const first = (rs: readonly QueryReport[]) => rs.filter((r) => (r.attempt ?? 1) === 1);

export const EVAL_FORMATS: Formatters<EvalOutput> = {
  text: evalText,
  json: (e) => `${JSON.stringify({ run_id: e.runId, figures: e.figures, ...(e.rates ? { repeat: e.repeat, pass_rates: e.rates } : {}), drift: e.drift ? { previous: e.previousId, ...e.drift } : null, queries: e.reports }, null, 2)}\n`,
  junit: (e, c) => junitXml(e.runId, e.reports, (m) => runMessage('eval.mismatch', { field: m.field, expected: m.expected, actual: m.actual }, c.lang)),
};

function evalText(e: EvalOutput, c: { readonly cwd: string; readonly lang: string; readonly color: boolean }): string {
  const t = (id: string, args: Readonly<Record<string, string | number>> = {}) => runMessage(id, args, c.lang);
  const paint = painter(c.color);
  const { figures, rates, repeat, drift, previousId, reports } = e;
  const lines: string[] = [];
  const out = (s: string) => lines.push(s);
  // One row per query (mark, snapshot › query, status, code), aligned by display width; its mismatches under it.
  // Repeated: one row per query (its first run's outcome) with its pass rate; the mismatches of every run, each once.
  const shown = first(reports);
  const rows = shown.map((r, i) => {
    const rate = rates?.[i];
    const mark = (rate ? rate.passed === rate.runs : r.mismatches.length === 0) ? paint('green', t('eval.pass')) : paint('red', t('eval.fail'));
    const row = [mark, `${r.snapshot} › ${r.query}`, runMessage(`status.${r.status}`, {}, c.lang), r.errorCode ? `${r.code} / ${r.errorCode}` : r.code];
    return rate ? [...row, t('eval.pass-rate', { passed: rate.passed, runs: rate.runs })] : row;
  });
  if (rows.length > 0) alignColumns(rows).split('\n').forEach((row, i) => {
    out(row);
    const mismatches = reports.filter((r) => r.key === shown[i]!.key).flatMap((r) => r.mismatches.map((m) => t('eval.mismatch', { field: m.field, expected: m.expected, actual: m.actual })));
    for (const m of new Set(mismatches)) out(indented(m, 4));
  });
  out('');
  // Repeated: runs and queries counted apart (27 runs are not 27 queries).
  if (rates) out(t('eval.summary-runs', { queries: rates.length, repeat, passed: figures.passed, total: figures.total, failed: figures.total - figures.passed }));
  else out(t('eval.summary', { passed: figures.passed, total: figures.total, failed: figures.total - figures.passed }));
  if (rates) out(t('eval.pass-rates', { runs: repeat, passing: rates.filter((r) => r.passed === r.runs).length, queries: rates.length }));
  out(t('eval.figures', { successRate: percent(figures.successRate), rounds: figures.averageRounds.toFixed(2), tokens: figures.totalTokens, avgTokens: Math.round(figures.averageTokens), humanRate: percent(figures.humanInterventionRate) }));
  if (drift && previousId) {
    out(t('eval.drift', { previous: previousId, changed: drift.changed.length, compared: drift.compared, distance: drift.meanDistance.toFixed(3) }));
    for (const ch of drift.changed) {
      const [snapshot, query] = [ch.key.slice(0, ch.key.lastIndexOf('#')), ch.key.slice(ch.key.lastIndexOf('#') + 1)];
      out(indented(t('eval.drift-query', { snapshot, query, before: ch.before.join(' → '), after: ch.after.join(' → ') }), 2));
    }
  } else out(t('eval.drift-none', { runs: displayPath(c.cwd, e.runsDir) }));
  out(t('eval.runs', { dir: displayPath(c.cwd, e.folderDir) }));
  return lines.map((l) => `${l}\n`).join('');
}
