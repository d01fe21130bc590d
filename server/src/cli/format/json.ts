/**
 * The machine format: a JSON array with one entry per linted file,
 * `{ file, diagnostics: [{ code, severity, message, range, line, column, endLine, endColumn, related }] }`.
 * `range` is 0-based (LSP: line, UTF-16 character); `line`/`column`/`endLine`/`endColumn` are
 * 1-based (end exclusive). `file` is relative to the working directory. `message` is in the
 * display language; `messageId` and `args` (the message's id and arguments) are the same in all.
 */
import { type ContractDiagnostic, type RelatedLocation } from '../../service/index.ts';
import { localiseDiagnostic } from '../../service/host.ts';
import { uriToPath } from '../../node/nodeFileSystem.ts';
import { displayPath, oneBased, type FileReport, type OneBasedRange } from '../report.ts';

export interface JsonRelated extends OneBasedRange {
  readonly file: string;
  readonly message: string;
  readonly range: RelatedLocation['range'];
}

export interface JsonDiagnostic extends OneBasedRange {
  readonly code: string;
  readonly severity: ContractDiagnostic['severity'];
  readonly message: string;
  readonly messageId: string;
  readonly args: ContractDiagnostic['args'];
  readonly range: ContractDiagnostic['range'];
  readonly related: JsonRelated[];
}

export interface JsonFileResult {
  readonly file: string;
  readonly diagnostics: JsonDiagnostic[];
}

export function toJson(reports: readonly FileReport[], cwd: string, lang = 'en'): JsonFileResult[] {
  const results = reports.map((r) => {
    const file = displayPath(cwd, r.path);
    return {
      file,
      diagnostics: r.diagnostics.map((d) => localiseDiagnostic(d, lang)).map((d) => ({
        code: d.code,
        severity: d.severity,
        message: d.message,
        messageId: d.messageId,
        args: d.args,
        range: d.range,
        ...oneBased(d.range),
        related: (d.related ?? []).map((rel) => {
          const path = rel.uri ? uriToPath(rel.uri) : r.path;
          return { file: path ? displayPath(cwd, path) : (rel.uri ?? file), message: rel.message, range: rel.range, ...oneBased(rel.range) };
        }),
      })),
    };
  });
  return results.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

export function formatJson(reports: readonly FileReport[], cwd: string, lang = 'en'): string {
  return JSON.stringify(toJson(reports, cwd, lang), null, 2) + '\n';
}
