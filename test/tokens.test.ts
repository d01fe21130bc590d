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
import { textTokens, toolDefinitionTokens, toolDefinitionTokensAtMost } from '../server/src/service/providers/tokens.ts';
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
