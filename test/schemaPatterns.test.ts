// User-written JSON Schemas (tool input and output schemas, run by the dry run) match `pattern`
// on RE2: a pattern that is catastrophic on a backtracking engine stays linear, and a pattern RE2
// cannot run is a compile problem of the schema, not a hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkJsonSchema, validateAgainst } from '../server/src/service/validate/ajv.ts';

test('a ReDoS pattern in a tool schema is matched in linear time', () => {
  const schema = { type: 'object', properties: { sku: { type: 'string', pattern: '^(a+)+$' } } };
  const hostile = `${'a'.repeat(5000)}!`;
  const t0 = performance.now();
  const errors = validateAgainst(schema, { sku: hostile });
  const ms = performance.now() - t0;
  assert.deepEqual(errors.map((e) => e.keyword), ['pattern']);
  // A backtracking engine would not return at all for this input; RE2 takes milliseconds.
  assert.ok(ms < 5000, `${ms} ms`);
  assert.deepEqual(validateAgainst(schema, { sku: 'aaaa' }), []);
});

test('patternProperties and case-insensitive flags go through RE2 too; lookaround is a compile problem', () => {
  assert.deepEqual(validateAgainst({ type: 'object', patternProperties: { '^x_': { type: 'number' } } }, { x_a: 'no' }).map((e) => e.keyword), ['type']);
  const problems = checkJsonSchema({ type: 'string', pattern: '^(?=a)a$' });
  assert.equal(problems.length, 1);
  assert.ok('compileError' in problems[0]!, JSON.stringify(problems));
});
