import type { Finding } from '../../model/types.ts';
import type { Rule } from '../rule.ts';
import { arr, FM, obj, str } from './util.ts';
import { normaliseName } from '../../model/names.ts';
import { profileOf, type ProviderProfile } from '../../providers/profiles.ts';
import { requestProblems, schemaProblems, toolProblems, type ProfileProblem, type SchemaTally } from '../../providers/check.ts';
import { TOKEN_ENCODING, tokenEstimates, toolDefinitionTally, toolDefinitionTokensAtMost, type ToolDefinition } from '../../providers/tokens.ts';

const TOOL = (schema: string) => `${FM}\n## TOOLS\n\n### \`get_vendor\`\n\n- **Description**: Vendor record by domain.\n- **Input Schema**:\n  \`\`\`json\n  ${schema}\n  \`\`\`\n`;

export const providerSchema: Rule = {
  code: 'provider-schema',
  severity: 'error',
  needsWorkspace: true,
  summary: 'Tool and output schemas use only what the target providers named in the config (`targets`) accept.',
  description: 'Each provider accepts its own subset of JSON Schema and has its own limits: OpenAI\'s strict mode wants every property required and `additionalProperties: false` on every object and rejects `allOf`, `not` or `if`; Gemini reads a subset of the OpenAPI 3.0 Schema object; Anthropic\'s strict tool use drops numeric and length bounds; MCP wants an object at the root of `inputSchema` and `outputSchema`. Name the providers the contract\'s tools are sent to in the config file (`"targets": ["openai-strict", "anthropic"]`) and every construct a target rejects is reported where it is written, before the provider answers with an HTTP 400. Each profile is data with the day it was checked and its sources (docs/providers.md).',
  source: 'docs/providers.md, "The profiles"',
  messages: {
    default: '{target} does not accept the keyword "{keyword}" (profile of {checked}).',
    root: '{target} needs a schema of type "object" at the root (profile of {checked}).',
    closed: '{target} needs "additionalProperties: false" on every object (profile of {checked}).',
    required: '{target} needs every property in "required"; "{property}" is not (profile of {checked}). Make it required and nullable instead.',
    typeList: '{target} does not accept a list of types; use one type and "nullable" (profile of {checked}).',
    minItems: '{target} accepts "minItems" of at most {limit} (profile of {checked}).',
    depth: '{target} accepts at most {limit} levels of nesting; this schema is at level {count} (profile of {checked}).',
    property: '{target} does not accept the property name "{property}": it must match {pattern} and have at most {limit} characters (profile of {checked}).',
    name: '{target} does not accept the tool name "{tool}": it must match {pattern} and have at most {limit} characters (profile of {checked}).',
    description: '{target} accepts tool descriptions of at most {limit} characters; "{tool}" has {count} (profile of {checked}).',
    tools: '{target} accepts at most {limit} tools in a request; the contract has {count} (profile of {checked}).',
    optional: '{target} accepts at most {limit} optional parameters over all tools; the contract has {count} (profile of {checked}).',
    properties: '{target} accepts at most {limit} object properties over all schemas; the contract has {count} (profile of {checked}).',
    enums: '{target} accepts at most {limit} enum values over all schemas; the contract has {count} (profile of {checked}).',
  },
  examples: {
    bad: TOOL('{ "type": "object", "properties": { "domain": { "type": "string" }, "region": { "type": "string" } }, "required": ["domain"] }'),
    good: TOOL('{ "type": "object", "properties": { "domain": { "type": "string" }, "region": { "type": ["string", "null"] } }, "required": ["domain", "region"], "additionalProperties": false }'),
    at: '⟦{ "type": "object", "properties": { "domain": { "type": "string" }, "region": { "type": "string" } }, "required": ["domain"] }⟧',
    workspace: { config: { targets: ['openai-strict'] } },
  },
  *check({ data, config, locate }) {
    const targets = [...new Set(config.targets ?? [])].map(profileOf).filter((p): p is ProviderProfile => p !== undefined);
    const tools = arr(data['tools']).map((t) => obj(t) ?? {});
    for (const profile of targets) {
      const base = { target: profile.id, checked: profile.checked };
      const at = function* (pointer: string, problems: readonly ProfileProblem[]): Iterable<Finding> {
        for (const p of problems) {
          const span = locate(pointer + p.path);
          const range = (p.key ? span?.key : undefined) ?? span?.value;
          if (range) yield { code: 'provider-schema', range, args: { ...base, ...p.args }, ...(p.variant === 'default' ? {} : { variant: p.variant }) };
        }
      };
      const tally: SchemaTally = { properties: 0, enumValues: 0, optional: 0 };
      for (let i = 0; i < tools.length; i++) {
        const t = tools[i]!;
        const name = normaliseName(t['name']);
        if (name) yield* at(`/tools/${i}`, toolProblems(name, str(t['description']) ?? '', profile));
        if (t['input_schema'] !== undefined) yield* at(`/tools/${i}/input_schema`, schemaProblems(t['input_schema'], profile, tally));
        if (profile.toolOutput && t['output_schema'] !== undefined) yield* at(`/tools/${i}/output_schema`, schemaProblems(t['output_schema'], profile));
      }
      if (profile.responseFormat && data['output_schema'] !== undefined) yield* at('/output_schema', schemaProblems(data['output_schema'], profile));
      if (tools.length > 0) yield* at('/tools/0/name', requestProblems(tools.length, tally, profile));
    }
  },
};

