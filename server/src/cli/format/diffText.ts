/**
 * The human format of `agents-md diff`: a header, one line per change
 * (`file:line:col kind impact SECTION identity: reason`, 1-based, at the new place of the change or
 * the old place of a removal), then the version advice and a summary line. Every label and
 * reason comes from the diff's messages, in the display language.
 */
import { type Impact } from '../../service/index.ts';
import { diffMessage, diffSectionTitle, diffSummary, localiseDiff } from '../../service/host.ts';
import { painter, oneLine, type Style } from './text.ts';
import { versionLabel, whereShown, type DiffReport } from '../diff/report.ts';
import { followsLine, wordLine, type WordStyle } from './diffWords.ts';

const IMPACT_STYLE: Record<Impact, Style> = { breaking: 'red', 'risk-increasing': 'yellow', 'risk-reducing': 'green', neutral: 'gray' };

export interface DiffTextOptions {
  /** Use ANSI colours (only when writing to a terminal, and NO_COLOR is not set). */
  readonly color: boolean;
  /** Display language (`en` by default). */
  readonly lang?: string;
}

export function formatDiffText(report: DiffReport, options: DiffTextOptions): string {
  const paint = painter(options.color);
  const lang = options.lang ?? 'en';
  const diff = localiseDiff(report.diff, lang);
  // In colour, removed words red and struck through, added words green; without, git's `--word-diff` marks.
  const words: WordStyle = options.color
    ? { same: (t) => paint('dim', t), removed: (t) => paint('red', `\x1b[9m${t}\x1b[29m`), added: (t) => paint('green', t) }
    : { same: (t) => t, removed: (t) => `[-${t}-]`, added: (t) => `{+${t}+}` };
  const lines = [paint('bold', diffMessage('report.comparing', { before: versionLabel(report.before), after: versionLabel(report.after) }, lang))];
  for (const c of diff.changes) {
    const at = whereShown(report, c);
    const impact = paint(IMPACT_STYLE[c.impact], diffMessage(`impact.${c.impact}`, {}, lang));
    lines.push(`${at.label}:${at.line}:${at.column} ${diffMessage(`kind.${c.kind}`, {}, lang)} ${impact} ${paint('dim', diffSectionTitle(c.section, lang))} ${oneLine(c.message)}`);
    if (c.words) lines.push(`    ${wordLine(c.words, words)}`);
    const follows = followsLine(c, lang);
    if (follows) lines.push(`    ${paint('dim', oneLine(follows))}`);
  }
  for (const n of diff.notAnalysed ?? []) lines.push(paint('yellow', diffMessage(`report.notAnalysed.${n.side}`, { section: diffSectionTitle(n.section, lang) }, lang)));
  if (diff.changes.length === 0) {
    lines.push(paint('green', diffMessage('report.noChanges', {}, lang)));
    return lines.join('\n') + '\n';
  }
  lines.push(diffMessage('report.version', { advice: diff.advice.message }, lang));
  const driver = diff.changes.find((c) => c.id === diff.advice.drivenBy);
  if (driver) lines.push(`    ${diffMessage('report.drivenBy', { change: oneLine(driver.message) }, lang)}`);
  lines.push(diffMessage('report.audit', { audit: diff.advice.audit.message }, lang));
  const worst: Style = diff.counts.breaking > 0 ? 'red' : diff.counts['risk-increasing'] > 0 ? 'yellow' : 'green';
  lines.push(paint(worst, paint('bold', diffSummary(diff, lang))));
  return lines.join('\n') + '\n';
}
