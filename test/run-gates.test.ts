// Gates per call (docs/dry-run.md §3): an approval binds to the call it was asked for (the tool,
// its arguments when the condition reads them, and the condition's values); a later call whose
// condition holds asks again; `Scope: run` asks once per run; the trace shows every decision and
// the scope, and a replay from the trace takes the same path.
// Run: node --import tsx --test test/run-gates.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseContract } from '../server/src/service/index.ts';
import { runQuery } from '../server/src/service/run/engine/engine.ts';
import { createScriptedModel } from '../server/src/service/run/llm/scriptedLlm.ts';
import { recordedDecisions, firstDifference } from '../server/src/service/run/trace/replay.ts';
import type { HumanRequest } from '../server/src/service/run/engine/runTypes.ts';
import type { HumanDecision } from '../server/src/service/run/snapshot/snapshot.ts';
import { describeEvent } from '../server/src/service/run/trace/timeline.ts';
import { CONTRACT, snapshot } from './helpers/dryRun.ts';

const TWO_REFUNDS = `  - id: two
    query: refund order ORD-123
    model:
      - { call: refund_order, arguments: { order_id: ORD-123, amount: 600 } }
      - { call: refund_order, arguments: { order_id: ORD-124, amount: 9000 } }
      - final: { status: shipped }
`;

/** Runs the two-refund query on `contractText`, answering pauses in turn with `answers`; returns the run and what was asked. */
async function twoRefunds(contractText: string, answers: HumanDecision[]) {
  const contract = parseContract(contractText);
  const query = snapshot(TWO_REFUNDS).queries[0]!;
  const asked: HumanRequest[] = [];
  const r = await runQuery({ contract, query, now: '2024-06-12T08:00:00Z', provider: createScriptedModel(query.model), decide: async (req) => (asked.push(req), answers[asked.length - 1] ?? 'timeout') });
  return { r, asked, contract, query };
}

const pauses = (events: readonly { event_type: string; payload: Record<string, unknown> }[]) => events.filter((e) => e.event_type === 'human_input').map((e) => ({ subject: e.payload['subject'], kind: e.payload['kind'], scope: e.payload['scope'], amount: (e.payload['arguments'] as { amount?: number } | undefined)?.amount }));
const decisions = (events: readonly { event_type: string; payload: Record<string, unknown> }[]) => events.filter((e) => e.event_type === 'human_response').map((e) => e.payload['decision']);

test('a second gated call asks again: approving a refund of 600 does not approve one of 9000', async () => {
  const { r } = await twoRefunds(CONTRACT, ['approve', 'reject']);
  // The row's approval is also the call's approval (refund_order requires approval): one pause per call.
  assert.deepEqual(
    pauses(r.events).filter((p) => p.kind === 'hitl'),
    [
      { subject: 'Big refund', kind: 'hitl', scope: 'call', amount: 600 },
      { subject: 'Big refund', kind: 'hitl', scope: 'call', amount: 9000 },
    ],
  );
  assert.equal(r.outcome.code, 'HUMAN_REJECTED');
  assert.deepEqual(decisions(r.events), ['approve', 'reject']);
});

test('the trace shows both decisions and the values each approval was bound to', async () => {
  const { r } = await twoRefunds(CONTRACT, ['approve', 'approve', 'approve', 'approve']);
  assert.equal(r.outcome.code, 'OK');
  const hitl = r.events.filter((e) => e.event_type === 'human_input' && e.payload['kind'] === 'hitl');
  assert.deepEqual(hitl.map((e) => e.payload['binding']), [{ tool: 'refund_order', arguments: { order_id: 'ORD-123', amount: 600 }, values: { amount: 600 } }, { tool: 'refund_order', arguments: { order_id: 'ORD-124', amount: 9000 }, values: { amount: 9000 } }]);
  assert.deepEqual(decisions(r.events), ['approve', 'approve']);
});

