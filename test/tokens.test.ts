/**
 * Token cost (docs/providers.md, "Token cost"): counted with gpt-tokenizer's o200k_base; shown by
 * `agents-md lint --stats`; checked against BUDGETS by rule tool-tokens-budget.
 * Run: node --import tsx --test test/tokens.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseContract, requestCost } from '../server/src/service/index.ts';
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { computeChatCompletionTokenCount, type ChatCompletionFunctionDefinition } from 'gpt-tokenizer/functionCalling';
import { textTokens, toolDefinitionTokens, toolDefinitionTokensAtMost, toolTokenCounts, type ToolDefinition } from '../server/src/service/providers/tokens.ts';
import { validateContract } from '../server/src/service/index.ts';
import { generateContract } from '../bench/generate.ts';
import { REPO, useCliBundle } from './helpers/cli.ts';

const DEVICE = readFileSync(join(REPO, 'samples/device-diagnosis/AGENTS.md'), 'utf8');

test('a longer description costs exactly the tokens of the words added, counted by the real tokenizer', () => {
  const tool = (description: string) => ({ name: 'get_vendor', description, parameters: { type: 'object', properties: { domain: { type: 'string' } }, required: ['domain'] } });
  const short = toolDefinitionTokens([tool('Vendor record by domain.')]);
  const long = toolDefinitionTokens([tool('Vendor record by domain. Never use it for payments.')]);
  assert.equal(long - short, textTokens('Vendor record by domain. Never use it for payments.') - textTokens('Vendor record by domain.'));
  assert.equal(textTokens('hello world'), 2);
});

test('the bound the budget rule checks first is never below the real count (property)', () => {
  // tool-tokens-budget loads the tokenizer only when this bound reaches half the budget.
  const text = fc.string({ unit: 'binary', maxLength: 80 });
  const schema = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.record({ type: fc.constantFrom('string', 'integer', 'boolean'), description: text }, { requiredKeys: ['type'] }),
      fc.record({ type: fc.constant('string'), enum: fc.array(text, { maxLength: 4 }) }),
      fc.record({ type: fc.constant('object'), properties: fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), tie('node'), { maxKeys: 4 }) }),
      fc.record({ type: fc.constant('array'), items: tie('node') }),
    ),
  })).node;
  const tool = fc.record({ name: fc.stringMatching(/^[a-z_]{1,20}$/), description: text, parameters: fc.record({ type: fc.constant('object'), properties: fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), schema, { maxKeys: 5 }) }) });
  fc.assert(
    fc.property(fc.array(tool, { maxLength: 4 }), (tools) => {
      assert.ok(toolDefinitionTokensAtMost(tools) >= toolDefinitionTokens(tools));
    }),
    { numRuns: 300 },
  );
});

/** The tokens of the definitions counted on their whole text, as the library does. */
const wholeCount = (tools: readonly ToolDefinition[], count: (s: string) => number = countTokens) =>
  tools.length === 0 ? 0 : computeChatCompletionTokenCount({ messages: [], functions: tools as unknown as ChatCompletionFunctionDefinition[] }, count) - computeChatCompletionTokenCount({ messages: [] }, count);

