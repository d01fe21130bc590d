// The one name normaliser (server/src/service/model/names.ts): the validator, the dry run and the
// semantic diff agree on whether two names are the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conditionKey, normaliseName, unquote } from '../server/src/service/model/names.ts';
import { diffContracts, parseContract, validateContract } from '../server/src/service/index.ts';
import { TOOLS_AND_HITL } from './helpers/fixtures.ts';

test('a name is compared without its backticks, straight or curly quotes and extra spaces, case kept', () => {
  for (const written of ['get_stock', ' `get_stock` ', '“get_stock”', '‘get_stock’', '"get_stock"', "'get_stock'"]) assert.equal(normaliseName(written), 'get_stock', written);
  assert.equal(normaliseName('“Large   order”'), 'Large order');
  assert.notEqual(normaliseName('Get_Stock'), normaliseName('get_stock'), 'a tool name reaches its API as written');
  assert.equal(normaliseName(undefined), '');
  assert.equal(normaliseName(3), '3');
  assert.equal(unquote('`a  b`'), 'a  b', 'a pattern keeps its inner spaces');
});

test('a condition is fired by name without a leading If/When, case-insensitively', () => {
  for (const written of ['If Large order', 'when large   order', '`Large order`', '“LARGE ORDER”']) assert.equal(conditionKey(written), 'large order', written);
  assert.equal(conditionKey('如果 大额订单'), '大额订单');
});

const FM = '---\ncontract: true\nname: demo\nversion: 1.0.0\n---\n\n';
const FALLBACK = (scenario: string) => `\n## FAILURE_PROTOCOL\n\n- **If nobody signs off**: → Auto-reject\n  - **Scenario**: ${scenario}\n`;

test('the validator and the diff read a name in curly quotes as the same name', () => {
  const plain = parseContract(FM + TOOLS_AND_HITL + FALLBACK('Large order'));
  const curly = parseContract(FM + TOOLS_AND_HITL + FALLBACK('“large  order”'));
  for (const model of [plain, curly]) assert.ok(!validateContract(model).some((d) => d.code === 'hitl-needs-fallback'), 'the fallback covers the scenario');
  const quoted = parseContract(FM + TOOLS_AND_HITL.replace('| Large order |', '| “Large  order” |') + FALLBACK('Large order'));
  assert.deepEqual(diffContracts(plain, quoted).changes, [], 'quoting a scenario name is no change');
});
