/**
 * The impact rules of the semantic diff: every way a change is classified, as data. Each rule has
 * a stable id (also the id of its reason in messages.ts), the area it applies to, its impact and
 * the version bump it requires. docs/semantic-diff.md shows this table (generated, with a drift
 * test) and test/diff-corpus/ has an example of every rule.
 *
 * The policy behind the table (docs/semantic-diff.md, "Impacts and bumps"):
 * - breaking → major: callers of the agent's tools, consumers of its output, other contracts or
 *   deployments that rely on a name, a required input or a guaranteed output break;
 * - risk-increasing / risk-reducing → minor: what the agent may do, remember or skip changes
 *   (a ❌ boundary, a HITL gate, a safety guard, an approval flag, a budget);
 * - neutral → minor for additions and behaviour we cannot judge from the text, patch for wording
 *   and documentation; the audit table's own rows need no bump.
 */
import type { Bump, DiffSection, Impact } from './impact.ts';

/** One impact rule. `area` is where it applies: a section key, `front_matter`, or `any` (schemas, fields). */
export interface ImpactRule {
  readonly area: DiffSection | 'any';
  readonly impact: Impact;
  readonly bump: Bump;
}

const rule = (area: DiffSection | 'any', impact: Impact, bump: Bump): ImpactRule => ({ area, impact, bump });
const B = 'breaking';
const RI = 'risk-increasing';
const RR = 'risk-reducing';
const N = 'neutral';