test('the tool definitions counted piece by piece give exactly the count of their whole text (property)', () => {
  // Text meant to cross the pieces' seams: punctuation runs, `any;`, comment slashes, line breaks, any script.
  const tricky = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('', ';', 'any;', ') => any', '//', '\n\n//', '}) => any;\n', ' ', '\n', '说明：', "it's", '123', '!!', '/*'));
  const text = fc.array(tricky, { maxLength: 5 }).map((xs) => xs.join(''));
  const node: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.record({ type: fc.constantFrom('string', 'integer', 'boolean', 'null', 'weird'), description: text }, { requiredKeys: ['type'] }),
      fc.record({ type: fc.constant('string'), enum: fc.array(text, { maxLength: 4 }) }),
      fc.record({ type: fc.constant('object'), properties: fc.dictionary(text, tie('node'), { maxKeys: 4 }), required: fc.array(text, { maxLength: 2 }) }),
      fc.record({ type: fc.constant('array'), items: tie('node') }),
    ),
  })).node;
  const tool = fc.record({ name: fc.oneof(fc.stringMatching(/^[a-z_]{1,20}$/), text), description: text, parameters: fc.oneof(fc.constant({}), fc.record({ type: fc.constant('object'), properties: fc.dictionary(text, node, { maxKeys: 5 }) })) });
  fc.assert(
    fc.property(fc.array(tool, { maxLength: 6 }), fc.nat(), (tools, k) => {
      const defs = tools as ToolDefinition[];
      assert.equal(toolDefinitionTokens(defs), wholeCount(defs));
      assert.equal(toolDefinitionTokensAtMost(defs), defs.length === 0 ? 0 : wholeCount(defs, (s) => new TextEncoder().encode(s).length) + 3);
      // Again, one tool changed (the others from the cache).
      const changed = defs.map((d, i) => (i === k % Math.max(1, defs.length) ? { ...d, description: `${d.description} more` } : d));
      assert.equal(toolDefinitionTokens(changed), wholeCount(changed));
    }),
    { numRuns: 500 },
  );
});

test('typing in one tool counts the tokens of that tool only (rule tool-tokens-budget, a budget the bound reaches)', () => {
  // The tool definitions take about 1,500 tokens: over half of this budget, so the rule reports them.
  const BUDGET = 2000;
  let text = generateContract(2000, 1);
  text = text.replace(/(- \*\*Token Budget\*\*: )[\d,_]+/, '$1' + String(BUDGET));
  assert.match(text, new RegExp(`Token Budget\\*\\*: ${BUDGET}\\n`));
  const before = parseContract(text);
  validateContract(before);
  const lines = text.split('\n');
  const at = lines.findIndex((l, i) => i > lines.findIndex((x) => /^## TOOLS/.test(x)) + 100 && /^- \*\*Description\*\*:/.test(l));
  lines[at] = `${lines[at]} and more`;
  const n = toolTokenCounts();
  const after = parseContract(lines.join('\n'), before);
  const diagnostics = validateContract(after);
  assert.equal(toolTokenCounts() - n, 1, 'one tool definition tokenised: the edited one');
  assert.ok(diagnostics.some((d) => d.code === 'tool-tokens-budget'), 'the rule reports the count');
  assert.deepStrictEqual(diagnostics, validateContract(parseContract(lines.join('\n'))));
});

test('the cost of a sample: tools and system prompt, within the whole request, against its budget', () => {
  const c = requestCost(parseContract(DEVICE));
  assert.equal(c.encoding, 'o200k_base');
  assert.equal(c.budget, 10000);
  assert.ok(c.tools > 100 && c.systemPrompt > 100, JSON.stringify(c));
  assert.ok(c.total >= c.tools + c.systemPrompt - 10 && c.total <= c.tools + c.systemPrompt + 20, JSON.stringify(c));
});

const { bundle: cli, scratch } = useCliBundle('tokens');

test('agents-md lint --stats prints the tokens per request and the share of the budget on stderr', async () => {
  const dir = scratch.workspace({ 'AGENTS.md': DEVICE });
  const c = requestCost(parseContract(DEVICE));
  const run = await cli.run(dir, 'lint', '--stats', '--format', 'json', 'AGENTS.md');
  JSON.parse(run.stdout);
  assert.match(run.stderr, new RegExp(`AGENTS\\.md: ${c.total} tokens per request \\(o200k_base\\): tool definitions ${c.tools}, system prompt ${c.systemPrompt}`));
  assert.match(run.stderr, new RegExp(`AGENTS\\.md: ${Math.round((c.total / 10000) * 100)}% of the token budget of 10000, at every step`));
  const small = DEVICE.replace('- **Token Budget**: 10000', '- **Token Budget**: 200');
  const dir2 = scratch.workspace({ 'AGENTS.md': small });
  const warned = await cli.run(dir2, 'lint', 'AGENTS.md');
  assert.match(warned.stdout, /warning\s+tool-tokens-budget\s+The tool definitions take \d+ tokens per request \(o200k_base\), \d+% of the token budget of 200/);
});
