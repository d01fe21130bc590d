/**
 * The semantic diff of two contracts (brief §6, docs/semantic-diff.md): compares the models of
 * two already-parsed versions section by section and returns plain data. Pure and synchronous;
 * never throws on any pair of models (a comparator that meets an odd value compares it as text).
 */
import type { ParsedContract } from '../parse/parseContract.ts';
import { SECTIONS } from '../schema/sections.ts';
import { DiffBuilder, type Scope } from './builder.ts';
import { diffSectionTitle } from './labels.ts';
import { SECTION_DIFFS } from './sections.ts';
import { versionAdvice } from './version.ts';
import type { Change, Impact, SemanticDiff } from './types.ts';

const SECTION_KEYS = new Set<string>(SECTIONS.map((s) => s.key));
const ORDER = new Map<string, number>([['front_matter', -1], ...SECTIONS.map((s, i) => [s.key, i] as const)]);

/** The front-matter keys of a model that are not sections (`name`, `version`, `description`, …). */
function frontMatter(model: ParsedContract): Record<string, unknown> {
  return Object.fromEntries(Object.entries(model.data).filter(([k]) => !SECTION_KEYS.has(k)));
}

/** Compares two versions of a contract: `before` (older) and `after` (newer). */
export function diffContracts(before: ParsedContract, after: ParsedContract): SemanticDiff {
  const d = new DiffBuilder(before, after);
  for (const part of SECTION_DIFFS) {
    const front = part.section === 'front_matter';
    const b = front ? frontMatter(before) : before.data[part.section];
    const a = front ? frontMatter(after) : after.data[part.section];
    if (b === undefined && a === undefined) continue;
    const scope: Scope = { section: part.section, itemKind: 'field', identity: diffSectionTitle(part.section), path: '', before: '', after: '' };
    const ref = front ? { name: '', before: '', after: '' } : { name: part.section, before: `/${part.section}`, after: `/${part.section}` };
    part.diff(d, scope, ref, b, a);
  }
  const changes = sortChanges(d.changes);
  const counts: Record<Impact, number> = { breaking: 0, 'risk-increasing': 0, 'risk-reducing': 0, neutral: 0 };
  for (const c of changes) counts[c.impact]++;
  return { changes, advice: versionAdvice(before, after, changes), counts };
}

/** Section order, then document order of the after side (a removal sits at its nearest existing parent), then id. */
function sortChanges(changes: readonly Change[]): Change[] {
  return [...changes].sort((x, y) => {
    const p = x.after.range.start;
    const q = y.after.range.start;
    return (ORDER.get(x.section) ?? 99) - (ORDER.get(y.section) ?? 99) || p.line - q.line || p.character - q.character || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
  });
}
