/**
 * What each contract section is to the semantic diff: how its items are identified and which
 * impact rule each field change falls under (docs/semantic-diff.md, "Sections"). Declarative:
 * the comparators live in fields.ts, items.ts, schema.ts and permissions.ts; the rules in rules.ts.
 * Sections that declare names (roles, layers, pools, entities, tools, scenarios) come before the
 * sections that refer to them, so that references follow renames.
 */
import { splitRoles } from '../model/references.ts';
import { normaliseVersion } from '../model/version.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import { segment, type DiffBuilder, type Scope } from './builder.ts';
import {
  asObject, condition, doc, fieldRef, flag, ignore, map, nested, num, ordered, other, prose, quantity, rank, REWORDED, set, value, type FieldDiff, type QuantityRules,
} from './fields.ts';
import { list, object } from './items.ts';
import { brief, canonical, durationMs, minutesOfDay, normText, same, words } from './normalise.ts';
import { diffPermissions } from './permissions.ts';
import { schema } from './schema.ts';
import type { RuleId } from './rules.ts';
import type { DiffSection } from './types.ts';
import { normaliseName } from '../model/names.ts';

/** One compared part of the contract: a section key (or the front matter) and its comparator. */
export interface SectionDiff {
  readonly section: DiffSection;
  readonly diff: FieldDiff;
}

const toolGuidance = value('tool-guidance-changed');
const identityText = value('identity-text-changed', 'identity-text-added', 'identity-text-removed');
const complianceText = value('compliance-text-changed', 'compliance-text-added', 'compliance-text-removed');
const policyRules = prose({ itemKind: 'policy-rule', added: 'policy-rule-added', removed: 'policy-rule-removed', reworded: 'policy-rule-reworded' });
const budget: QuantityRules = { up: 'budget-raised', down: 'budget-lowered', added: 'budget-added', removed: 'budget-removed', changed: 'budget-changed' };
const roles = (s: string) => splitRoles(s).map((r) => r.name);
const name = (field: string) => (item: Record<string, unknown>) => normaliseName(item[field]);

/** Layers a role may write, by the MEMORY_CONTRACT's `Write By` cells. */
function layersWrittenBy(model: ParsedContract, role: string): string {
  const rows = model.data['memory_contract'];
  const layers = (Array.isArray(rows) ? rows : []).filter((r) => typeof r?.write_by === 'string' && roles(r.write_by).includes(role)).map((r) => normaliseName(r.layer));
  return layers.sort().join('\n');
}

/**
 * Authorized writers, a set of roles. A role removed and another added that write exactly the
 * same memory layers is a rename; MEMORY_CONTRACT rows that follow it are then no change.
 */
const writers: FieldDiff = (d, scope, ref, b, a) => {
  const xs = new Set((Array.isArray(b) ? b : []).map(normaliseName));
  const ys = new Set((Array.isArray(a) ? a : []).map(normaliseName));
  const added = [...ys].filter((y) => !xs.has(y));
  for (const x of xs) {
    if (ys.has(x)) continue;
    // The layers as written: with renames followed, the old role would write none.
    const layers = layersWrittenBy(d.beforeAsWritten, x);
    const to = layers ? added.filter((y) => layersWrittenBy(d.after, y) === layers) : [];
    if (to.length !== 1) continue;
    const bi = (b as unknown[]).findIndex((v) => normaliseName(v) === x);
    d.noteRename('role', x, to[0]!, `${ref.before}/${bi}`);
    const ai = (a as unknown[]).findIndex((v) => normaliseName(v) === to[0]);
    d.report('writer-renamed', 'renamed', scope, { field: ref.name, itemKind: 'role', identity: to[0]!, path: `${scope.path}/${ref.name}/${segment(to[0]!)}`, before: { pointer: `${ref.before}/${bi}`, value: x }, after: { pointer: `${ref.after}/${ai}`, value: to[0] } });
  }
  set('role', 'writer-added', 'writer-removed', { refers: 'role' })(d, scope, ref, b, a);
};