const BUDGET = (tokens: number, description: string) =>
  `${FM}\n## TOOLS\n\n### \`get_vendor\`\n\n- **Description**: ${description}\n- **Input Schema**:\n  \`\`\`json\n  { "type": "object", "properties": { "domain": { "type": "string" } }, "required": ["domain"] }\n  \`\`\`\n\n## BUDGETS\n\n- **Max Steps**: 10\n- **Token Budget**: ${tokens}\n`;

/** The rule's own last counts per tool, which its estimates scale while typing (providers/tokens.ts). */
const ESTIMATES = tokenEstimates();

export const toolTokensBudget: Rule = {
  code: 'tool-tokens-budget',
  severity: 'warning',
  summary: 'The tool definitions take less than half of the BUDGETS token budget.',
  description: 'Every model request carries the tool definitions (names, descriptions, schemas), and every step of a run sends them again. When they alone take half of `token_budget` or more, the run has little left for the prompt, the memory and the answers. The tokens are counted with a real tokenizer (gpt-tokenizer, `o200k_base`, OpenAI\'s function-calling accounting); `agents-md lint --stats` shows them with the system prompt (docs/providers.md, "Token cost"). Shorten descriptions, drop tools the agent does not need, or raise the budget.',
  source: 'docs/providers.md, "Token cost"',
  messages: { default: 'The tool definitions take {tokens} tokens per request ({encoding}), {percent}% of the token budget of {budget}; every step sends them again.' },
  examples: {
    bad: BUDGET(120, 'Vendor record by domain: the legal name, the registered address, the tax number, the bank account, the payment terms, the contacts and the whitelist status of one vendor.'),
    good: BUDGET(10000, 'Vendor record by domain.'),
    at: '**Token Budget**: ⟦120⟧',
  },
  *check(ctx) {
    const { data, locate } = ctx;
    const budget = obj(data['budgets'])?.['token_budget'];
    if (typeof budget !== 'number' || budget <= 0) return;
    const tools = arr(data['tools']).flatMap((t) => {
      const d = definitionOf(t);
      return d ? [d] : [];
    });
    // Far below half the budget even counted a byte a token: no need for the tokenizer.
    if (toolDefinitionTokensAtMost(tools) * 2 < budget) return;
    // In the language server, a tool being typed in is estimated from its last count until its
    // count arrives, and the contract is checked again then; nothing is said before a first count.
    // The facts are read only here: a rule that reads them runs on every validation (ruleCache.ts).
    const tally = toolDefinitionTally(tools, ctx.facts.countTokens, ESTIMATES);
    if (!tally || tally.tokens * 2 < budget) return;
    const tokens = tally.tokens;
    const span = locate('/budgets/token_budget');
    if (span) yield { code: 'tool-tokens-budget', range: span.value, args: { tokens, encoding: TOKEN_ENCODING, percent: Math.round((tokens / budget) * 100), budget } };
  },
};

/**
 * A tool's definition as the budget counts it, the same object while the tool is (an unchanged
 * tool's tokens are not counted again: providers/tokens.ts).
 */
const definitions = new WeakMap<object, ToolDefinition | null>();
function definitionOf(t: unknown): ToolDefinition | undefined {
  const o = obj(t);
  if (!o) return undefined;
  let d = definitions.get(o);
  if (d === undefined) {
    const name = normaliseName(o['name']);
    const description = [str(o['description']), str(o['when_to_use']), str(o['when_not_to_use'])].filter(Boolean).join('\n');
    d = name ? { name, description, parameters: obj(o['input_schema']) ?? {} } : null;
    definitions.set(o, d);
  }
  return d ?? undefined;
}

export const PROVIDERS_RULES: readonly Rule[] = [providerSchema, toolTokensBudget];
