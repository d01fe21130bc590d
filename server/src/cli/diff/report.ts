/** What the diff formatters receive: the two versions compared and their semantic diff. */
import type { Change, DiffSide, SemanticDiff } from '../../service/index.ts';
import { oneBased, type OneBasedRange } from '../report.ts';

import { versionLabel, type DiffVersion } from '../../node/diffInputs.ts';

export { versionLabel, type DiffVersion };

export interface DiffReport {
  readonly before: DiffVersion;
  readonly after: DiffVersion;
  readonly diff: SemanticDiff;
}


/** The side a change is shown at (the removed value's old place; otherwise the new one), 1-based. */
export function whereShown(report: DiffReport, change: Change): { readonly label: string; readonly side: DiffSide } & OneBasedRange {
  const old = change.kind === 'removed';
  const side = old ? change.before : change.after;
  return { label: versionLabel(old ? report.before : report.after), side, ...oneBased(side.range) };
}