/** The agent's name is also a role (model/references.ts): a rename is followed in MEMORY_CONTRACT. */
const agentName: FieldDiff = (d, scope, ref, b, a) => {
  if (typeof b === 'string' && typeof a === 'string' && normaliseName(b) !== normaliseName(a)) d.noteRename('role', normaliseName(b), normaliseName(a), ref.before);
  value('agent-name-changed')(d, scope, ref, b, a);
};

/** A field that names a declared thing (a failure entry's HITL scenario): following a rename is no change. */
function reference(kind: 'scenario', changed: RuleId, added: RuleId, removed: RuleId): FieldDiff {
  return (d, scope, ref, b, a) => value(changed, added, removed)(d, scope, ref, typeof b === 'string' && normaliseName(d.renamed(kind, normaliseName(b))) === normaliseName(a) ? a : b, a);
}

/**
 * What a HITL gate does when nobody answers, from strictest to loosest: `reject` ("no action means
 * reject"; also what an absent On Timeout means), `escalate`, then anything else
 * (`approve`, `proceed`…): the agent goes on without a human. Values the schema does not allow
 * are still judged (lint reports them).
 */
const hitlTimeout: FieldDiff = (d, scope, ref, b, a) => {
  const level = (v: unknown) => {
    const s = normaliseName(v).toLowerCase() || 'reject';
    return s === 'reject' ? 0 : s === 'escalate' ? 1 : 2;
  };
  const x = level(b);
  const y = level(a);
  if (x === y) return x === 0 || same(b, a) ? undefined : other(d, scope, ref, b, a);
  value(y > x ? 'hitl-timeout-loosened' : 'hitl-timeout-tightened')(d, scope, ref, b, a);
};

/** A failure entry's error code: a change of code is a rename of what callers match on. */
const failureCode: FieldDiff = (d, scope, ref, b, a) => {
  if (same(b, a)) return;
  const rule: RuleId = b === undefined ? 'failure-code-added' : a === undefined ? 'failure-code-removed' : 'failure-code-changed';
  d.report(rule, b === undefined ? 'added' : a === undefined ? 'removed' : 'renamed', scope, { field: ref.name, before: { pointer: ref.before, value: b }, after: { pointer: ref.after, value: a } });
};

/**
 * A failure entry's steps, without the steps the parser reads the code, alert channel, severity
 * and fallback from (on either side) and with durations blanked out: those are reported by their
 * own fields, so only other edits of the steps (a step added, removed or reworded) are reported here.
 */
