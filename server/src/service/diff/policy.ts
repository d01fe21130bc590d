/**
 * The diff policy (docs/semantic-diff.md §6, "Diff policy"): a contract is a promise to the people
 * who approve the agent, so removing or weakening one of its guarantees (a ❌ boundary, a HITL
 * gate, a safety guard, a compliance clause, an approval requirement) is breaking by default and
 * needs a major version. A project can lower that to risk-increasing (a minor bump), or set the
 * impact of single rules, under `diff` in its configuration file (schemas/config.schema.json).
 */
import { IMPACT_RULES, type RuleId } from './rules.ts';
import type { Bump, Impact } from './types.ts';

/** What a project decides about impacts. */
export interface DiffPolicy {
  /** The impact of removing or weakening a guarantee: `breaking` (major, the default) or `risk-increasing` (minor). */
  readonly weakenedGuarantee: 'breaking' | 'risk-increasing';
  /** The impact of single rules, over everything else. */
  readonly impacts: Readonly<Partial<Record<RuleId, Impact>>>;
}

export const DEFAULT_DIFF_POLICY: DiffPolicy = { weakenedGuarantee: 'breaking', impacts: {} };

/** The rules that remove or weaken a guarantee of the contract. */
export const GUARANTEE_RULES: ReadonlySet<RuleId> = new Set<RuleId>([
  'boundary-removed', 'boundary-narrowed', 'boundary-loosened', 'boundary-lifted-to-confirmation', 'boundary-lifted-to-permission',
  'confirmation-removed', 'confirmation-narrowed', 'confirmation-dropped',
  'hitl-gate-removed', 'hitl-trigger-narrowed', 'hitl-timeout-loosened',
  'guard-removed', 'guard-check-removed',
  'clause-removed', 'pii-field-removed', 'compliance-text-removed',
  'tool-approval-removed', 'approval-required-removed',
]);

/** The bump an impact needs when a policy sets it: breaking is major, a risk minor, neutral keeps the rule's own bump (at most minor). */
function bumpOf(impact: Impact, own: Bump): Bump {
  if (impact === 'breaking') return 'major';
  if (impact !== 'neutral') return 'minor';
  return own === 'major' ? 'minor' : own;
}

/** The impact and bump of a rule under a policy, and whether it weakens a guarantee. */
export function classify(rule: RuleId, policy: DiffPolicy): { impact: Impact; bump: Bump; weakens: boolean } {
  const own = IMPACT_RULES[rule];
  const weakens = GUARANTEE_RULES.has(rule);
  const set = policy.impacts[rule] ?? (weakens ? policy.weakenedGuarantee : undefined);
  return set === undefined ? { impact: own.impact, bump: own.bump, weakens } : { impact: set, bump: bumpOf(set, own.bump), weakens };
}

/**
 * A policy from a configuration file's `diff` setting (already checked against the schema);
 * anything missing or odd keeps the default.
 */
export function diffPolicyOf(setting: unknown): DiffPolicy {
  const s = setting && typeof setting === 'object' ? (setting as Record<string, unknown>) : {};
  const weakened = s['weakenedGuarantee'] === 'risk-increasing' ? 'risk-increasing' : 'breaking';
  const raw = s['impacts'] && typeof s['impacts'] === 'object' ? (s['impacts'] as Record<string, unknown>) : {};
  const impacts: Partial<Record<RuleId, Impact>> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k in IMPACT_RULES && (v === 'breaking' || v === 'risk-increasing' || v === 'risk-reducing' || v === 'neutral')) impacts[k as RuleId] = v;
  }
  return { weakenedGuarantee: weakened, impacts };
}
