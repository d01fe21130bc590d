import type { Rule } from './rule.ts';
import { DOCUMENT_RULES } from './rules/document.ts';
import { VERSIONING_RULES } from './rules/versioning.ts';
import { AGENT_IDENTITY_RULES } from './rules/agent-identity.ts';
import { MEMORY_CONTRACT_RULES } from './rules/memory-contract.ts';
import { MEMORY_POLICY_RULES } from './rules/memory-policy.ts';
import { MEMORY_FRESHNESS_RULES } from './rules/memory-freshness.ts';
import { MEMORY_REQUIREMENTS_RULES } from './rules/memory-requirements.ts';
import { TRIGGER_RULES } from './rules/trigger.ts';
import { TOOLS_RULES } from './rules/tools.ts';
import { OUTPUT_SCHEMA_RULES } from './rules/output-schema.ts';
import { FAILURE_PROTOCOL_RULES } from './rules/failure-protocol.ts';
import { HUMAN_IN_THE_LOOP_RULES } from './rules/human-in-the-loop.ts';
import { EXPRESSION_RULES } from './rules/expressions.ts';
import { BUDGETS_RULES } from './rules/budgets.ts';
import { COMPLIANCE_RULES } from './rules/compliance.ts';
import { RESOURCES_RULES } from './rules/resources.ts';
import { READABILITY_RULES } from './rules/readability.ts';
import { WORKSPACE_RULES } from './rules/workspace.ts';
import { PROVIDERS_RULES } from './rules/providers.ts';

/**
 * The rule catalogue: every rule, in documentation order (document-level rules first, then by
 * section). The single source for validation, docs/rules.md, the config schema's rule list,
 * hover on diagnostic codes and code actions.
 */
export const RULES: readonly Rule[] = [
  ...DOCUMENT_RULES, ...VERSIONING_RULES, ...AGENT_IDENTITY_RULES, ...MEMORY_CONTRACT_RULES, ...MEMORY_POLICY_RULES,
  ...MEMORY_FRESHNESS_RULES, ...MEMORY_REQUIREMENTS_RULES, ...TRIGGER_RULES, ...TOOLS_RULES, ...OUTPUT_SCHEMA_RULES, ...PROVIDERS_RULES,
  ...FAILURE_PROTOCOL_RULES, ...HUMAN_IN_THE_LOOP_RULES, ...EXPRESSION_RULES, ...BUDGETS_RULES, ...COMPLIANCE_RULES, ...RESOURCES_RULES, ...WORKSPACE_RULES, ...READABILITY_RULES,
];

const byCode = new Map(RULES.map((r) => [r.code, r]));

/** The rule with this code, if any. */
export function ruleByCode(code: string): Rule | undefined {
  return byCode.get(code);
}