function failureActions(d: DiffBuilder, scope: Scope, x: Record<string, unknown>, y: Record<string, unknown>): void {
  const derived = [x, y].flatMap((f) => ['code', 'alert_channel', 'severity', 'fallback'].map((k) => f[k])).filter((v): v is string => typeof v === 'string' && v !== '');
  const steps = (v: unknown) =>
    (Array.isArray(v) ? v : [])
      .map((step) => normText(String(step).replace(/`/g, '')))
      .filter((step) => !derived.some((value) => step.includes(value)))
      .map((step) => step.replace(/\d+(?:\.\d+)?\s*(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|秒|分钟|小时|天)(?![\p{L}])/giu, '#'));
  if (canonical(steps(x['actions'])) === canonical(steps(y['actions']))) return;
  const ref = fieldRef(scope, 'actions');
  d.report('failure-actions-changed', 'changed', scope, { field: ref.name, before: { pointer: ref.before, value: x['actions'] }, after: { pointer: ref.after, value: y['actions'] } });
}

/** A constraint's identity: one output format, one language, safety guards by their rule. */
function constraintKey(c: Record<string, unknown>): string {
  const type = String(c['type'] ?? '');
  if (type === 'safety_guard') return `guard:${normText(String(c['rule'] ?? '')).toLowerCase()}`;
  return type === 'output_format' || type === 'language' ? type : `other:${canonical(c)}`;
}
const byType = (rules: Record<string, RuleId>, fallback: RuleId) => (c: Record<string, unknown>): RuleId => rules[String(c['type'])] ?? fallback;

/** An item of TRIGGER's `required_entities`: a bare name or `{ name, pattern, description }`. */
const entity = (raw: unknown) => asObject(raw) ?? { name: raw };

/** Every compared part of a contract, in processing order (declarations first). */
export const SECTION_DIFFS: readonly SectionDiff[] = [
  {
    section: 'front_matter',
    diff: object({ name: value('contract-name-changed'), description: doc, version: ignore }, value('front-matter-changed')),
  },
  {
    section: 'identity',
    diff: object(
      {
        name: agentName, core_mandate: identityText, goal: identityText, on_missing_information: identityText, output_standard: identityText,
        // Boundaries, confirmations and permissions are compared together (permissions.ts).
        hard_boundaries: ignore, needs_confirmation: ignore, may_act_directly: ignore, authorized_writers: writers,
      },
      undefined,
      diffPermissions,
    ),
  },
  {
    section: 'memory_contract',
    diff: list({
      itemKind: 'layer', keys: [(l) => normaliseName(l['layer'])], name: name('layer'), identityField: 'layer', declares: 'layer',
      added: 'layer-added', removed: 'layer-removed', renamed: 'layer-renamed',
      fields: {
        read_by: set('role', 'layer-readers-added', 'layer-readers-removed', { split: roles, arg: 'role', refers: 'role' }),
        write_by: set('role', 'layer-writers-added', 'layer-writers-removed', { split: roles, arg: 'role', refers: 'role' }),
        retention: quantity(durationMs, { up: 'retention-extended', down: 'retention-shortened', changed: 'retention-changed' }),
      },
    }),
  },
  {
    section: 'memory_pools',
    diff: list({
      itemKind: 'pool', keys: [(p) => normaliseName(p['name'])], name: name('name'), identityField: 'name', declares: 'pool',
      added: 'pool-added', removed: 'pool-removed', renamed: 'pool-renamed',
      fields: {
        content: doc, retrieval_trigger: doc, lifecycle: doc, weight: value('pool-weight-changed'), shared: flag('pool-shared', 'pool-unshared'),
        metadata: set('metadata-field', 'pool-metadata-added', 'pool-metadata-removed', { arg: 'field' }),
      },
    }),
  },
  {
    section: 'trigger',
    diff: object({
      intent_patterns: prose({ itemKind: 'intent-pattern', added: 'intent-pattern-added', removed: 'intent-pattern-removed', reworded: 'intent-pattern-changed', exact: true }),
      required_entities: list({
        itemKind: 'entity', read: entity, keys: [(e) => normaliseName(e['name'])], name: name('name'), identityField: 'name', declares: 'entity',
        added: 'entity-added', removed: 'entity-removed', renamed: 'entity-renamed',
        fields: { pattern: value('entity-pattern-changed'), description: doc },
      }),
    }),
  },
  {
    section: 'tools',
    diff: list({
      itemKind: 'tool', keys: [(t) => normaliseName(t['name'])], name: name('name'), identityField: 'name', declares: 'tool',
      added: (t) => (t['side_effects'] === 'write' || t['side_effects'] === 'external' ? 'tool-added-with-side-effects' : 'tool-added'),
      removed: 'tool-removed', renamed: 'tool-renamed',
      args: (t) => ({ effects: String(t['side_effects'] ?? '') }),
      fields: {
        // The model reads these to choose the tool (docs/semantic-diff.md §8: shown with their before and after).
        description: toolGuidance, when_to_use: toolGuidance, when_not_to_use: toolGuidance, examples: doc,
        input_schema: schema('input', (s) => s.identity, true),
        output_schema: schema('output', (s) => s.identity, true),
        // An undeclared side effect reads as `read`, what most tools do.
        side_effects: rank(['none', 'read', 'write', 'external'], 'tool-side-effects-increased', 'tool-side-effects-reduced', 'read'),
        requires_approval: flag('tool-approval-added', 'tool-approval-removed'),
        idempotent: flag('tool-idempotency-gained', 'tool-idempotency-lost'),
        rollback: value('doc-changed', 'tool-rollback-added', 'tool-rollback-removed'),
        timeout: value('tool-timeout-changed'),
      },
    }),
  },
  {
    section: 'human_in_the_loop',
    diff: list({
      itemKind: 'scenario', keys: [(h) => normaliseName(h['scenario'])], name: name('scenario'), identityField: 'scenario', declares: 'scenario',
      added: 'hitl-gate-added', removed: 'hitl-gate-removed', renamed: 'hitl-gate-renamed',
      fields: {
        trigger_condition: condition('hitl-trigger-widened', 'hitl-trigger-narrowed', 'hitl-trigger-changed'),
        required_action: value('hitl-action-changed'),
        sla: value('hitl-sla-changed'),
        on_timeout: hitlTimeout,
      },
    }),
  },
  {
    section: 'resources',
    diff: list({
      itemKind: 'resource', keys: [(r) => normaliseName(r['path'])], name: name('path'), identityField: 'path', declares: 'resource',
      added: 'resource-added', removed: 'resource-removed', renamed: 'resource-renamed',
      fields: { sha256: value('resource-hash-changed'), description: doc },
    }),
  },
  {
    section: 'memory_policy',
    diff: object({
      source_priority: ordered('source-priority-changed', (s) => s.split('>')),
      override_reasons: set('override-reason', 'override-reason-added', 'override-reason-removed'),
      write_admission: prose({ itemKind: 'policy-rule', added: 'admission-rule-added', removed: 'admission-rule-removed', reworded: 'admission-rule-reworded', wider: 'admission-widened', narrower: 'admission-narrowed' }),
      expiry: policyRules, conflict_arbitration: policyRules, human_override: policyRules,
    }),
  },
  {
    section: 'memory_freshness',
    diff: list({
      itemKind: 'freshness', keys: [(f) => normaliseName(f['source'])], name: name('source'), identityField: 'source',
      added: 'freshness-added', removed: 'freshness-removed', renamed: 'freshness-renamed',
      fields: {
        kind: rank(['scheduled', 'static'], 'freshness-relaxed', 'freshness-tightened'),
        // Times that appear or disappear with a change of kind are explained by the kind.
        updated_before: quantity(minutesOfDay, { up: 'freshness-relaxed', down: 'freshness-tightened', added: null, removed: null }),
        stale_after: quantity(minutesOfDay, { up: 'freshness-relaxed', down: 'freshness-tightened', added: null, removed: null }),
      },
    }),
  },
  {
    section: 'memory_requirements',
    diff: list({
      itemKind: 'requirement', keys: [(r, resolve) => resolve('pool', normaliseName(r['pool']))], name: name('pool'), identityField: 'pool', refers: 'pool',
      added: (r) => (r['required'] === false ? 'optional-requirement-added' : 'requirement-added'),
      removed: 'requirement-removed', renamed: 'requirement-renamed',
      fields: {
        // `required` defaults to true (schemas/sections/memory-requirements.schema.json).
        required: flag('requirement-made-required', 'requirement-made-optional', true),
        filters: value('requirement-filters-changed'),
        top_k: value('requirement-tuning-changed'),
        weight: value('requirement-tuning-changed'),
      },
    }),
  },
  {
    section: 'constraints',
    diff: list({
      itemKind: 'constraint', keys: [constraintKey],
      name: (c) => (c['type'] === 'safety_guard' ? brief(c['rule'], 60) : String(c['type'] ?? '')),
      similar: { words: (c) => (c['type'] === 'safety_guard' ? words(String(c['rule'] ?? '')) : undefined), threshold: REWORDED },
      added: byType({ safety_guard: 'guard-added', output_format: 'output-format-added', language: 'language-added' }, 'constraint-added'),
      removed: byType({ safety_guard: 'guard-removed', output_format: 'output-format-removed', language: 'language-removed' }, 'constraint-removed'),
      args: (c) => ({ text: brief(c['rule'] ?? c['type']), format: String(c['format'] ?? ''), language: String(c['language'] ?? '') }),
      fields: {
        type: ignore,
        rule: value('guard-reworded'),
        check: value('guard-check-changed', 'guard-check-added', 'guard-check-removed'),
        format: value('output-format-changed'),
        schema: schema('output', () => 'output_format', true),
        language: value('language-changed'),
      },
    }),
  },
  { section: 'output_schema', diff: schema('output', () => 'OUTPUT_SCHEMA', false) },
  {
    section: 'failure_protocol',
    diff: list({
      itemKind: 'failure',
      keys: [(f) => (f['code'] === undefined ? undefined : normaliseName(f['code'])), (f) => normText(String(f['condition'] ?? '')).toLowerCase()],
      name: (f) => brief(f['condition'], 60),
      similar: { words: (f) => words(String(f['condition'] ?? '')), threshold: REWORDED },
      added: 'failure-added', removed: 'failure-removed', then: failureActions,
      args: (f) => ({ code: f['code'] === undefined || f['code'] === '' ? 'none' : normaliseName(f['code']) }),
      fields: {
        condition: value('failure-condition-changed'),
        code: failureCode,
        actions: ignore,
        fallback: value('failure-fallback-changed', 'failure-fallback-added', 'failure-fallback-removed'),
        alert_channel: value('failure-alert-changed', 'failure-alert-added', 'failure-alert-removed'),
        // A missing severity is the lowest.
        severity: rank(['P4', 'P3', 'P2', 'P1'], 'failure-severity-raised', 'failure-severity-lowered', 'P4'),
        scenario: reference('scenario', 'failure-scenario-changed', 'failure-scenario-added', 'failure-scenario-removed'),
        max_wait: value('failure-wait-changed'),
      },
    }),
  },
  {
    section: 'budgets',
    diff: object({
      max_steps: quantity(num, budget), token_budget: quantity(num, budget), max_result_chars: quantity(num, budget), timeout: quantity(durationMs, budget),
      on_timeout: value('budget-changed', 'budget-added', 'budget-removed'),
      requires_approval: set('approval', 'approval-required-added', 'approval-required-removed', { refers: 'tool' }),
      tool_timeouts: map(value('tool-timeout-changed')),
      circuit_breaker: nested({ failures: quantity(num, budget), cooldown: value('budget-changed', 'budget-added', 'budget-removed') }),
    }),
  },
  {
    section: 'task',
    diff: object({
      description: doc,
      inputs: value('task-inputs-changed'),
      outputs: nested({ format: value('task-output-format-changed'), fields: set('output-field', 'task-output-field-added', 'task-output-field-removed') }),
      completion_criteria: prose({ itemKind: 'criterion', added: 'criterion-added', removed: 'criterion-removed', reworded: 'criterion-reworded' }),
      complexity: rank(['simple', 'medium', 'complex'], 'budget-raised', 'budget-lowered'),
      max_steps: quantity(num, budget),
    }),
  },
  {
    section: 'versioning',
    diff: list({
      itemKind: 'audit-row', keys: [(r) => normaliseVersion(r['version'])], name: (r) => normaliseVersion(r['version']),
      added: 'audit-row-added', removed: 'audit-row-removed', whole: 'audit-row-changed',
    }),
  },
  {
    section: 'compliance',
    diff: object({
      clauses: set('clause', 'clause-added', 'clause-removed'),
      pii_fields: set('pii-field', 'pii-field-added', 'pii-field-removed'),
      data_residency: complianceText, pii_handling: complianceText, audit_trail: complianceText,
    }),
  },
  { section: 'semantic_anchors', diff: set('anchor', 'anchor-added', 'anchor-removed') },
  { section: 'user_stories', diff: prose({ itemKind: 'story', added: 'story-added', removed: 'story-removed', reworded: 'story-reworded' }) },
];
