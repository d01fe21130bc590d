/**
 * The pull-request comment format of `agents-md diff --format markdown`: a heading, the counts per
 * impact, the version advice, and one table row per change (impact, section, reason, place), most
 * severe first, in the display language. Everything from the contracts is escaped
 * (markdownText.ts): messages are made from their ids with escaped arguments.
 */
import { type Change, type Impact } from '../../service/index.ts';
import { diffMessage, diffSectionTitle, type DiffMessageId } from '../../service/host.ts';
import { versionLabel, whereShown, type DiffReport } from '../diff/report.ts';
import { wordLine, type WordStyle } from './diffWords.ts';
import { literalName, mdArgs, mdCode, mdMessage, mdText } from './markdownText.ts';

const IMPACTS: readonly Impact[] = ['breaking', 'risk-increasing', 'risk-reducing', 'neutral'];
const ICON: Record<Impact, string> = { breaking: '🔴', 'risk-increasing': '🟠', 'risk-reducing': '🟢', neutral: '⚪' };

/** A diff message in Markdown: its arguments escaped, its own code spans kept. */
const message = (id: DiffMessageId, args: Readonly<Record<string, string | number>>, lang: string, options?: Parameters<typeof mdArgs>[1]) => mdMessage(diffMessage(id, mdArgs(args, options), lang));
const changeText = (c: Change, lang: string) => message(c.reasonId, c.args, lang);

/** The change that drives the bump, as a paragraph (none when nothing is required). */
function drivenBy(diff: DiffReport['diff'], lang: string): string[] {
  const driver = diff.changes.find((c) => c.id === diff.advice.drivenBy);
  return driver ? [message('report.drivenBy', { change: changeText(driver, lang) }, lang, { raw: ['change'] }), ''] : [];
}

/** The places a rename's mentions follow, as a small line (none without them). */
function follows(c: Change, lang: string): string {
  const places = c.follows?.map((f) => `${diffSectionTitle(f.section, lang)} ${f.identity}${f.field ? ` (${f.field})` : ''}`);
  return places && places.length > 0 ? `<sub>${message('report.follows', { count: places.length, places: places.join('; ') }, lang)}</sub>` : '';
}

const WORDS: WordStyle = { same: mdText, removed: (t) => `<del>${mdText(t)}</del>`, added: (t) => `<ins>${mdText(t)}</ins>` };

/** `maxChanges`: the table stops after that many rows and says how many more there are (the Action's comment). */
export function formatDiffMarkdown(report: DiffReport, lang = 'en', maxChanges = Infinity): string {
  const diff = report.diff;
  const same = report.before.file === report.after.file;
  const names = { names: ['file', 'before', 'after'] };
  const title = same
    ? message('markdown.title', { file: report.after.file }, lang, names)
    : message('markdown.titleTwo', { before: versionLabel(report.before), after: versionLabel(report.after) }, lang, names);
  const out = [`### ${title}`, ''];
  // A section not analysed hides its changes: said before anything else, so that no one reads "no change".
  for (const n of diff.notAnalysed ?? []) out.push(`⚠ ${diffMessage(`report.notAnalysed.${n.side}`, { section: diffSectionTitle(n.section, lang) }, lang)}`, '');
  if (diff.changes.length === 0) {
    out.push(diffMessage('report.noChanges', {}, lang));
    return out.join('\n') + '\n';
  }
  const c = diff.counts;
  out.push(
    diffMessage('markdown.counts', { breaking: `${ICON.breaking} ${c.breaking}`, increasing: `${ICON['risk-increasing']} ${c['risk-increasing']}`, reducing: `${ICON['risk-reducing']} ${c['risk-reducing']}`, neutral: `${ICON.neutral} ${c.neutral}` }, lang),
    '',
    diffMessage('markdown.version', { advice: message(diff.advice.messageId, diff.advice.args, lang) }, lang),
    '',
    ...drivenBy(diff, lang),
    diffMessage('markdown.audit', { audit: message(diff.advice.audit.messageId, diff.advice.audit.args, lang) }, lang),
    '',
    `| ${(['impact', 'section', 'change', 'where'] as const).map((k) => diffMessage(`markdown.column.${k}`, {}, lang)).join(' | ')} |`,
    '|---|---|---|---|',
  );
  const ordered = [...diff.changes].sort((x, y) => IMPACTS.indexOf(x.impact) - IMPACTS.indexOf(y.impact));
  for (const ch of ordered.slice(0, maxChanges)) {
    const at = whereShown(report, ch);
    const detail = [changeText(ch, lang), ch.words ? wordLine(ch.words, WORDS) : '', follows(ch, lang)].filter(Boolean).join('<br>');
    out.push(`| ${ICON[ch.impact]} ${diffMessage(`impact.${ch.impact}`, {}, lang)} | ${mdText(diffSectionTitle(ch.section, lang))} | ${detail} | ${mdCode(literalName(`${at.label}:${at.line}`))} |`);
  }
  if (ordered.length > maxChanges) out.push('', diffMessage('markdown.moreChanges', { count: ordered.length - maxChanges }, lang));
  return out.join('\n') + '\n';
}
