// Checkable ❌ boundaries in the dry run (docs/dry-run.md, "Boundaries"; docs/contract-format.md,
// "Checkable boundaries"): a call that would break an order, count, "only after success" or
// outright prohibition is refused before any human is asked or the mock answers; the trace
// records the refusal and the run ends with BOUNDARY_VIOLATED and the boundary's clause.
// Run: node --import tsx --test test/run-boundaries.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseContract } from '../server/src/service/index.ts';
import { readFileSync } from 'node:fs';
import { runQuery, scriptedDecisions } from '../server/src/service/run/engine/engine.ts';
import { boundaryForms } from '../server/src/service/model/boundaries.ts';
import { createScriptedModel } from '../server/src/service/run/llm/scriptedLlm.ts';
import type { HumanRequest } from '../server/src/service/run/engine/runTypes.ts';
import { describeEvent } from '../server/src/service/run/trace/timeline.ts';
import { CONTRACT, SNAPSHOT } from './helpers/dryRun.ts';
import { readSnapshot } from '../server/src/service/run/snapshot/snapshotValidate.ts';

/** CONTRACT with these ❌ items as its Hard Boundaries. */
const withBoundaries = (...items: string[]) => CONTRACT.replace('- **Core Mandate**: "Answer order questions from the order log."', `- **Core Mandate**: "Answer order questions from the order log."\n- **Hard Boundaries**:\n${items.map((i) => `  - ❌ ${i}`).join('\n')}`);

/** Runs one scripted query (YAML steps) on `contractText`; every question is approved. */
async function runSteps(contractText: string, steps: string) {
  const contract = parseContract(contractText);
  const text = SNAPSHOT.replace('  get_order:\n', '  get_order:\n    - match: { order_id: ORD-999 }\n      error: no such order\n').replace(/queries:[\s\S]*$/, `queries:\n  - id: q\n    query: refund order ORD-123\n    model:\n${steps}`);
  const r0 = readSnapshot(text, { contract });
  assert.ok(r0.snapshot, JSON.stringify(r0.diagnostics));
  const query = r0.snapshot.queries[0]!;
  const asked: HumanRequest[] = [];
  const r = await runQuery({ contract, query, now: '2024-06-12T08:00:00Z', provider: createScriptedModel(query.model), decide: async (req) => (asked.push(req), 'approve') });
  const refused = r.events.filter((e) => e.event_type === 'tool_result' && e.payload['code'] === 'BOUNDARY_VIOLATED');
  return { r, asked, refused, executed: r.events.filter((e) => e.event_type === 'tool_result' && e.status === 'success').map((e) => e.payload['tool']) };
}

const GET = (id = 'ORD-123') => `      - { call: get_order, arguments: { order_id: ${id} } }\n`;
const REFUND = (amount = 50) => `      - { call: refund_order, arguments: { order_id: ORD-123, amount: ${amount} } }\n`;
const FINAL = '      - final: { status: shipped }\n';

for (const [lang, item] of [
  ['English', 'Never call `refund_order` unless `get_order` succeeded'],
  ['Chinese', '只有在 `get_order` 成功之后才能调用 `refund_order`'],
] as const) {
  test(`"only after success" (${lang}): a refund before any successful lookup is refused, not executed, and no human is asked`, async () => {
    const { r, asked, refused, executed } = await runSteps(withBoundaries(item), REFUND() + FINAL);
    assert.equal(r.outcome.code, 'BOUNDARY_VIOLATED');
    assert.equal(r.outcome.clause?.pointer, '/identity/hard_boundaries/0');
    assert.deepEqual(r.outcome.args, { tool: 'refund_order', boundary: item, detail: 'no call of get_order has succeeded yet in this run' });
    assert.equal(refused.length, 1);
    assert.equal(refused[0]!.payload['pointer'], '/identity/hard_boundaries/0');
    assert.deepEqual(asked, []);
    assert.deepEqual(executed, []);
  });

  test(`"only after success" (${lang}): a failed lookup does not count, a successful one lets the refund run`, async () => {
    const failed = await runSteps(withBoundaries(item), GET('ORD-999') + REFUND() + FINAL);
    assert.equal(failed.r.outcome.code, 'BOUNDARY_VIOLATED');
    const ok = await runSteps(withBoundaries(item), GET() + REFUND() + FINAL);
    assert.equal(ok.r.outcome.code, 'OK', ok.r.outcome.message);
    assert.deepEqual(ok.executed, ['get_order', 'refund_order']);
  });
}

for (const [lang, item] of [
  ['English', 'Never call `refund_order` before `get_order`'],
  ['Chinese', '在 `get_order` 之前禁止调用 `refund_order`'],
] as const) {
  test(`order (${lang}): refused before any call of the first tool, allowed after one, even a failed one`, async () => {
    const before = await runSteps(withBoundaries(item), REFUND() + FINAL);
    assert.equal(before.r.outcome.code, 'BOUNDARY_VIOLATED');
    assert.deepEqual(before.r.outcome.args['detail'], 'get_order has not been called yet in this run');
    const after = await runSteps(withBoundaries(item), GET('ORD-999') + REFUND() + FINAL);
    assert.equal(after.r.outcome.code, 'OK', after.r.outcome.message);
    assert.deepEqual(after.executed, ['refund_order']);
  });
}

