/**
 * The workspace report as text, Markdown and JSON (docs/workspace.md). Every label comes from
 * report/messages.ts in the reader's language; findings are localised from their message ids.
 */
import { format } from '../l10n/format.ts';
import { alignColumns } from '../text/width.ts';
import type { ContractRow, CoverageItem, WorkspaceReport } from './build.ts';
import './messages.ts';

/** Labels of a report in one language. */
export function reportLabels(lang: string) {
  const t = (id: string, args: Readonly<Record<string, string | number>> = {}) => format(id, args, lang);
  return {
    t,
    cell: (c: string) => t(`report.cell.${c}`),
    clause: (c: string) => t(`report.clause.${c}`),
    item: (i: CoverageItem) => t(`report.item.${i.kind}`, { name: i.name }),
    audit: (r: ContractRow) => (r.lastAudit ? t('report.audit', r.lastAudit) : '—'),
    finding: (r: ContractRow, f: ContractRow['findings'][number]) => t('report.finding', { file: r.path, line: f.line, code: f.code, message: format(f.messageId, f.args, lang) }),
    // Two sentences: the totals, then (when the search was cut) that the report is incomplete.
    summary: (report: WorkspaceReport) =>
      [
        t('report.summary', {
          contracts: report.totals.contracts,
          findings: Object.values(report.totals.findings).reduce((a, b) => a + b, 0),
          exercised: report.totals.exercised,
          exercisable: report.totals.exercisable,
        }),
        ...(report.walkCut && report.walkCut.length > 0 ? [t('report.walkCut', { paths: report.walkCut.join(', ') })] : []),
      ].join(' '),
    shared: (kind: 'pool' | 'resource', name: string) => t(`report.kind.${kind}`, { name }),
    prove: (r: ContractRow) =>
      r.prove && r.prove.findings > 0
        ? t('report.prove', { count: r.prove.findings, obligations: Object.entries(r.prove.obligations).map(([o, n]) => (n > 1 ? `${o} ×${n}` : o)).join(', ') })
        : t('report.prove.none'),
  };
}

export type ReportLabels = ReturnType<typeof reportLabels>;

/** The report's tables as rows of cells (header first), shared by text, Markdown and HTML. */
export function reportTables(report: WorkspaceReport, l: ReportLabels) {
  const { t } = l;
  const list = (xs: readonly string[]) => (xs.length > 0 ? xs.join(', ') : t('report.none'));
  return {
    matrix: [
      [t('report.column.contract'), ...report.clauses.map(l.clause)],
      ...report.contracts.map((r) => [r.path, ...report.clauses.map((c) => l.cell(r.clauses[c]))]),
      [t('report.column.covered'), ...report.clauses.map((c) => t('report.count', { count: report.totals.covered[c], total: report.totals.contracts }))],
    ],
    shared: [
      [t('report.column.shared'), t('report.column.usedBy')],
      ...report.shared.map((n) => [n.conflict ? t('report.conflict', { node: l.shared(n.kind, n.name) }) : l.shared(n.kind, n.name), n.contracts.join(', ')]),
    ],
    versions: [
      [t('report.column.contract'), t('report.column.agent'), t('report.column.version'), t('report.column.lastAudit'), t('report.column.clauseIds')],
      ...report.contracts.map((r) => [r.path, r.agent ?? '—', r.version ?? '—', l.audit(r), list(r.clauseIds)]),
    ],
    dryRun: [
      [t('report.column.contract'), t('report.column.queries'), t('report.column.exercised'), t('report.column.notExercised'), ...(report.production ? [t('report.column.production')] : []), ...(report.prove ? [t('report.column.prove')] : [])],
      ...report.contracts.map((r) => [
        r.path,
        String(r.queries),
        t('report.count', { count: r.coverage.filter((i) => i.exercised).length, total: r.coverage.length }),
        list(r.coverage.filter((i) => !i.exercised).map(l.item)),
        ...(report.production ? [r.production && r.production.runs > 0 ? t('report.production', { ...r.production }) : t('report.production.none')] : []),
        ...(report.prove ? [l.prove(r)] : []),
      ]),
    ],
  };
}

export function reportText(report: WorkspaceReport, lang = 'en'): string {
  const l = reportLabels(lang);
  const tb = reportTables(report, l);
  const section = (title: string, body: string) => `${title}\n\n${body}\n`;
  const findings = report.contracts.flatMap((r) => r.findings.map((f) => l.finding(r, f)));
  return [
    [l.t('report.title'), l.summary(report), ''].join('\n'),
    section(l.t('report.section.matrix'), alignColumns(tb.matrix)),
    section(l.t('report.section.graph'), report.shared.length > 0 ? alignColumns(tb.shared) : l.t('report.none')),
    section(l.t('report.section.versions'), alignColumns(tb.versions)),
    section(l.t('report.section.dryRun'), alignColumns(tb.dryRun)),
    section(l.t('report.section.findings'), findings.length > 0 ? findings.join('\n') : l.t('report.none')),
  ].join('\n');
}

/** A Markdown table; `|` and line breaks in cells are escaped, HTML is not interpreted. */
function markdownTable(rows: readonly (readonly string[])[]): string {
  const cell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\r?\n/g, ' ');
  const [head, ...body] = rows;
  return [`| ${head!.map(cell).join(' | ')} |`, `|${head!.map(() => '---').join('|')}|`, ...body.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

export function reportMarkdown(report: WorkspaceReport, lang = 'en'): string {
  const l = reportLabels(lang);
  const tb = reportTables(report, l);
  const escape = (s: string) => s.replace(/</g, '&lt;');
  const findings = report.contracts.flatMap((r) => r.findings.map((f) => `- ${escape(l.finding(r, f))}`));
  const h = (level: number, text: string) => `${'#'.repeat(level)} ${text}`;
  return [
    h(1, l.t('report.title')),
    '',
    l.summary(report),
    '',
    h(2, l.t('report.section.matrix')),
    '',
    markdownTable(tb.matrix),
    '',
    h(2, l.t('report.section.graph')),
    '',
    report.shared.length > 0 ? markdownTable(tb.shared) : l.t('report.none'),
    '',
    h(2, l.t('report.section.versions')),
    '',
    markdownTable(tb.versions),
    '',
    h(2, l.t('report.section.dryRun')),
    '',
    markdownTable(tb.dryRun),
    '',
    h(2, l.t('report.section.findings')),
    '',
    findings.length > 0 ? findings.join('\n') : l.t('report.none'),
    '',
  ].join('\n');
}

/** JSON: the report data, with each finding's message in `lang`. */
export function reportJson(report: WorkspaceReport, lang = 'en'): string {
  const localised = { ...report, contracts: report.contracts.map((r) => ({ ...r, findings: r.findings.map((f) => ({ ...f, message: format(f.messageId, f.args, lang) })) })) };
  return `${JSON.stringify(localised, null, 2)}\n`;
}
