/**
 * The machine format of `agents-md diff --format json`: the engine's `SemanticDiff` with the
 * compared versions, and each side of each change with 1-based `line`/`column`/`endLine`/
 * `endColumn` next to its 0-based `range` (as `agents-md lint --format json` does). As in lint's
 * JSON, each `message` is in the display language, and the ids and `args` that rebuild it
 * (`reasonId`, `messageId`) are the same in every language.
 */
import { type DiffSide } from '../../service/index.ts';
import { localiseDiff } from '../../service/host.ts';
import { oneBased } from '../report.ts';
import type { DiffReport } from '../diff/report.ts';

const side = (s: DiffSide) => ({ ...s, ...oneBased(s.range) });

export function formatDiffJson(report: DiffReport, lang = 'en'): string {
  const diff = localiseDiff(report.diff, lang);
  const json = {
    before: report.before,
    after: report.after,
    counts: diff.counts,
    advice: diff.advice,
    changes: diff.changes.map((c) => ({ ...c, before: side(c.before), after: side(c.after) })),
    ...(diff.notAnalysed ? { notAnalysed: diff.notAnalysed } : {}),
  };
  return JSON.stringify(json, null, 2) + '\n';
}
