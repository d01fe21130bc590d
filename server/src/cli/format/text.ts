/**
 * The human format: one line per diagnostic, `path:line:col severity code message` (1-based line
 * and column, path relative to the working directory), files in path order, then a summary line.
 * Severity names, messages and the summary are in the display language.
 */
import { type Severity } from '../../service/index.ts';
import { format, localiseDiagnostic } from '../../service/host.ts';
import { countSeverities, displayPath, oneBased, type FileReport } from '../report.ts';
import '../messages.ts';

export interface TextOptions {
  /** Paths are shown relative to this folder. */
  readonly cwd: string;
  /** Use ANSI colours (only when writing to a terminal, and NO_COLOR is not set). */
  readonly color: boolean;
  /** Display language (`en` by default). */
  readonly lang?: string;
}

const ANSI = { red: 31, yellow: 33, cyan: 36, gray: 90, green: 32, bold: 1, dim: 2 } as const;
export type Style = keyof typeof ANSI;
export type Paint = (style: Style, s: string) => string;

/** Wraps text in an ANSI style when `color` is on. */
export function painter(color: boolean): Paint {
  return (style, s) => (color ? `\x1b[${ANSI[style]}m${s}\x1b[0m` : s);
}

const SEVERITY_STYLE: Record<Severity, Style> = { error: 'red', warning: 'yellow', info: 'cyan', hint: 'gray' };

/** Message text on one line. */
export function oneLine(s: string): string {
  return s.replace(/\s*[\r\n]+\s*/g, ' ');
}

export function formatText(reports: readonly FileReport[], options: TextOptions): string {
  const paint = painter(options.color);
  const lang = options.lang ?? 'en';
  const lines: string[] = [];
  const named = reports.map((r) => ({ r, name: displayPath(options.cwd, r.path) })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { r, name } of named) {
    for (const d of r.diagnostics) {
      const at = oneBased(d.range);
      const severity = format(`severity.${d.severity}`, {}, lang);
      lines.push(`${name}:${at.line}:${at.column} ${paint(SEVERITY_STYLE[d.severity], severity)} ${paint('dim', d.code)} ${oneLine(localiseDiagnostic(d, lang).message)}`);
    }
  }
  lines.push(summary(reports, paint, lang));
  return lines.join('\n') + '\n';
}

function summary(reports: readonly FileReport[], paint: Paint, lang: string): string {
  const c = countSeverities(reports);
  const problems = c.error + c.warning + c.info + c.hint;
  const files = reports.length;
  if (problems === 0) return paint('green', format('cli.summary.clean', { files }, lang));
  const line = format('cli.summary.problems', { problems, errors: c.error, warnings: c.warning, infos: c.info, hints: c.hint, files }, lang);
  return paint(c.error > 0 ? 'red' : 'yellow', paint('bold', line));
}
