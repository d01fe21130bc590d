/**
 * The budget rule while the language server's token process has not answered (docs/providers.md,
 * "Token cost"): a tool being typed in is estimated from the rule's own last count of it, so a
 * one-character edit near the half of the budget does not make the warning appear or go. A
 * tester saw it flicker: the estimate scaled the lens's count of the tool (the export's wording,
 * more tokens) by the rule's text, 2-3 tokens off.
 * Run: node --import tsx --test test/tokenEstimates.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { parseContract, validateContract } from '../server/src/service/index.ts';
import { EMPTY_FACTS } from '../server/src/service/validate/facts.ts';
import { toolCostOf, toolsCost } from '../server/src/service/export/cost.ts';
import { REPO } from './helpers/cli.ts';

const SAMPLE = readFileSync(join(REPO, 'samples/procurement-analyzer/AGENTS.md'), 'utf8');

/** A counter that knows what the token process counted so far (the texts of `known`), nothing else yet. */
function counterKnowing(): { count: (t: string) => number | undefined; learn: (t: string) => number } {
  const known = new Map<string, number>();
  return { count: (t) => known.get(t), learn: (t) => (known.set(t, countTokens(t)), known.get(t)!) };
}

test('one character deleted at the half of the budget: the estimate keeps the exact outcome (no warning appears)', () => {
  const exactTools = (text: string) => {
    const d = validateContract(parseContract(text)).find((x) => x.code === 'tool-tokens-budget');
    return d;
  };
  // Find a budget just above twice the count, as the tester did (325 for 162 tokens).
  const probe = SAMPLE.replace('- **Token Budget**: 10,000', '- **Token Budget**: 100');
  const tokens = Number(/take (\d+) tokens/.exec(exactTools(probe)!.message)![1]);
  const budget = tokens * 2 + 1;
  const text = SAMPLE.replace('- **Token Budget**: 10,000', `- **Token Budget**: ${budget}`);
  const edited = text.replace(/(### `check_inventory`\n\n- \*\*Description\*\*: [^\n]*)\S\n/, '$1\n');
  assert.notEqual(edited, text);
  assert.equal(exactTools(text), undefined, 'below half: no warning');

  const c = counterKnowing();
  const learning = (t: string) => c.learn(t);
  // Everything was counted for the text before the edit: the rule's pieces, the lens's and a tool's hover.
  const before = parseContract(text);
  assert.equal(validateContract(before, { ...EMPTY_FACTS, countTokens: learning }).find((d) => d.code === 'tool-tokens-budget'), undefined);
  assert.ok(toolsCost(before, learning).tools);
  assert.ok(toolCostOf(before, 'check_inventory', learning)?.tokens);
  // The keystroke: the edited tool is not counted yet.
  const after = parseContract(edited, before);
  assert.equal(validateContract(after, { ...EMPTY_FACTS, countTokens: c.count }).find((d) => d.code === 'tool-tokens-budget'), undefined, 'no warning while the tool is counted');
  // (Counted only now: the pieces' counts are memoised, and a count of the edited text would have made the estimate unnecessary.)
  assert.equal(exactTools(edited), undefined, 'below half after the edit, counted');
});
