/**
 * The eval part of the Action's comment (docs/ci.md, "Eval figures"): the figures of a contract's
 * snapshots at the base commit and in the pull request side by side, the queries that took another
 * path from one to the other, and the queries that miss their expectations in the pull request.
 */
import { runMessage, type EvalFigures, type Lang } from '../service/index.ts';
import { diffMessage, type DiffMessageId } from '../service/host.ts';
import type { ContractEval } from './evalVersions.ts';
import { mdArgs, mdMessage } from '../cli/format/markdownText.ts';

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;
/** A version without snapshots for the contract. */
const NONE = '—';

/** The rows of the figures table: message id and the cell of one version's figures. */
const ROWS: readonly [DiffMessageId, (f: EvalFigures, lang: Lang) => string][] = [
  ['review.eval.passed', (f, lang) => diffMessage('review.eval.passedCell', { passed: f.passed, total: f.total }, lang)],
  ['review.eval.successRate', (f) => percent(f.successRate)],
  ['review.eval.rounds', (f) => f.averageRounds.toFixed(2)],
  ['review.eval.tokens', (f) => `${f.totalTokens} (${Math.round(f.averageTokens)})`],
  ['review.eval.humanRate', (f) => percent(f.humanInterventionRate)],
];

/** Markdown layout around whole messages: a table row of cells, a list item. */
const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const item = (text: string) => ['-', text].join(' ');

/** A query key (`snapshot#query`) split at its last `#`. */
function splitKey(key: string): { snapshot: string; query: string } {
  const at = key.lastIndexOf('#');
  return { snapshot: key.slice(0, at), query: key.slice(at + 1) };
}

/** The Markdown lines of one contract's eval. */
export function evalLines(e: ContractEval, lang: Lang): string[] {
  // Snapshot names, query ids and expected values come from the repository: escaped (markdownText.ts).
  const t = (id: DiffMessageId, args: Readonly<Record<string, string | number>> = {}, raw: readonly string[] = []) => mdMessage(diffMessage(id, mdArgs(args, { names: ['snapshot', 'query'], raw }), lang));
  const columns = (['review.eval.column.figure', 'review.eval.column.base', 'review.eval.column.head'] as const).map((id) => t(id));
  const out = [t('review.eval.title'), '', row(columns), '|---|---:|---:|'];
  for (const [id, cell] of ROWS) out.push(row([t(id), e.base ? cell(e.base.figures, lang) : NONE, e.head ? cell(e.head.figures, lang) : NONE]));
  out.push('');
  if (e.drift && e.drift.compared > 0) {
    out.push(t('review.eval.drift', { changed: e.drift.changed.length, compared: e.drift.compared, distance: e.drift.meanDistance.toFixed(3) }));
    for (const c of e.drift.changed) out.push(item(t('review.eval.driftQuery', { ...splitKey(c.key), before: c.before.join(' → '), after: c.after.join(' → ') })));
  } else out.push(t('review.eval.driftNone'));
  const missed = e.head?.reports.filter((r) => r.mismatches.length > 0) ?? [];
  if (missed.length > 0) {
    out.push('', t('review.eval.missed', { count: missed.length }));
    for (const r of missed) {
      const why = r.mismatches.map((m) => mdMessage(runMessage('eval.mismatch', mdArgs({ field: m.field, expected: m.expected, actual: m.actual }), lang))).join('; ');
      out.push(item(t('review.eval.missedQuery', { ...splitKey(r.key), why }, ['why'])));
    }
  }
  return out;
}
