/**
 * Boot-time validation of a dry run (docs/dry-run.md "The pipeline", step 1: refuse rather
 * than answer without grounds): the query must match an intent pattern, every required entity must be
 * extracted, and every required pool must be present, healthy and fresh. Patterns run on RE2
 * (linear time, whatever the contract says). Pure.
 */
import type { ContractView, EntityView, RequirementView } from '../../model/contractView.ts';
import type { PoolState } from '../snapshot/snapshot.ts';
import { compileRe2 } from '../../validate/regexDialect.ts';
import { minutesOf } from '../../validate/rules/memory-freshness.ts';

/** The result of matching TRIGGER: the first pattern that matches, and the named groups of all that match. */
export interface TriggerMatch {
  readonly matched?: { readonly pattern: string; readonly pointer: string; readonly text: string };
  readonly tried: number;
  /** Patterns that do not compile on RE2 (lookaround, backreferences): never matched (the linter reports them). */
  readonly unusable: readonly string[];
  /** Named groups (`(?<device_id>…)`) of every matching pattern: entity values. */
  readonly groups: Readonly<Record<string, string>>;
}

/** Longest query text the patterns see, in UTF-16 code units. */
export const MAX_QUERY_CHARS = 100_000;

/** Matches the query against TRIGGER's intent patterns (case-insensitive, unanchored, RE2). */
export function matchTrigger(view: ContractView, query: string): TriggerMatch {
  const text = query.slice(0, MAX_QUERY_CHARS);
  let matched: TriggerMatch['matched'];
  const groups: Record<string, string> = {};
  let tried = 0;
  const unusable: string[] = [];
  for (const p of view.intentPatterns) {
    const re = compileRe2(p.pattern);
    if (!re) {
      unusable.push(p.pattern);
      continue;
    }
    tried++;
    const m = re.matcher(text);
    if (!m.find()) continue;
    matched ??= { pattern: p.pattern, pointer: p.pointer, text: m.group() ?? '' };
    for (const name of Object.keys(re.namedGroups())) {
      const v = m.group(name);
      if (v !== null && v !== undefined && !(name in groups)) groups[name] = v;
    }
  }
  return { ...(matched ? { matched } : {}), tried, unusable, groups };
}

/** How an entity's value was found. */
export type EntitySource = 'given' | 'pattern' | 'intent';

/** Extracts one required entity: given by the snapshot, else its own pattern, else an intent pattern's named group. */
export function extractEntity(entity: EntityView, query: string, given: Readonly<Record<string, unknown>>, groups: Readonly<Record<string, string>>): { value: string; via: EntitySource } | undefined {
  if (given[entity.name] !== undefined) return { value: String(given[entity.name]), via: 'given' };
  if (entity.pattern) {
    const re = compileRe2(entity.pattern);
    const m = re?.matcher(query.slice(0, MAX_QUERY_CHARS));
    if (re && m && m.find()) {
      const named = Object.keys(re.namedGroups()).includes(entity.name) ? m.group(entity.name) : null;
      return { value: named ?? m.group() ?? '', via: 'pattern' };
    }
  }
  if (groups[entity.name] !== undefined) return { value: groups[entity.name]!, via: 'intent' };
  return undefined;
}

/** Why a pool cannot be used, with the clause that makes it a problem. */
export type PoolProblem = { readonly code: 'MEMORY_UNAVAILABLE' | 'MEMORY_STALE'; readonly reasonId: string; readonly args: Record<string, string>; readonly pointer: string };

/**
 * Checks one required (or optional) pool's state: present, not `unavailable`, not `stale`, and
 * fresh per the MEMORY_FRESHNESS entry of the same name. A `scheduled` source is stale when `now`
 * is past today's `stale after` time and the pool was not updated since 00:00 UTC today; before
 * that time yesterday's update still counts (docs/dry-run.md, "Freshness").
 */
export function checkPool(view: ContractView, req: RequirementView, state: PoolState | undefined, nowMs: number): PoolProblem | undefined {
  if (!state) return { code: 'MEMORY_UNAVAILABLE', reasonId: 'reason.absent', args: {}, pointer: req.pointer };
  if (state.status === 'unavailable') return { code: 'MEMORY_UNAVAILABLE', reasonId: 'reason.status-unavailable', args: {}, pointer: req.pointer };
  if (state.status === 'stale') return { code: 'MEMORY_STALE', reasonId: 'reason.status-stale', args: {}, pointer: req.pointer };
  const fresh = view.freshness.get(req.pool);
  const staleMin = fresh?.kind === 'scheduled' ? minutesOf(fresh.staleAfter) : undefined;
  if (!fresh || staleMin === undefined) return undefined;
  const day = Math.floor(nowMs / 86_400_000) * 86_400_000;
  const cutoff = nowMs >= day + staleMin * 60_000 ? day : day - 86_400_000;
  const updated = state.updatedAt ? Date.parse(state.updatedAt) : Number.NaN;
  if (Number.isFinite(updated) && updated >= cutoff) return undefined;
  return {
    code: 'MEMORY_STALE',
    reasonId: 'reason.freshness',
    args: { updatedAt: state.updatedAt ?? 'never', cutoff: new Date(cutoff).toISOString(), staleAfter: fresh.staleAfter ?? '' },
    pointer: fresh.pointer,
  };
}
