// Arithmetic and the other spellings of the expression language (docs/contract-format.md §7.4,
// docs/dry-run.md): `+ - * /`, parentheses, `abs`/`min`/`max`/`len`, `&&`/`||`/`!`, lower-case
// `and`/`or`/`not`; division by zero and missing values make a test unknown, never false; each
// code span of a condition is checked on its own and prose around it is left alone.
// Run: node --import tsx --test test/expressionArithmetic.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, type Scope } from '../server/src/service/run/engine/expression.ts';
import { parseExpression, type Expr } from '../server/src/service/model/expression.ts';
import { conditionExpression } from '../server/src/service/model/condition.ts';
import { lintExample as lint } from './helpers/lintExample.ts';

const scope = (names: Record<string, unknown> = {}): Scope => ({ input: { query: 'q', entities: {} }, memory: {}, names: [names], file: () => undefined });
const ev = (text: string, names: Record<string, unknown> = {}) => {
  const r = parseExpression(text);
  assert.ok(r.ok, `${text}: ${r.ok ? '' : JSON.stringify(r.error)}`);
  return evaluate(r.expr, scope(names)).value;
};

test('arithmetic gates on the value of an order, not on a proxy', () => {
  assert.equal(ev('quantity * unit_price > 10000', { quantity: 5, unit_price: 2500 }), true);
  assert.equal(ev('quantity * unit_price > 10000', { quantity: 5000, unit_price: 1 }), false);
  assert.equal(ev('abs(delta_qty) * unit_cost > 5000', { delta_qty: -300, unit_cost: 20 }), true);
  assert.equal(ev('abs(delta_qty) * unit_cost > 5000', { delta_qty: 3, unit_cost: 20 }), false);
});

test('precedence, parentheses, unary minus and subtraction', () => {
  assert.equal(ev('1 + 2 * 3 = 7'), true);
  assert.equal(ev('(1 + 2) * 3 = 9'), true);
  assert.equal(ev('10 - 4 - 3 = 3'), true, 'left-associative');
  assert.equal(ev('12 / 3 / 2 = 2'), true);
  assert.equal(ev('x > -5', { x: -1 }), true);
  assert.equal(ev('-x = 3', { x: -3 }), true);
  assert.equal(ev('a-b = 1', { a: 3, b: 2 }), true);
  assert.equal(ev('total - refunded >= 0.5 * total', { total: 100, refunded: 40 }), true);
});

test('min, max and len; functions take their documented arguments', () => {
  assert.equal(ev('max(a, b, c) = 9', { a: 1, b: 9, c: 3 }), true);
  assert.equal(ev('min(a, b) < 0', { a: -1, b: 9 }), true);
  assert.equal(ev('max(items[*].price) > 100', { items: [{ price: 50 }, { price: 150 }] }), true);
  assert.equal(ev('len(lines) * 2 = 6', { lines: [1, 2, 3] }), true);
  assert.equal(parseExpression('abs(a, b) > 1').ok, false);
  assert.equal(parseExpression('max() > 1').ok, false);
});

test('division by zero, missing values and non-numbers are unknown, never false', () => {
  assert.equal(ev('a / b > 1', { a: 1, b: 0 }), 'unknown');
  assert.equal(ev('NOT (a / b > 1)', { a: 1, b: 0 }), 'unknown');
  assert.equal(ev('a / b > 1', { a: 1 }), 'unknown');
  assert.equal(ev('quantity * unit_price > 10000', { quantity: 'many', unit_price: 3 }), 'unknown');
  assert.equal(ev('max(a, b) > 1', { a: 1 }), 'unknown');
  assert.equal(ev('max(xs) > 1', { xs: [] }), 'unknown');
  assert.equal(ev('a / b > 1 OR c = 1', { a: 1, b: 0, c: 1 }), true, 'unknown OR true is true');
  assert.deepEqual(evaluate((parseExpression('a * b > 1') as { expr: Expr }).expr, scope({ a: 2 })).missing, ['b']);
});

test('&&, ||, !, lower-case and/or/not and != are the same operators', () => {
  assert.equal(ev('a > 1 && b > 1', { a: 2, b: 2 }), true);
  assert.equal(ev('a > 1 || b > 1', { a: 0, b: 2 }), true);
  assert.equal(ev('!(a > 1)', { a: 0 }), true);
  assert.equal(ev('a > 1 and not b = 1', { a: 2, b: 2 }), true);
  assert.equal(ev('a > 1 or b > 1', { a: 0, b: 0 }), false);
  assert.equal(ev('a != 1', { a: 2 }), true);
  assert.equal(ev('!flag', { flag: false }), true);
});

