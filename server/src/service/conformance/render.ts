/**
 * Conformance as text and Markdown (docs/conformance.md, "Output"): one line per clause with its
 * place, grade and verdict, the qualifications, then the evidence of each violation. JSON and SARIF
 * are made by the CLI from the same data.
 */
import { format } from '../l10n/format.ts';
import type { ClauseGrade, ConformanceMessage, ConformanceReport } from './types.ts';

/** A clause's name in the user's language. */
export function clauseLabel(c: ClauseGrade, lang = 'en'): string {
  return format(`conformance.clause.${c.kind}`, { name: c.name }, lang);
}

/** A clause's grade in the user's language ("exercised 12×", "2 violations in 40×"). */
export function gradeLabel(c: ClauseGrade, lang = 'en'): string {
  return format(`conformance.grade.${c.grade}`, { count: c.exercised, violations: c.violations }, lang);
}

const say = (m: ConformanceMessage, lang: string) => format(m.id, m.args, lang);

export function summaryLine(r: ConformanceReport, lang = 'en'): string {
  return format('conformance.summary', { runs: r.runs, spans: r.spans, violations: r.violations, exercised: r.clauses.filter((c) => c.grade !== 'never').length, clauses: r.clauses.length }, lang);
}

/** The report as plain text, clauses at `file:line`. */
export function conformanceText(r: ConformanceReport, file: string, lang = 'en'): string {
  const out: string[] = [];
  for (const c of r.clauses) {
    const verdict = format(`conformance.verdict.${c.verdict}`, {}, lang);
    const why = c.qualifications.map((q) => say(q, lang)).join('; ');
    out.push(`${file}:${c.range.start.line + 1}  ${clauseLabel(c, lang)}: ${gradeLabel(c, lang)} (${verdict}${why ? `: ${why}` : ''})`);
    for (const e of c.evidence) out.push(`    ${say(e.message, lang)} [span ${e.spanId}]`);
  }
  out.push(summaryLine(r, lang));
  return `${out.join('\n')}\n`;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The report as Markdown for a pull request or an incident: a table of clauses, then the violations. */
export function conformanceMarkdown(r: ConformanceReport, file: string, lang = 'en'): string {
  const out = [`### ${cell(file)}`, '', summaryLine(r, lang), '', '| Line | Clause | Grade | Verdict |', '|---|---|---|---|'];
  for (const c of r.clauses) {
    const why = c.qualifications.map((q) => say(q, lang)).join('; ');
    out.push(`| ${c.range.start.line + 1} | ${cell(clauseLabel(c, lang))} | ${cell(gradeLabel(c, lang))} | ${format(`conformance.verdict.${c.verdict}`, {}, lang)}${why ? `: ${cell(why)}` : ''} |`);
  }
  const violated = r.clauses.filter((c) => c.evidence.length > 0);
  if (violated.length > 0) out.push('');
  for (const c of violated) {
    out.push(`- **${cell(clauseLabel(c, lang))}** (line ${c.range.start.line + 1})`);
    for (const e of c.evidence) out.push(`  - ${cell(say(e.message, lang))} (span \`${e.spanId}\`)`);
  }
  return `${out.join('\n')}\n`;
}
