/**
 * The semantic diff of two contracts (docs/semantic-diff.md): compares the models of
 * two already-parsed versions section by section and returns plain data. Pure and synchronous;
 * never throws on any pair of models (a comparator that meets an odd value compares it as text).
 */
import type { ParsedContract } from '../parse/parseContract.ts';
import { SECTIONS, sectionForTitle } from '../schema/sections.ts';
import { DiffBuilder, type Scope } from './builder.ts';
import { diffSectionTitle } from './labels.ts';
import { SECTION_DIFFS } from './sections.ts';
import { declaredVersion, versionAdvice } from './version.ts';
import { followRenames, groupFollowers } from './follow.ts';
import { DEFAULT_DIFF_POLICY, type DiffPolicy } from './policy.ts';
import type { Change, Impact, NotAnalysed, SemanticDiff } from './types.ts';

const SECTION_KEYS = new Set<string>(SECTIONS.map((s) => s.key));
const ORDER = new Map<string, number>([['front_matter', -1], ...SECTIONS.map((s, i) => [s.key, i] as const)]);

/** The front-matter keys of a model that are not sections (`name`, `version`, `description`, …). */
function frontMatter(model: ParsedContract): Record<string, unknown> {
  return Object.fromEntries(Object.entries(model.data).filter(([k]) => !SECTION_KEYS.has(k)));
}

/** Compares two versions of a contract: `before` (older) and `after` (newer), under a project's diff policy. */
export function diffContracts(before: ParsedContract, after: ParsedContract, policy: DiffPolicy = DEFAULT_DIFF_POLICY): SemanticDiff {
  const first = compare(before, after, policy);
  let found: readonly Change[] = first.changes;
  // Mentions of a renamed name are no change of their own (follow.ts): a second run tells them apart.
  if (first.noted.length > 0) found = groupFollowers(first.changes, compare(followRenames(before, first.noted), after, policy, before).changes, first.noted, before);
  // The audit row of the new version is bookkeeping: the version advice reports it.
  const version = declaredVersion(after);
  const changes = sortChanges(found.filter((c) => !(c.reasonId === 'audit-row-added' && c.identity === version)));
  const counts: Record<Impact, number> = { breaking: 0, 'risk-increasing': 0, 'risk-reducing': 0, neutral: 0 };
  for (const c of changes) counts[c.impact]++;
  const notAnalysed = unanalysed(before, after);
  return { changes, advice: versionAdvice(before, after, changes), counts, ...(notAnalysed.length > 0 ? { notAnalysed } : {}) };
}

/**
 * Whether a side skipped the section `key` (`content-too-complex`): its value there is unknown, not
 * empty. A skipped section was not parsed, so it is known by its heading line alone.
 */
function skipped(model: ParsedContract, key: string): boolean {
  return model.sections.some((s) => {
    if (!s.findings.some((f) => f.code === 'content-too-complex')) return false;
    const heading = /^##[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/m.exec(s.text.split(/\r?\n|\r/, 1)[0] ?? '')?.[1];
    return (s.spec ?? (heading ? sectionForTitle(heading.replace(/[`*]/g, '')) : undefined))?.key === key;
  });
}

/** The sections a side did not analyse: comparing them would report every item of the other side as added or removed. */
function unanalysed(before: ParsedContract, after: ParsedContract): NotAnalysed[] {
  const out: NotAnalysed[] = [];
  for (const { section } of SECTION_DIFFS) {
    const b = skipped(before, section);
    const a = skipped(after, section);
    if (a || b) out.push({ section, side: a && b ? 'both' : b ? 'before' : 'after' });
  }
  return out;
}

/** One run of every section's comparator. */
function compare(before: ParsedContract, after: ParsedContract, policy: DiffPolicy, asWritten = before): DiffBuilder {
  const d = new DiffBuilder(before, after, policy, asWritten);
  const notAnalysed = new Set(unanalysed(before, after).map((n) => n.section));
  for (const part of SECTION_DIFFS) {
    if (notAnalysed.has(part.section)) continue;
    const front = part.section === 'front_matter';
    const b = front ? frontMatter(before) : before.data[part.section];
    const a = front ? frontMatter(after) : after.data[part.section];
    if (b === undefined && a === undefined) continue;
    const scope: Scope = { section: part.section, itemKind: 'field', identity: diffSectionTitle(part.section), path: '', before: '', after: '' };
    const ref = front ? { name: '', before: '', after: '' } : { name: part.section, before: `/${part.section}`, after: `/${part.section}` };
    part.diff(d, scope, ref, b, a);
  }
  return d;
}

/** Section order, then document order of the after side (a removal sits at its nearest existing parent), then id. */
function sortChanges(changes: readonly Change[]): Change[] {
  return [...changes].sort((x, y) => {
    const p = x.after.range.start;
    const q = y.after.range.start;
    return (ORDER.get(x.section) ?? 99) - (ORDER.get(y.section) ?? 99) || p.line - q.line || p.character - q.character || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
  });
}