for (const [lang, item] of [
  ['English', 'Never call `refund_order` more than 2 times per run'],
  ['Chinese', '每次运行调用 `refund_order` 不得超过 2 次'],
] as const) {
  test(`count per run (${lang}): the third executed call is refused with the count in the trace`, async () => {
    const three = REFUND(10) + REFUND(20) + REFUND(30);
    const { r, refused, executed } = await runSteps(withBoundaries(item), three + FINAL);
    assert.deepEqual(executed, ['refund_order', 'refund_order']);
    assert.equal(r.outcome.code, 'BOUNDARY_VIOLATED');
    assert.equal(refused.length, 1);
    assert.equal(describeEvent(refused[0]!, 'en')[0]!.text, `refund_order → BOUNDARY_VIOLATED, not executed: refund_order already ran 2 times in this run, at most 2 allowed (hard boundary "${item}")`);
    assert.match(describeEvent(refused[0]!, 'zh-cn')[0]!.text, /未执行：refund_order 在本次运行中已执行 2 次，最多允许 2 次/);
    const two = await runSteps(withBoundaries(item), REFUND(10) + REFUND(20) + FINAL);
    assert.equal(two.r.outcome.code, 'OK', two.r.outcome.message);
  });
}

test('a declared tool a plain ❌ boundary forbids is refused at its first call (the linter reports the contradiction)', async () => {
  const { r, executed } = await runSteps(withBoundaries('Never call `refund_order`'), GET() + REFUND() + FINAL);
  assert.equal(r.outcome.code, 'BOUNDARY_VIOLATED');
  assert.equal(r.outcome.args['detail'], 'refund_order is forbidden');
  assert.deepEqual(executed, ['get_order']);
});

test('a boundary in prose that matches no checkable form is not enforced', async () => {
  const { r } = await runSteps(withBoundaries('Never call `refund_order` before lunch'), REFUND() + FINAL);
  assert.equal(r.outcome.code, 'OK', r.outcome.message);
});

test('the outcome message names the boundary, in English and Chinese', async () => {
  const { r } = await runSteps(withBoundaries('Never call `refund_order` before `get_order`'), REFUND() + FINAL);
  assert.equal(r.outcome.message, 'The model called refund_order, which the hard boundary "Never call `refund_order` before `get_order`" refuses: get_order has not been called yet in this run.');
  const end = r.events.find((e) => e.event_type === 'task_end')!;
  assert.equal(end.payload['pointer'], '/identity/hard_boundaries/0');
});

test('samples/device-diagnosis uses every form, and each query of its snapshot meets its expectations in process', async () => {
  const text = readFileSync(new URL('../samples/device-diagnosis/AGENTS.md', import.meta.url), 'utf8');
  const contract = parseContract(text);
  assert.deepEqual([...new Set(boundaryForms(contract).map((b) => b.kind))].sort(), ['after-success', 'count', 'forbid', 'order']);
  const read = readSnapshot(readFileSync(new URL('../samples/device-diagnosis/snapshots/diagnosis.snapshot.yaml', import.meta.url), 'utf8'), { contract });
  assert.ok(read.snapshot, JSON.stringify(read.diagnostics));
  const refused: string[] = [];
  for (const q of read.snapshot.queries) {
    const r = await runQuery({ contract, query: q, now: read.snapshot.now ?? '2024-06-20T06:00:00Z', provider: createScriptedModel(q.model), decide: scriptedDecisions(q.human) });
    const got = { outcome: r.outcome.status, code: r.outcome.code, ...(q.expect?.errorCode ? { errorCode: r.outcome.protocol?.errorCode } : {}), ...(q.expect?.tools ? { tools: r.stats.tools } : {}) };
    assert.deepEqual(got, { outcome: q.expect?.outcome, code: q.expect?.code, ...(q.expect?.errorCode ? { errorCode: q.expect.errorCode } : {}), ...(q.expect?.tools ? { tools: q.expect.tools } : {}) }, q.id);
    if (r.outcome.code === 'BOUNDARY_VIOLATED') refused.push(`${q.id}: ${r.outcome.clause?.pointer}`);
  }
  // Each limiting form refuses one query: the order, "only after success" and the count.
  assert.deepEqual(refused, ['ticket-before-manual: /identity/hard_boundaries/3', 'ticket-after-failed-lookup: /identity/hard_boundaries/4', 'third-manual-lookup: /identity/hard_boundaries/5']);
});

test('the Cedar check skips a call an order boundary refused (Cedar has no history), and still compares an outright prohibition', async () => {
  const { checkTrace } = await import('../server/src/node/cedarCheck.ts');
  const { cedarExport } = await import('../server/src/service/export/cedar.ts');
  const order = withBoundaries('Never call `refund_order` before `get_order`');
  const { r } = await runSteps(order, REFUND() + FINAL);
  assert.equal(r.outcome.code, 'BOUNDARY_VIOLATED');
  const x = cedarExport(parseContract(order), { file: 'AGENTS.md' });
  assert.deepEqual(checkTrace(x, { name: 't', events: r.events, data: {}, file: () => undefined }, new Set()), []);
  const never = withBoundaries('Never call `refund_order`');
  const banned = await runSteps(never, REFUND() + FINAL);
  const y = cedarExport(parseContract(never), { file: 'AGENTS.md', forbidden: [{ name: 'refund_order', line: 8 }] });
  const verdicts = checkTrace(y, { name: 't', events: banned.r.events, data: {}, file: () => undefined }, new Set(['refund_order']));
  assert.deepEqual(verdicts.map((v) => [v.tool, v.expected, v.cedar, v.verdict]), [['refund_order', 'refused', 'refused', 'equal']]);
});
