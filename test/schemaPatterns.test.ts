// User-written JSON Schemas (tool input and output schemas, run by the dry run) match `pattern`
// on RE2: a pattern that is catastrophic on a backtracking engine stays linear, and a pattern RE2
// cannot run is a compile problem of the schema, not a hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkJsonSchema, validateAgainst } from '../server/src/service/validate/ajv.ts';

test('a ReDoS pattern in a tool schema is matched on RE2 under every draft (linear time, not timed here)', () => {
  const hostile = `${'a'.repeat(5000)}!`;
  for (const $schema of [undefined, 'https://json-schema.org/draft/2019-09/schema', 'http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-06/schema#', 'http://json-schema.org/draft-04/schema#']) {
    const draft = $schema ? { $schema } : {};
    // Lookahead compiles on a backtracking engine, not on RE2: a compile problem proves the draft's class matches on RE2.
    const lookahead = checkJsonSchema({ ...draft, type: 'string', pattern: '^(?=a)a$' });
    assert.ok(lookahead.length === 1 && 'compileError' in lookahead[0]!, `${$schema}: ${JSON.stringify(lookahead)}`);
    // A backtracking engine would not return at all for this input; RE2 is linear in it.
    const schema = { ...draft, type: 'object', properties: { sku: { type: 'string', pattern: '^(a+)+$' } } };
    assert.deepEqual(validateAgainst(schema, { sku: hostile }).map((e) => e.keyword), ['pattern'], String($schema));
    assert.deepEqual(validateAgainst(schema, { sku: 'aaaa' }), []);
  }
});

test('patternProperties and case-insensitive flags go through RE2 too; lookaround is a compile problem', () => {
  assert.deepEqual(validateAgainst({ type: 'object', patternProperties: { '^x_': { type: 'number' } } }, { x_a: 'no' }).map((e) => e.keyword), ['type']);
  const problems = checkJsonSchema({ type: 'string', pattern: '^(?=a)a$' });
  assert.equal(problems.length, 1);
  assert.ok('compileError' in problems[0]!, JSON.stringify(problems));
});
