/**
 * GitLab's Code Quality report (`agents-md lint --format codequality`, docs/ci.md): a JSON array
 * of issues with a description, a check name (the rule code), a severity, a location (the path
 * relative to the workspace root, 1-based lines) and a fingerprint that stays the same while the
 * problem does (the rule, the file and the English message, like SARIF's).
 */
import { createHash } from 'node:crypto';
import { type Severity } from '../../service/index.ts';
import { localiseDiagnostic } from '../../service/host.ts';
import { displayPath, oneBased, sortDiagnostics, type FileReport } from '../report.ts';

/** GitLab's severities: `info`, `minor`, `major`, `critical`, `blocker`. */
const SEVERITY: Record<Severity, string> = { error: 'major', warning: 'minor', info: 'info', hint: 'info' };

interface CodeQualityIssue {
  readonly description: string;
  readonly check_name: string;
  readonly fingerprint: string;
  readonly severity: string;
  readonly location: { readonly path: string; readonly lines: { readonly begin: number; readonly end: number } };
}

export function formatCodeQuality(reports: readonly FileReport[], root: string, lang = 'en'): string {
  const issues: CodeQualityIssue[] = [];
  /** How many times each fingerprint's base (rule, file, English message) came already. */
  const seen = new Map<string, number>();
  for (const r of reports) {
    const path = displayPath(root, r.path);
    for (const d of sortDiagnostics(r.diagnostics)) {
      const at = oneBased(d.range);
      // Two identical problems of one file get distinct fingerprints by their order; counted on the
      // English message, so that the report of every language has the same fingerprints.
      const base = `${d.code}\0${path}\0${d.message}`;
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      const fingerprint = createHash('sha256').update(`${base}\0${n}`).digest('hex');
      issues.push({
        description: localiseDiagnostic(d, lang).message,
        check_name: d.code,
        fingerprint,
        severity: SEVERITY[d.severity],
        location: { path, lines: { begin: at.line, end: at.endLine } },
      });
    }
  }
  return `${JSON.stringify(issues, null, 2)}\n`;
}
