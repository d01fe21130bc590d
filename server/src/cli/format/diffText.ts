/**
 * The human format of `agents-md diff`: a header, one line per change
 * (`file:line:col kind impact SECTION identity: reason`, 1-based, at the new place of the change or
 * the old place of a removal), then the version advice and a summary line. Every label comes from
 * the diff's message catalogue.
 */
import { diffMessage, SECTIONS, type Impact, type SemanticDiff } from '../../service/index.ts';
import { painter, oneLine, type Style } from './text.ts';
import { versionLabel, whereShown, type DiffReport } from '../diff/report.ts';

const IMPACT_STYLE: Record<Impact, Style> = { breaking: 'red', 'risk-increasing': 'yellow', 'risk-reducing': 'green', neutral: 'gray' };

/** The title of a change's section: the canonical H2 title, or "front matter". */
export function sectionTitle(section: string): string {
  return section === 'front_matter' ? diffMessage('section.front_matter') : (SECTIONS.find((s) => s.key === section)?.title ?? section);
}

/** "3 semantic changes: 1 breaking, …" */
export function summaryLine(diff: SemanticDiff): string {
  const c = diff.counts;
  const args = { count: diff.changes.length, breaking: c.breaking, increasing: c['risk-increasing'], reducing: c['risk-reducing'], neutral: c.neutral };
  return diffMessage(diff.changes.length === 1 ? 'report.summaryOne' : 'report.summary', args);
}

export function formatDiffText(report: DiffReport, options: { readonly color: boolean }): string {
  const paint = painter(options.color);
  const { diff } = report;
  const lines = [paint('bold', diffMessage('report.comparing', { before: versionLabel(report.before), after: versionLabel(report.after) }))];
  for (const c of diff.changes) {
    const at = whereShown(report, c);
    const impact = paint(IMPACT_STYLE[c.impact], diffMessage(`impact.${c.impact}`));
    lines.push(`${at.label}:${at.line}:${at.column} ${diffMessage(`kind.${c.kind}`)} ${impact} ${paint('dim', sectionTitle(c.section))} ${oneLine(c.message)}`);
  }
  if (diff.changes.length === 0) {
    lines.push(paint('green', diffMessage('report.noChanges')));
    return lines.join('\n') + '\n';
  }
  lines.push(diffMessage('report.version', { advice: diff.advice.message }));
  lines.push(diffMessage('report.audit', { audit: diff.advice.audit.message }));
  const worst: Style = diff.counts.breaking > 0 ? 'red' : diff.counts['risk-increasing'] > 0 ? 'yellow' : 'green';
  lines.push(paint(worst, paint('bold', summaryLine(diff))));
  return lines.join('\n') + '\n';
}