test('Scope: run asks once per run and says so in the trace', async () => {
  const perRun = CONTRACT.replace('| Scenario | Trigger Condition | Required Action | SLA | On Timeout |\n|---|---|---|---|---|\n| Big refund | `amount > 100` | A manager approves | 4h | reject |', '| Scenario | Trigger Condition | Required Action | SLA | On Timeout | Scope |\n|---|---|---|---|---|---|\n| Big refund | `amount > 100` | A manager approves | 4h | reject | run |');
  assert.notEqual(perRun, CONTRACT);
  const { r } = await twoRefunds(perRun, ['approve', 'approve', 'approve']);
  assert.deepEqual(
    pauses(r.events).filter((p) => p.kind === 'hitl'),
    [{ subject: 'Big refund', kind: 'hitl', scope: 'run', amount: 600 }],
  );
  assert.equal(r.outcome.code, 'OK');
  const pause = r.events.find((e) => e.event_type === 'human_input')!;
  assert.equal(describeEvent(pause, 'en')[0]!.text, 'paused for a human: Big refund (HUMAN_IN_THE_LOOP condition amount > 100; SLA 4h; one approval covers the whole run)');
  assert.match(describeEvent(pause, 'zh-cn')[0]!.text, /一次批准覆盖整个运行/);
});

test('the same call again (a retry with the same arguments) is covered by its approval', async () => {
  const contract = parseContract(CONTRACT);
  const query = snapshot(`  - id: retry
    query: refund order ORD-123
    model:
      - { call: refund_order, arguments: { order_id: ORD-123, amount: 600 } }
      - { call: refund_order, arguments: { order_id: ORD-123, amount: 600 } }
      - final: { status: shipped }
`).queries[0]!;
  const asked: HumanRequest[] = [];
  const r = await runQuery({ contract, query, now: '2024-06-12T08:00:00Z', provider: createScriptedModel(query.model), decide: async (req) => (asked.push(req), 'approve') });
  assert.equal(asked.filter((a) => a.kind === 'hitl').length, 1);
  assert.equal(r.outcome.code, 'OK');
});

test('a replay from the trace answers both pauses as recorded and takes the same path', async () => {
  const { r, contract, query } = await twoRefunds(CONTRACT, ['approve', 'reject']);
  const again = await runQuery({ contract, query, now: '2024-06-12T08:00:00Z', provider: createScriptedModel(query.model), decide: recordedDecisions(r.events) });
  assert.equal(again.outcome.code, 'HUMAN_REJECTED');
  assert.equal(firstDifference(r.events, again.events), undefined);
});

test('an arithmetic gate pauses on the value it computes; a division by zero is unknown, shown on the final answer, never false', async () => {
  const byValue = CONTRACT.replace('| Big refund | `amount > 100` |', '| Big refund | `amount * 10 / divisor > 1000` |');
  const query = snapshot(`  - id: a
    query: refund order ORD-123
    data: { divisor: 0 }
    model:
      - { call: refund_order, arguments: { order_id: ORD-123, amount: 600 } }
      - final: { status: shipped }
`).queries[0]!;
  const contract = parseContract(byValue);
  const zero = await runQuery({ contract, query, now: '2024-06-12T08:00:00Z', provider: createScriptedModel(query.model), decide: async () => 'approve' });
  const conditions = zero.events.filter((e) => e.event_type === 'condition').map((e) => `${e.payload['where']}:${e.payload['state']}`);
  assert.deepEqual(conditions, ['final:unknown']);
  assert.equal(zero.events.filter((e) => e.event_type === 'human_input' && e.payload['kind'] === 'hitl').length, 0);
  const two = await runQuery({ contract, query: { ...query, data: { divisor: 2 } }, now: '2024-06-12T08:00:00Z', provider: createScriptedModel(query.model), decide: async () => 'approve' });
  assert.deepEqual(two.events.filter((e) => e.event_type === 'human_input').map((e) => e.payload['subject']), ['Big refund']);
});
