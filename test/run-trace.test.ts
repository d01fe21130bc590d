// The event-sourced trace in process (docs/dry-run.md): checksums chain the events, a
// changed or removed event is found, a torn last line is told apart from corruption, a replay
// from the trace equals the original run, and a fork keeps the prefix and goes on elsewhere.
// Run: node --import tsx --test test/run-trace.test.ts
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventLine, sameEvent, type TraceEvent } from '../server/src/service/run/trace/trace.ts';
import { verifyTrace } from '../server/src/service/run/trace/traceVerify.ts';
import { eventsUpTo, firstDifference, recordedDecisions, recordedProvider } from '../server/src/service/run/trace/replay.ts';
import { createScriptedModel } from '../server/src/service/run/llm/scriptedLlm.ts';
import { scriptedDecisions } from '../server/src/service/run/engine/engine.ts';
import { run, snapshot } from './helpers/dryRun.ts';

const REFUND = `  - id: refund\n    query: refund order ORD-123\n    model:\n      - { call: get_order, arguments: { order_id: ORD-123 } }\n      - { call: refund_order, arguments: { order_id: ORD-123, amount: 20 } }\n      - final: { status: shipped }\n    human: { refund_order: approve }\n`;

const text = (events: readonly TraceEvent[]) => events.map(eventLine).join('');

describe('trace verify', () => {
  test('a whole run verifies; every line is one event', async () => {
    const r = await run(snapshot(REFUND).queries[0]!);
    const t = text(r.events);
    assert.equal(t.split('\n').length - 1, r.events.length);
    const v = await verifyTrace(t);
    assert.deepEqual(v.problems, []);
    assert.equal(v.torn, undefined);
    assert.equal(v.complete, true);
    assert.equal(v.events.length, r.events.length);
  });

  test('a changed payload, a removed event and a malformed line are each found at their line', async () => {
    const r = await run(snapshot(REFUND).queries[0]!);
    const lines = text(r.events).split('\n');
    const changed = [...lines];
    changed[9] = changed[9]!.replace('"success"', '"failure"');
    const v1 = await verifyTrace(changed.join('\n'));
    assert.deepEqual(v1.problems.map((p) => `${p.line} ${p.messageId}`), ['10 trace.bad-checksum']);
    const removed = lines.filter((_, i) => i !== 5);
    const v2 = await verifyTrace(removed.join('\n'));
    assert.deepEqual(v2.problems.map((p) => `${p.line} ${p.messageId}`), ['6 trace.bad-prev', '6 trace.bad-checksum']);
    const garbled = [...lines];
    garbled[3] = '{"event_id": "evt_0004", oops';
    const v3 = await verifyTrace(garbled.join('\n'));
    assert.deepEqual(v3.problems.map((p) => `${p.line} ${p.messageId}`), ['4 trace.bad-json', '5 trace.bad-prev', '5 trace.bad-checksum']);
  });

  test('a truncated last line is torn, not corruption: every completed event stays intact', async () => {
    const r = await run(snapshot(REFUND).queries[0]!);
    const t = text(r.events);
    const lastLine = eventLine(r.events[r.events.length - 1]!);
    const cut = t.slice(0, t.length - lastLine.length + Math.floor(lastLine.length / 2));
    const v = await verifyTrace(cut);
    assert.deepEqual(v.problems, []);
    assert.equal(v.events.length, r.events.length - 1);
    assert.deepEqual(v.torn, { line: r.events.length, bytes: Buffer.byteLength(lastLine.slice(0, Math.floor(lastLine.length / 2))) });
    assert.equal(v.complete, false);
  });
});

describe('replay and fork', () => {
  test('a replay from the recorded model answers and decisions makes the same events', async () => {
    const q = snapshot(REFUND).queries[0]!;
    const original = await run(q);
    const replayed = await run(q, { provider: recordedProvider(original.events), decide: recordedDecisions(original.events) });
    assert.equal(firstDifference(original.events, replayed.events), undefined);
    assert.deepEqual(replayed.outcome, original.outcome);
    assert.deepEqual(replayed.stats.path, original.stats.path);
    assert.notEqual(replayed.events[0]!.timestamp, undefined);
  });

  test('a replay whose recorded answer was edited differs at that step', async () => {
    const q = snapshot(REFUND).queries[0]!;
    const original = await run(q);
    const edited = original.events.map((e) => (e.event_type === 'model_step' && e.payload['kind'] === 'final' ? { ...e, payload: { ...e.payload, text: '{"status": "lost"}' } } : e));
    const replayed = await run(q, { provider: recordedProvider(edited), decide: recordedDecisions(edited) });
    const diff = firstDifference(original.events, replayed.events);
    assert.ok(diff);
    assert.equal(original.events[diff.index - 1]!.event_type, 'model_step');
    assert.equal(replayed.outcome.code, 'SAFETY_VIOLATION');
  });

  test('a fork keeps the events up to its point, then goes on with new decisions in its own namespace', async () => {
    const q = snapshot(REFUND).queries[0]!;
    const original = await run(q);
    const pause = original.events.find((e) => e.event_type === 'human_input')!;
    const at = original.events[original.events.indexOf(pause) - 1]!.event_id;
    const prefix = eventsUpTo(original.events, at)!;
    const emitted: TraceEvent[] = [];
    const fork = await run(q, {
      provider: recordedProvider(prefix, createScriptedModel(q.model)),
      decide: recordedDecisions(prefix, async () => 'reject'),
      onEvent: (e) => void emitted.push(e),
      fork: { prefix, namespace: 'fork-1/', payload: { from: 'original', at } },
    });
    assert.equal(fork.outcome.code, 'HUMAN_REJECTED');
    assert.deepEqual(fork.events.slice(0, prefix.length), prefix, 'the prefix is the original, unchanged');
    assert.equal(emitted[0]!.event_type, 'fork');
    assert.equal(emitted[0]!.prev_event, at);
    assert.ok(emitted.every((e) => e.event_id.startsWith('fork-1/')), 'new events are in the fork namespace');
    const v = await verifyTrace(text(fork.events));
    assert.deepEqual(v.problems, [], 'the forked chain verifies');
    assert.equal(v.complete, true);
    assert.ok(original.events.slice(prefix.length).some((e, i) => !sameEvent(e, fork.events[prefix.length + 1 + i] ?? e)), 'the fork went another way');
  });

  test('a fork whose re-execution differs before the fork point says so', async () => {
    const q = snapshot(REFUND).queries[0]!;
    const original = await run(q);
    const prefix = eventsUpTo(original.events, original.events.find((e) => e.event_type === 'human_input')!.event_id)!;
    const other = snapshot(REFUND.replace('amount: 20', 'amount: 21')).queries[0]!;
    const { runQuery } = await import('../server/src/service/run/engine/engine.ts');
    const { contract } = await import('./helpers/dryRun.ts');
    const fork = await runQuery({ contract, query: other, now: '2024-06-12T08:00:00Z', provider: createScriptedModel(other.model), decide: scriptedDecisions(other.human), fork: { prefix, namespace: 'f/', payload: {} } });
    assert.ok(fork.divergence, 'divergence reported');
  });
});
