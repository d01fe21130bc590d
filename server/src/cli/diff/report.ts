/** What the diff formatters receive: the two versions compared and their semantic diff. */
import type { Change, DiffSide, SemanticDiff } from '../../service/index.ts';
import { oneBased, type OneBasedRange } from '../report.ts';

/** One compared version: the file (relative to the working directory) and, when read from git, the ref or `index`. */
export interface DiffVersion {
  readonly file: string;
  readonly ref?: string;
}

export interface DiffReport {
  readonly before: DiffVersion;
  readonly after: DiffVersion;
  readonly diff: SemanticDiff;
}

/** How a version is named in locations: `AGENTS.md`, `HEAD:AGENTS.md`, `index:AGENTS.md`. */
export function versionLabel(v: DiffVersion): string {
  return v.ref === undefined ? v.file : `${v.ref}:${v.file}`;
}

/** The side a change is shown at (the removed value's old place; otherwise the new one), 1-based. */
export function whereShown(report: DiffReport, change: Change): { readonly label: string; readonly side: DiffSide } & OneBasedRange {
  const old = change.kind === 'removed';
  const side = old ? change.before : change.after;
  return { label: versionLabel(old ? report.before : report.after), side, ...oneBased(side.range) };
}
