/**
 * Result ids of the document pull (`textDocument/diagnostic`): when an edit leaves a document's
 * diagnostics as they were (most keystrokes), the answer is `unchanged` with the id the client
 * already holds, so neither side encodes, sends and decodes the whole list again, and the editor
 * keeps its squiggles as they are (docs/performance.md).
 */
import equal from 'fast-deep-equal';
import type { Diagnostic, DocumentDiagnosticReport } from 'vscode-languageserver';

export interface DocumentReports {
  /** The report for `items`, `unchanged` when the client's `previousResultId` names the same items. */
  report(uri: string, items: Diagnostic[], previousResultId: string | undefined): DocumentDiagnosticReport;
  /** The document was closed: its last result is dropped. */
  forget(uri: string): void;
}

export function documentReports(): DocumentReports {
  const last = new Map<string, { resultId: string; items: Diagnostic[] }>();
  let next = 0;
  return {
    report(uri, items, previousResultId) {
      const before = last.get(uri);
      if (before && before.resultId === previousResultId && equal(before.items, items)) return { kind: 'unchanged', resultId: before.resultId };
      const resultId = `d${++next}`;
      last.set(uri, { resultId, items });
      return { kind: 'full', resultId, items };
    },
    forget: (uri) => void last.delete(uri),
  };
}
