/**
 * The pull-request comment format of `agents-md diff --format markdown`: a heading, the counts per
 * impact, the version advice, and one table row per change (impact, section, reason, place), most
 * severe first, in the display language. Cells are escaped for GFM tables (`|`, line breaks).
 */
import { diffMessage, diffSectionTitle, localiseDiff, type Impact } from '../../service/index.ts';
import { versionLabel, whereShown, type DiffReport } from '../diff/report.ts';
import { followsLine, wordLine, type WordStyle } from './diffWords.ts';

const IMPACTS: readonly Impact[] = ['breaking', 'risk-increasing', 'risk-reducing', 'neutral'];
const ICON: Record<Impact, string> = { breaking: '🔴', 'risk-increasing': '🟠', 'risk-reducing': '🟢', neutral: '⚪' };

/** Text safe inside a GFM table cell. */
function cell(s: string): string {
  // `<` outside code spans as an entity: a contract's `<!--` or `<script>` must not become HTML in
  // the PR comment (inside a code span it is shown as written).
  const text = s.split(/(`[^`]*`)/).map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, '&lt;'))).join('');
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\s*[\r\n]+\s*/g, ' ');
}

/** The change that drives the bump, as a paragraph (none when nothing is required). */
function drivenBy(diff: DiffReport['diff'], lang: string): string[] {
  const driver = diff.changes.find((c) => c.id === diff.advice.drivenBy);
  return driver ? [diffMessage('report.drivenBy', { change: cell(driver.message) }, lang), ''] : [];
}

/** Text of a word run: every `<` and backtick as entities (no code span may swallow the tags around it), then as a cell. */
const plain = (t: string) => cell(t.replace(/&/g, '&amp;').replace(/`/g, '&#96;')).replace(/</g, '&lt;');
const WORDS: WordStyle = { same: plain, removed: (t) => `<del>${plain(t)}</del>`, added: (t) => `<ins>${plain(t)}</ins>` };

export function formatDiffMarkdown(report: DiffReport, lang = 'en'): string {
  const diff = localiseDiff(report.diff, lang);
  const same = report.before.file === report.after.file;
  const title = same
    ? diffMessage('markdown.title', { file: report.after.file }, lang)
    : diffMessage('markdown.titleTwo', { before: versionLabel(report.before), after: versionLabel(report.after) }, lang);
  const out = [`### ${title}`, ''];
  if (diff.changes.length === 0) {
    out.push(diffMessage('report.noChanges', {}, lang));
    return out.join('\n') + '\n';
  }
  const c = diff.counts;
  out.push(
    diffMessage('markdown.counts', { breaking: `${ICON.breaking} ${c.breaking}`, increasing: `${ICON['risk-increasing']} ${c['risk-increasing']}`, reducing: `${ICON['risk-reducing']} ${c['risk-reducing']}`, neutral: `${ICON.neutral} ${c.neutral}` }, lang),
    '',
    diffMessage('markdown.version', { advice: diff.advice.message }, lang),
    '',
    ...drivenBy(diff, lang),
    diffMessage('markdown.audit', { audit: diff.advice.audit.message }, lang),
    '',
    `| ${(['impact', 'section', 'change', 'where'] as const).map((k) => diffMessage(`markdown.column.${k}`, {}, lang)).join(' | ')} |`,
    '|---|---|---|---|',
  );
  const ordered = [...diff.changes].sort((x, y) => IMPACTS.indexOf(x.impact) - IMPACTS.indexOf(y.impact));
  for (const ch of ordered) {
    const at = whereShown(report, ch);
    const follows = followsLine(ch, lang);
    const detail = [ch.message ? cell(ch.message) : '', ch.words ? wordLine(ch.words, WORDS) : '', follows ? `<sub>${cell(follows)}</sub>` : ''].filter(Boolean).join('<br>');
    out.push(`| ${ICON[ch.impact]} ${diffMessage(`impact.${ch.impact}`, {}, lang)} | ${cell(diffSectionTitle(ch.section, lang))} | ${detail} | \`${cell(`${at.label}:${at.line}`)}\` |`);
  }
  return out.join('\n') + '\n';
}
