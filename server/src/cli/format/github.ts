/**
 * GitHub Actions annotations (`agents-md lint --format github`, docs/ci.md): one workflow command
 * per problem (`::error file=…,line=…,col=…,title=…::message`), which GitHub shows in the log and
 * on the pull request's changed lines. Paths are relative to the workspace root.
 */
import { localiseDiagnostic, type Severity } from '../../service/index.ts';
import { displayPath, oneBased, sortDiagnostics, type FileReport } from '../report.ts';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice', hint: 'notice' };

/** A workflow command's message: `%`, CR and LF escaped (GitHub's toolkit, `escapeData`). */
const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A property value: also `:` and `,` (`escapeProperty`). */
const property = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

export function formatGithub(reports: readonly FileReport[], root: string, lang = 'en'): string {
  const lines: string[] = [];
  for (const r of reports) {
    const file = property(displayPath(root, r.path));
    for (const d of sortDiagnostics(r.diagnostics)) {
      const at = oneBased(d.range);
      lines.push(`::${COMMAND[d.severity]} file=${file},line=${at.line},col=${at.column},endLine=${at.endLine},endColumn=${at.endColumn},title=${property(`agents-md ${d.code}`)}::${data(localiseDiagnostic(d, lang).message)}`);
    }
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
