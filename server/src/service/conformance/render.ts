/**
 * Conformance as text and Markdown (docs/conformance.md, "Output"): one line per clause with its
 * place, grade and verdict, the qualifications, then the evidence of each violation. JSON and SARIF
 * are made by the CLI from the same data. Every line is one whole message (docs/localisation.md).
 */
import { format } from '../l10n/format.ts';
import type { ClauseGrade, ClauseKind, ConformanceMessage, ConformanceReport, Grade, Verdict } from './types.ts';

const CLAUSE: Readonly<Record<ClauseKind, string>> = {
  tool: 'conformance.clause.tool',
  arguments: 'conformance.clause.arguments',
  approval: 'conformance.clause.approval',
  boundary: 'conformance.clause.boundary',
  sequence: 'conformance.clause.sequence',
  tools: 'conformance.clause.tools',
  steps: 'conformance.clause.steps',
  tokens: 'conformance.clause.tokens',
  failure: 'conformance.clause.failure',
  'error-codes': 'conformance.clause.error-codes',
  output: 'conformance.clause.output',
  pool: 'conformance.clause.pool',
  pools: 'conformance.clause.pools',
  hitl: 'conformance.clause.hitl',
};
const GRADE: Readonly<Record<Grade, string>> = { exercised: 'conformance.grade.exercised', never: 'conformance.grade.never', violated: 'conformance.grade.violated' };
const VERDICT: Readonly<Record<Verdict, string>> = { attested: 'conformance.verdict.attested', qualified: 'conformance.verdict.qualified' };

/** A clause's name in the user's language. */
export function clauseLabel(c: Pick<ClauseGrade, 'kind' | 'name'>, lang = 'en'): string {
  return format(CLAUSE[c.kind], { name: c.name }, lang);
}

/** A clause's grade in the user's language ("exercised 12×", "2 violations in 40×"). */
export function gradeLabel(c: ClauseGrade, lang = 'en'): string {
  return format(GRADE[c.grade], { count: c.exercised, violations: c.violations }, lang);
}

export function verdictLabel(c: ClauseGrade, lang = 'en'): string {
  return format(VERDICT[c.verdict], {}, lang);
}

const say = (m: ConformanceMessage, lang: string) => format(m.id, m.args, lang);
const reasons = (c: ClauseGrade, lang: string) => c.qualifications.map((q) => say(q, lang)).join('; ');

export function summaryLine(r: ConformanceReport, lang = 'en'): string {
  return format('conformance.summary', { runs: r.runs, spans: r.spans, violations: r.violations, exercised: r.clauses.filter((c) => c.grade !== 'never').length, clauses: r.clauses.length }, lang);
}

/** The report as plain text, clauses at `file:line`. */
export function conformanceText(r: ConformanceReport, file: string, lang = 'en'): string {
  const out: string[] = [];
  for (const c of r.clauses) {
    const args = { place: `${file}:${c.range.start.line + 1}`, clause: clauseLabel(c, lang), grade: gradeLabel(c, lang), verdict: verdictLabel(c, lang), reasons: reasons(c, lang) };
    out.push(format(c.qualifications.length > 0 ? 'conformance.text.clause.qualified' : 'conformance.text.clause', args, lang));
    for (const e of c.evidence) out.push(['    ', format('conformance.text.evidence', { message: say(e.message, lang), span: e.spanId }, lang)].join(''));
  }
  out.push(summaryLine(r, lang));
  return out.join('\n') + '\n';
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The report as Markdown for a pull request or an incident: a table of clauses, then the violations. */
export function conformanceMarkdown(r: ConformanceReport, file: string, lang = 'en'): string {
  const out = [`### ${cell(file)}`, '', summaryLine(r, lang), '', '| Line | Clause | Grade | Verdict |', '|---|---|---|---|'];
  for (const c of r.clauses) {
    const verdict = c.qualifications.length > 0 ? [verdictLabel(c, lang), reasons(c, lang)].join(': ') : verdictLabel(c, lang);
    out.push(['', String(c.range.start.line + 1), cell(clauseLabel(c, lang)), cell(gradeLabel(c, lang)), cell(verdict), ''].join(' | ').trim());
  }
  const violated = r.clauses.filter((c) => c.evidence.length > 0);
  if (violated.length > 0) out.push('');
  for (const c of violated) {
    out.push(['- **', cell(clauseLabel(c, lang)), '** (line ', String(c.range.start.line + 1), ')'].join(''));
    for (const e of c.evidence) out.push(['  - ', cell(say(e.message, lang)), ' (span `', e.spanId, '`)'].join(''));
  }
  return out.join('\n') + '\n';
}