test('hostile arithmetic is bounded: long chains, deep nesting, huge numbers', () => {
  const chain = Array.from({ length: 1900 }, () => '1').join('+');
  assert.equal(ev(`${chain} = 1900`), true);
  assert.equal(parseExpression(`${'-'.repeat(3000)}1 > 0`).ok, false, 'nested too deeply');
  assert.equal(parseExpression(`${'abs('.repeat(500)}1${')'.repeat(500)} > 0`).ok, false);
  assert.equal(ev('a * a * a * a > 1', { a: 1e300 }), 'unknown', 'overflow is not a number');
});

test('a condition is arithmetic only when it tests something; a hyphenated name stays prose', () => {
  assert.equal(conditionExpression('`follow-up`'), undefined);
  assert.equal(conditionExpression('`a * b`'), undefined);
  assert.ok(conditionExpression('`quantity * unit_price > 10000`'));
});

test('code spans joined by and/or read as one expression; prose around a span stays prose', () => {
  const e = conditionExpression('`amount > 100` and `country != "FR"`');
  assert.ok(e);
  assert.equal(evaluate(e, scope({ amount: 200, country: 'DE' })).value, true);
  assert.equal(conditionExpression('`fraud_score >= 0.8` or the loss date is within 30 days of the policy\'s effective date'), undefined);
  assert.equal(conditionExpression('`urgency_reason` is empty'), undefined);
});

const FM = '---\ncontract: true\nname: demo\nversion: 1.0.0\n---\n';
const HITL = (...cells: string[]) => `${FM}\n## HUMAN_IN_THE_LOOP\n\n| Scenario | Trigger Condition | Required Action | SLA |\n|---|---|---|---|\n${cells.map((c, i) => `| S${i} | ${c} | Lead approves | 4h |`).join('\n')}\n`;
async function found(doc: string, code: string) {
  const lines = doc.split('\n');
  // condition-not-evaluated is in the strict preset only.
  return (await lint(doc, { config: { extends: 'strict' } })).diagnostics.filter((d) => d.code === code).map((d) => ({ line: lines[d.range.start.line]!, under: lines[d.range.start.line]!.slice(d.range.start.character, d.range.end.character), severity: d.severity, message: d.message }));
}

test('expression-syntax checks each code span on its own and leaves prose alone', async () => {
  const doc = HITL(
    "`fraud_score >= 0.8` or the loss date is within 30 days of the policy's effective date",
    '`a && b` or `c || !d`',
    '`quantity * unit_price > 10000`',
    '`abs(delta_qty) * unit_cost > 5000` and `min(a, b) != 0`',
    '`urgency_reason` is empty',
    '`amount > 100` or `amount >> 5`',
  );
  assert.deepEqual(
    (await found(doc, 'expression-syntax')).map((f) => f.under),
    ['> 5'],
  );
});

test('a condition the dry run cannot evaluate (an expression inside prose) gets one info, not a warning per span', async () => {
  const doc = HITL("`fraud_score >= 0.8` or the loss date is within 30 days of `effective_date > 3`", '`amount > 100` and `country != "FR"`', '`urgency_reason` is empty');
  const got = await found(doc, 'condition-not-evaluated');
  assert.equal(got.length, 1);
  assert.equal(got[0]!.severity, 'info');
  assert.match(got[0]!.line, /fraud_score/);
  assert.deepEqual(await found(doc, 'expression-syntax'), []);
});

test('FAILURE_PROTOCOL labels: one code span after If is an expression, one inside prose gets the info', async () => {
  const doc = `${FM}\n## FAILURE_PROTOCOL\n\n- **If \`retries >= 3\`**: → Stop → Return error_code \`RTY001\`\n- **If \`x > 1\` and \`y < 2\`**: → Stop → Return error_code \`RTY002\`\n- **If \`score > 0.8\` or the claim looks odd**: → Stop → Return error_code \`RTY003\`\n- **If \`retries >> 3\`**: → Stop → Return error_code \`RTY004\`\n`;
  const info = await found(doc, 'condition-not-evaluated');
  assert.deepEqual(info.map((f) => f.line.includes('RTY003')), [true]);
  assert.deepEqual((await found(doc, 'expression-syntax')).map((f) => f.under), ['> 3']);
});
