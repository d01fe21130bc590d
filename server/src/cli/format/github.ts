/**
 * GitHub Actions annotations (`agents-md lint --format github`, docs/ci.md): one workflow command
 * per problem (`::error file=…,line=…,col=…,title=…::message`), which GitHub shows in the log and
 * on the pull request's changed lines. Paths are relative to the workspace root.
 */
import { type Severity } from '../../service/index.ts';
import { localiseDiagnostic } from '../../service/host.ts';
import { displayPath, oneBased, sortDiagnostics, type FileReport } from '../report.ts';
import { workflowCommand } from './workflowCommand.ts';

const COMMAND: Record<Severity, 'error' | 'warning' | 'notice'> = { error: 'error', warning: 'warning', info: 'notice', hint: 'notice' };

export function formatGithub(reports: readonly FileReport[], root: string, lang = 'en'): string {
  const lines: string[] = [];
  for (const r of reports) {
    const file = displayPath(root, r.path);
    for (const d of sortDiagnostics(r.diagnostics)) {
      const at = oneBased(d.range);
      lines.push(workflowCommand(COMMAND[d.severity], { file, line: at.line, col: at.column, endLine: at.endLine, endColumn: at.endColumn, title: `agents-md ${d.code}` }, localiseDiagnostic(d, lang).message));
    }
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
