/** The CLI's lines for a snapshot's diagnostics. */
import type { ContractDiagnostic } from '../service/index.ts';
import { displayPath, oneBased } from './report.ts';

/** `file:line:col severity code message` lines of a snapshot's diagnostics (1-based, as editors expect). */
export function formatDiagnostics(path: string, cwd: string, diagnostics: readonly ContractDiagnostic[]): string[] {
  return diagnostics.map((d) => {
    const at = oneBased(d.range);
    return `${displayPath(cwd, path)}:${at.line}:${at.column} ${d.severity} ${d.code} ${d.message}`;
  });
}