export const IMPACT_RULES = {
  // Anywhere
  'doc-changed': rule('any', N, 'patch'),
  'field-changed': rule('any', N, 'patch'),
  // Tool input schemas: callers send values that must validate.
  'input-property-required-added': rule('any', B, 'major'),
  'input-property-optional-added': rule('any', N, 'minor'),
  'input-property-removed': rule('any', B, 'major'),
  'input-property-renamed': rule('any', B, 'major'),
  'input-property-now-required': rule('any', B, 'major'),
  'input-property-now-optional': rule('any', N, 'minor'),
  'input-type-narrowed': rule('any', B, 'major'),
  'input-type-widened': rule('any', N, 'minor'),
  'input-schema-changed': rule('any', B, 'major'),
  // Output schemas (tool results, OUTPUT_SCHEMA, the output_format constraint): consumers read them.
  'output-property-added': rule('any', N, 'minor'),
  'output-property-removed': rule('any', B, 'major'),
  'output-property-renamed': rule('any', B, 'major'),
  'output-property-now-optional': rule('any', B, 'major'),
  'output-property-now-required': rule('any', N, 'minor'),
  'output-type-widened': rule('any', B, 'major'),
  'output-type-narrowed': rule('any', N, 'minor'),
  'output-schema-changed': rule('any', B, 'major'),

  // Front matter
  'contract-name-changed': rule('front_matter', B, 'major'),
  'front-matter-changed': rule('front_matter', N, 'patch'),

  // AGENT_IDENTITY
  'agent-name-changed': rule('identity', B, 'major'),
  'identity-text-changed': rule('identity', N, 'patch'),
  'identity-text-added': rule('identity', RR, 'minor'),
  'identity-text-removed': rule('identity', RI, 'minor'),
  'boundary-added': rule('identity', RR, 'minor'),
  'boundary-removed': rule('identity', RI, 'minor'),
  'boundary-reworded': rule('identity', N, 'patch'),
  'boundary-narrowed': rule('identity', RI, 'minor'),
  'boundary-loosened': rule('identity', RI, 'minor'),
  'boundary-tightened': rule('identity', RR, 'minor'),
  'confirmation-added': rule('identity', RR, 'minor'),
  'confirmation-removed': rule('identity', RI, 'minor'),
  'confirmation-reworded': rule('identity', N, 'patch'),
  'confirmation-narrowed': rule('identity', RI, 'minor'),
  'permission-added': rule('identity', RI, 'minor'),
  'permission-removed': rule('identity', RR, 'minor'),
  'permission-reworded': rule('identity', N, 'patch'),
  'permission-widened': rule('identity', RI, 'minor'),
  'boundary-lifted-to-confirmation': rule('identity', RI, 'minor'),
  'boundary-lifted-to-permission': rule('identity', RI, 'minor'),
  'confirmation-dropped': rule('identity', RI, 'minor'),
  'permission-to-confirmation': rule('identity', RR, 'minor'),
  'permission-to-boundary': rule('identity', RR, 'minor'),
  'confirmation-to-boundary': rule('identity', RR, 'minor'),
  'writer-added': rule('identity', RI, 'minor'),
  'writer-removed': rule('identity', RR, 'minor'),
  'writer-renamed': rule('identity', N, 'minor'),

  // MEMORY_CONTRACT
  'layer-added': rule('memory_contract', N, 'minor'),
  'layer-removed': rule('memory_contract', B, 'major'),
  'layer-renamed': rule('memory_contract', B, 'major'),
  'layer-readers-added': rule('memory_contract', RI, 'minor'),
  'layer-readers-removed': rule('memory_contract', RR, 'minor'),
  'layer-writers-added': rule('memory_contract', RI, 'minor'),
  'layer-writers-removed': rule('memory_contract', RR, 'minor'),
  'retention-extended': rule('memory_contract', RI, 'minor'),
  'retention-shortened': rule('memory_contract', RR, 'minor'),
  'retention-changed': rule('memory_contract', N, 'minor'),

  // MEMORY_POLICY
  'source-priority-changed': rule('memory_policy', N, 'minor'),
  'override-reason-added': rule('memory_policy', N, 'minor'),
  'override-reason-removed': rule('memory_policy', N, 'minor'),
  'admission-rule-added': rule('memory_policy', RR, 'minor'),
  'admission-rule-removed': rule('memory_policy', RI, 'minor'),
  'admission-rule-reworded': rule('memory_policy', N, 'patch'),
  'admission-widened': rule('memory_policy', RI, 'minor'),
  'admission-narrowed': rule('memory_policy', RR, 'minor'),
  'policy-rule-added': rule('memory_policy', RR, 'minor'),
  'policy-rule-removed': rule('memory_policy', RI, 'minor'),
  'policy-rule-reworded': rule('memory_policy', N, 'patch'),

  // MEMORY_FRESHNESS
  'freshness-added': rule('memory_freshness', RR, 'minor'),
  'freshness-removed': rule('memory_freshness', RI, 'minor'),
  'freshness-renamed': rule('memory_freshness', N, 'minor'),
  'freshness-relaxed': rule('memory_freshness', RI, 'minor'),
  'freshness-tightened': rule('memory_freshness', RR, 'minor'),

  // MEMORY_POOLS
  'pool-added': rule('memory_pools', N, 'minor'),
  'pool-removed': rule('memory_pools', B, 'major'),
  'pool-renamed': rule('memory_pools', B, 'major'),
  'pool-shared': rule('memory_pools', RI, 'minor'),
  'pool-unshared': rule('memory_pools', B, 'major'),
  'pool-metadata-added': rule('memory_pools', N, 'minor'),
  'pool-metadata-removed': rule('memory_pools', B, 'major'),
  'pool-weight-changed': rule('memory_pools', N, 'patch'),

  // MEMORY_REQUIREMENTS
  'requirement-added': rule('memory_requirements', B, 'major'),
  'optional-requirement-added': rule('memory_requirements', N, 'minor'),
  'requirement-removed': rule('memory_requirements', N, 'minor'),
  'requirement-renamed': rule('memory_requirements', N, 'minor'),
  'requirement-made-required': rule('memory_requirements', B, 'major'),
  'requirement-made-optional': rule('memory_requirements', RI, 'minor'),
  'requirement-filters-changed': rule('memory_requirements', N, 'minor'),
  'requirement-tuning-changed': rule('memory_requirements', N, 'patch'),

  // TRIGGER
  'intent-pattern-added': rule('trigger', N, 'minor'),
  'intent-pattern-removed': rule('trigger', B, 'major'),
  'intent-pattern-changed': rule('trigger', N, 'minor'),
  'entity-added': rule('trigger', B, 'major'),
  'entity-removed': rule('trigger', N, 'minor'),
  'entity-renamed': rule('trigger', B, 'major'),
  'entity-pattern-changed': rule('trigger', N, 'minor'),

  // TOOLS
  'tool-added': rule('tools', N, 'minor'),
  'tool-added-with-side-effects': rule('tools', RI, 'minor'),
  'tool-removed': rule('tools', B, 'major'),
  'tool-renamed': rule('tools', B, 'major'),
  'tool-side-effects-increased': rule('tools', RI, 'minor'),
  'tool-side-effects-reduced': rule('tools', RR, 'minor'),
  'tool-approval-removed': rule('tools', RI, 'minor'),
  'tool-approval-added': rule('tools', RR, 'minor'),
  'tool-idempotency-lost': rule('tools', RI, 'minor'),
  'tool-idempotency-gained': rule('tools', RR, 'minor'),
  'tool-rollback-removed': rule('tools', RI, 'minor'),
  'tool-rollback-added': rule('tools', RR, 'minor'),
  'tool-timeout-changed': rule('tools', N, 'patch'),
  // What the model reads to choose a tool: not documentation for people only.
  'tool-guidance-changed': rule('tools', N, 'patch'),

  // CONSTRAINTS
  'guard-added': rule('constraints', RR, 'minor'),
  'guard-removed': rule('constraints', RI, 'minor'),
  'guard-reworded': rule('constraints', N, 'patch'),
  'guard-check-added': rule('constraints', RR, 'minor'),
  'guard-check-removed': rule('constraints', RI, 'minor'),
  'guard-check-changed': rule('constraints', N, 'minor'),
  'output-format-added': rule('constraints', N, 'minor'),
  'output-format-removed': rule('constraints', B, 'major'),
  'output-format-changed': rule('constraints', B, 'major'),
  'language-added': rule('constraints', N, 'minor'),
  'language-removed': rule('constraints', RI, 'minor'),
  'language-changed': rule('constraints', B, 'major'),
  'constraint-added': rule('constraints', N, 'minor'),
  'constraint-removed': rule('constraints', N, 'minor'),

  // FAILURE_PROTOCOL
  'failure-added': rule('failure_protocol', RR, 'minor'),
  'failure-removed': rule('failure_protocol', RI, 'minor'),
  'failure-code-changed': rule('failure_protocol', B, 'major'),
  'failure-code-added': rule('failure_protocol', N, 'minor'),
  'failure-code-removed': rule('failure_protocol', B, 'major'),
  'failure-condition-changed': rule('failure_protocol', N, 'minor'),
  'failure-actions-changed': rule('failure_protocol', N, 'minor'),
  'failure-fallback-added': rule('failure_protocol', RR, 'minor'),
  'failure-fallback-removed': rule('failure_protocol', RI, 'minor'),
  'failure-fallback-changed': rule('failure_protocol', N, 'minor'),
  'failure-alert-added': rule('failure_protocol', RR, 'minor'),
  'failure-alert-removed': rule('failure_protocol', RI, 'minor'),
  'failure-alert-changed': rule('failure_protocol', N, 'patch'),
  'failure-severity-raised': rule('failure_protocol', RR, 'minor'),
  'failure-severity-lowered': rule('failure_protocol', RI, 'minor'),
  'failure-scenario-added': rule('failure_protocol', RR, 'minor'),
  'failure-scenario-removed': rule('failure_protocol', RI, 'minor'),
  'failure-scenario-changed': rule('failure_protocol', N, 'minor'),
  'failure-wait-changed': rule('failure_protocol', N, 'patch'),

  // HUMAN_IN_THE_LOOP
  'hitl-gate-added': rule('human_in_the_loop', RR, 'minor'),
  'hitl-gate-removed': rule('human_in_the_loop', RI, 'minor'),
  'hitl-gate-renamed': rule('human_in_the_loop', N, 'minor'),
  'hitl-trigger-widened': rule('human_in_the_loop', RR, 'minor'),
  'hitl-trigger-narrowed': rule('human_in_the_loop', RI, 'minor'),
  'hitl-trigger-changed': rule('human_in_the_loop', N, 'minor'),
  'hitl-action-changed': rule('human_in_the_loop', N, 'minor'),
  'hitl-sla-changed': rule('human_in_the_loop', N, 'patch'),
  'hitl-timeout-loosened': rule('human_in_the_loop', RI, 'minor'),
  'hitl-timeout-tightened': rule('human_in_the_loop', RR, 'minor'),

  // BUDGETS (and TASK's step limit)
  'budget-added': rule('budgets', RR, 'minor'),
  'budget-removed': rule('budgets', RI, 'minor'),
  'budget-raised': rule('budgets', RI, 'minor'),
  'budget-lowered': rule('budgets', RR, 'minor'),
  'budget-changed': rule('budgets', N, 'patch'),
  'approval-required-added': rule('budgets', RR, 'minor'),
  'approval-required-removed': rule('budgets', RI, 'minor'),

  // TASK
  'task-inputs-changed': rule('task', N, 'minor'),
  'task-output-format-changed': rule('task', B, 'major'),
  'task-output-field-added': rule('task', N, 'minor'),
  'task-output-field-removed': rule('task', B, 'major'),
  'criterion-added': rule('task', RR, 'minor'),
  'criterion-removed': rule('task', RI, 'minor'),
  'criterion-reworded': rule('task', N, 'patch'),

  // VERSIONING & AUDIT: bookkeeping, no bump of its own.
  'audit-row-added': rule('versioning', N, 'none'),
  'audit-row-removed': rule('versioning', RI, 'none'),
  'audit-row-changed': rule('versioning', N, 'none'),

  // COMPLIANCE
  'clause-added': rule('compliance', RR, 'minor'),
  'clause-removed': rule('compliance', RI, 'minor'),
  'pii-field-added': rule('compliance', RR, 'minor'),
  'pii-field-removed': rule('compliance', RI, 'minor'),
  'compliance-text-added': rule('compliance', RR, 'minor'),
  'compliance-text-removed': rule('compliance', RI, 'minor'),
  'compliance-text-changed': rule('compliance', N, 'minor'),

  // RESOURCES
  'resource-added': rule('resources', N, 'minor'),
  'resource-removed': rule('resources', N, 'minor'),
  'resource-renamed': rule('resources', N, 'minor'),
  'resource-hash-changed': rule('resources', N, 'minor'),

  // SEMANTIC_ANCHORS, USER_STORIES
  'anchor-added': rule('semantic_anchors', N, 'patch'),
  'anchor-removed': rule('semantic_anchors', N, 'patch'),
  'story-added': rule('user_stories', N, 'patch'),
  'story-removed': rule('user_stories', N, 'patch'),
  'story-reworded': rule('user_stories', N, 'patch'),
} as const satisfies Record<string, ImpactRule>;

/** The id of an impact rule. */
export type RuleId = keyof typeof IMPACT_RULES;

/** Bumps from none to major, for comparisons. */
export const BUMPS: readonly Bump[] = ['none', 'patch', 'minor', 'major'];

/** The larger of two bumps. */
export function maxBump(a: Bump, b: Bump): Bump {
  return BUMPS.indexOf(a) >= BUMPS.indexOf(b) ? a : b;
}
