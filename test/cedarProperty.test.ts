/**
 * The Cedar translation of conditions (service/export/cedarExpr.ts) decides as the dry run's
 * evaluator (run/engine/expression.ts), property-tested with fast-check: for random conditions over
 * arguments and request names, some of them missing, the HITL row holds a call back in Cedar
 * (official engine) exactly when the dry run finds the condition true.
 * Run: node --import tsx --test test/cedarProperty.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { cedarExport, parseContract } from '../server/src/service/index.ts';
import { conditionExpression } from '../server/src/service/model/condition.ts';
import { evaluate } from '../server/src/service/run/engine/expression.ts';
import { decideCall } from '../server/src/node/cedarEngine.ts';

const leaf = fc.oneof(
  fc.tuple(fc.constantFrom('amount', 'limit'), fc.constantFrom('=', '!=', '<', '<=', '>', '>='), fc.integer({ min: -3, max: 3 })).map(([n, op, v]) => `${n} ${op} ${v}`),
  fc.tuple(fc.constantFrom('IN', 'NOT IN'), fc.subarray(['a', 'b', 'c'])).map(([op, xs]) => `country ${op} [${xs.map((x) => `'${x}'`).join(', ')}]`),
  fc.tuple(fc.constantFrom('amount', 'country', 'limit'), fc.constantFrom('IS NULL', 'IS NOT NULL')).map(([n, t]) => `${n} ${t}`),
);
const condition: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof({ maxDepth: 3, depthIdentifier: 'e' }, leaf, tie('e').map((x) => `NOT (${x})`), fc.tuple(tie('e'), fc.constantFrom('AND', 'OR'), tie('e')).map(([a, op, b]) => `(${a}) ${op} (${b})`)),
})).e;
const values = fc.record({ amount: fc.integer({ min: -3, max: 3 }), country: fc.constantFrom('a', 'b', 'z') }, { requiredKeys: [] });
const names = fc.record({ limit: fc.integer({ min: -3, max: 3 }), amount: fc.integer({ min: -3, max: 3 }) }, { requiredKeys: [] });

const contract = (cond: string) => ['---', 'contract: true', 'name: prop', 'version: 1.0.0', '---', '', '## TOOLS', '', '### `pay`', '', '- **Description**: Pays.', '- **Side Effects**: write', '- **Input Schema**:', '  ```json', '  { "type": "object", "properties": { "amount": { "type": "integer" }, "country": { "type": "string" } } }', '  ```', '', '## HUMAN_IN_THE_LOOP', '', '| Scenario | Trigger Condition | Required Action | SLA | On Timeout |', '|---|---|---|---|---|', `| Check | \`${cond}\` | A human signs off | 4h | reject |`, ''].join('\n');

test('a translated condition holds a call back exactly when the dry run finds it true (unknowns included)', () => {
  let compared = 0;
  let heldBack = 0;
  fc.assert(
    fc.property(condition, values, names, (cond, args, request) => {
      const model = parseContract(contract(cond));
      const expr = conditionExpression(cond)!;
      const x = cedarExport(model, { file: 'AGENTS.md' });
      // `limit` may have no type yet when no comparison names it: the row then requires a human.
      if (x.humans.length > 0) return;
      const truth = evaluate(expr, { input: { query: '', entities: {} }, memory: {}, names: [args, request], file: () => undefined }).value;
      const got = decideCall(x, { tool: 'pay', args, names: request, approvals: new Set(), files: new Map() });
      compared++;
      if (got.decision === 'human') heldBack++;
      assert.equal(got.decision, truth === true ? 'human' : 'allowed', `${cond} ${JSON.stringify(args)} ${JSON.stringify(request)}: dry run ${truth}`);
    }),
    { numRuns: 150 },
  );
  // Most conditions are translated, and both decisions occur: the property is not vacuous.
  assert.ok(compared >= 100 && heldBack >= 20 && compared - heldBack >= 20, `${compared} compared, ${heldBack} held back`);
});
