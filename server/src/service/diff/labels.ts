/**
 * Texts every face of the semantic diff shows (the CLI's reports, the editor's diff view): a
 * change's section title and the one-line summary of a diff, in a display language.
 */
import { SECTIONS } from '../catalogue/sections.ts';
import { diffMessage } from './diffMessage.ts';
import type { SemanticDiff } from './types.ts';

/** The title of a change's section: the canonical H2 title, or "front matter" in `lang`. */
export function sectionTitle(section: string, lang = 'en'): string {
  return section === 'front_matter' ? diffMessage('section.front_matter', {}, lang) : (SECTIONS.find((s) => s.key === section)?.title ?? section);
}

/** "3 semantic changes: 1 breaking, …", or "No semantic change". */
export function summaryLine(diff: SemanticDiff, lang = 'en'): string {
  if (diff.changes.length === 0) return diffMessage('report.noChanges', {}, lang);
  const c = diff.counts;
  const args = { count: diff.changes.length, breaking: c.breaking, increasing: c['risk-increasing'], reducing: c['risk-reducing'], neutral: c.neutral };
  return diffMessage(diff.changes.length === 1 ? 'report.summaryOne' : 'report.summary', args, lang);
}
