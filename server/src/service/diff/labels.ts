/**
 * Labels of the semantic diff that every face of it shows (the CLI's reports, the editor's view):
 * a section's title and the one-line summary of the counts, in a display language. From the diff's
 * messages (messages.ts); section titles are the canonical H2 titles, which no language changes.
 */
import { sectionByKey } from '../schema/sections.ts';
import { diffMessage } from './diffMessage.ts';
import type { DiffSection, SemanticDiff } from './types.ts';

/** The title of a change's section: its canonical H2 title (`TOOLS`), or "front matter" (a Markdown term, also in Chinese). */
export function diffSectionTitle(section: DiffSection, lang = 'en'): string {
  return section === 'front_matter' ? diffMessage('section.front_matter', {}, lang) : (sectionByKey(section)?.title ?? section);
}

/** "3 semantic changes: 1 breaking, 0 risk-increasing, …" in `lang`. */
export function diffSummary(diff: SemanticDiff, lang = 'en'): string {
  const c = diff.counts;
  const args = { count: diff.changes.length, breaking: c.breaking, increasing: c['risk-increasing'], reducing: c['risk-reducing'], neutral: c.neutral };
  return diffMessage(diff.changes.length === 1 ? 'report.summaryOne' : 'report.summary', args, lang);
}
