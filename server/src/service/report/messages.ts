/**
 * The workspace report's labels (docs/workspace.md): headings, column names, clause names and
 * cell values, by id; translations in `l10n/bundle.l10n.<lang>.json` (docs/localisation.md).
 */
import { registerMessages } from '../l10n/registry.ts';

export const REPORT_MESSAGES = {
  'report.title': 'Contracts report',
  'report.summary': '{contracts} contracts · {findings} cross-contract findings · dry-run coverage {exercised} of {exercisable}',
  'report.walkCut': 'Incomplete: the search for contracts in {paths} stopped at its limit, so contracts beyond it are not in this report (docs/robustness.md, "Workspace scale").',
  'report.section.matrix': 'Compliance coverage',
  'report.section.graph': 'Pool and resource sharing',
  'report.section.versions': 'Versions and last audit',
  'report.section.dryRun': 'Dry-run coverage',
  'report.section.findings': 'Cross-contract findings',
  'report.clause.pii': 'PII handling',
  'report.clause.residency': 'Data residency',
  'report.clause.audit': 'Audit trail with reason codes',
  'report.clause.hitl': 'HITL for side-effect tools',
  'report.clause.budgets': 'Budgets',
  'report.clause.failureCodes': 'Failure codes',
  'report.column.contract': 'Contract',
  'report.column.agent': 'Agent',
  'report.column.version': 'Version',
  'report.column.lastAudit': 'Last audit',
  'report.column.clauseIds': 'Clause ids',
  'report.column.queries': 'Queries',
  'report.column.exercised': 'Exercised',
  'report.column.notExercised': 'Not exercised',
  'report.column.production': 'Production',
  'report.production': '{runs, plural, one {# run} other {# runs}}, {violations, plural, one {# violation} other {# violations}}, {exercised} of {clauses} clauses exercised',
  'report.production.none': 'no runs',
  'report.column.prove': 'Prove',
  'report.prove': '{count, plural, one {# finding} other {# findings}}: {obligations}',
  'report.prove.none': 'no finding',
  'report.column.shared': 'Shared',
  'report.column.usedBy': 'Used by',
  'report.column.covered': 'Covered',
  'report.cell.yes': 'yes',
  'report.cell.no': 'no',
  'report.cell.na': 'n/a',
  'report.kind.pool': 'pool {name}',
  'report.kind.resource': 'resource {name}',
  'report.item.tool': 'tool {name}',
  'report.item.scenario': 'HITL {name}',
  'report.item.code': 'code {name}',
  'report.audit': '{version}, {date}, {changedBy}',
  'report.count': '{count} of {total}',
  'report.conflict': '{node} (the contracts disagree)',
  'report.none': 'none',
  'report.finding': '{file}:{line} {code}: {message}',
  'report.legend': 'Green: the contract covers the clause. Red: it does not. Grey: the clause does not apply. Blue: share of side-effect tools, HITL scenarios and error codes that snapshot queries exercise.',
  'report.legend.graph': 'Contracts on the left; shared pools (circles) and resources (squares) on the right. Red: a cross-contract rule reports a disagreement about it.',
} as const;

registerMessages('report', REPORT_MESSAGES);

export type ReportMessageId = keyof typeof REPORT_MESSAGES;
