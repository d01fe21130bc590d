/** The CLI's lines for a snapshot's diagnostics. */
import { type ContractDiagnostic } from '../service/index.ts';
import { format, localiseDiagnostic } from '../service/host.ts';
import { displayPath, oneBased } from './report.ts';

/**
 * `file:line:col severity code message` lines of a snapshot's diagnostics (1-based, as editors
 * expect), severity and message in `lang` as `lint` prints them; the code stays as it is.
 */
export function formatDiagnostics(path: string, cwd: string, diagnostics: readonly ContractDiagnostic[], lang = 'en'): string[] {
  return diagnostics.map((d) => {
    const at = oneBased(d.range);
    const severity = format(`severity.${d.severity}`, {}, lang);
    return `${displayPath(cwd, path)}:${at.line}:${at.column} ${severity} ${d.code} ${localiseDiagnostic(d, lang).message}`;
  });
}
