/** What the formatters receive: the diagnostics of each linted file, and small shared helpers. */
import type { ContractDiagnostic, ParsedContract, Range, Severity } from '../service/index.ts';

/** The result of linting one file. */
export interface FileReport {
  /** Absolute path. */
  readonly path: string;
  /** Its `file:` URI, as the service knows it. */
  readonly uri: string;
  /** The decoded text (for SARIF fingerprints); empty when the file was not analysed. */
  readonly text: string;
  readonly diagnostics: readonly ContractDiagnostic[];
  /** The parsed contract, when the file was analysed (the workspace report reads it). */
  readonly model?: ParsedContract;
}

/** 1-based line and column of a range's ends (LSP positions are 0-based; SARIF and editors count from 1). */
export interface OneBasedRange {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export function oneBased(range: Range): OneBasedRange {
  return { line: range.start.line + 1, column: range.start.character + 1, endLine: range.end.line + 1, endColumn: range.end.character + 1 };
}

export { displayPath } from '../node/paths.ts';

export type SeverityCounts = Record<Severity, number>;

export function countSeverities(reports: readonly FileReport[]): SeverityCounts {
  const counts: SeverityCounts = { error: 0, warning: 0, info: 0, hint: 0 };
  for (const r of reports) for (const d of r.diagnostics) counts[d.severity]++;
  return counts;
}

/** Diagnostics in reading order: by position, then code. */
export function sortDiagnostics(ds: readonly ContractDiagnostic[]): ContractDiagnostic[] {
  return [...ds].sort(
    (a, b) =>
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}
