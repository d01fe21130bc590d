// The run's timeline tells the truth (docs/dry-run.md, "Reading a run"): codes printed once,
// "OK" that says what could not be checked, an answer shown as final only after its checks, the
// corrections the model is sent, loops, the values that broke a guard, HITL scenario names,
// readable numbers and times, and tool calls beyond the per-step limit dropped visibly.
// Run: node --import tsx --test test/run-timeline.test.ts
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEvent, shortNumber, shortTime } from '../server/src/service/run/trace/timeline.ts';
import type { TraceEvent } from '../server/src/service/run/trace/trace.ts';
import { run, snapshot } from './helpers/dryRun.ts';
import { createScriptedModel } from '../server/src/service/run/llm/scriptedLlm.ts';

const lines = (events: readonly TraceEvent[], lang = 'en') => events.flatMap((e) => describeEvent(e, lang).map((l) => ({ id: e.event_id, type: e.event_type, status: l.status, text: l.text })));
const q = (yaml: string) => snapshot(yaml).queries[0]!;

describe('the timeline', () => {
  test('an invalid call prints its code once and shows what the model is told', async () => {
    const r = await run(q(`  - id: r\n    query: where is order ORD-123\n    model:\n      - { call: get_order, arguments: { order_id: "123" } }\n      - { call: get_order, arguments: { order_id: ORD-123 } }\n      - final: { status: shipped }\n`));
    const bad = lines(r.events).find((l) => l.type === 'tool_result' && l.status === 'invalid')!;
    assert.equal(bad.text.split('INVALID_INPUT').length - 1, 1, bad.text);
    assert.match(bad.text, /the model is told: the arguments of get_order do not match/);
  });

  test('OK says how many checks could not be made; a fully checked answer does not', async () => {
    const r = await run(q(`  - id: ok\n    query: where is order ORD-123\n    model:\n      - final: { status: shipped }\n`));
    assert.equal(r.outcome.code, 'OK');
    assert.equal(r.outcome.messageId, 'outcome.OK.unchecked');
    assert.equal(r.outcome.args['unchecked'], 1, 'the guard "Be polite." has no check');
    assert.match(lines(r.events).find((l) => l.type === 'task_end')!.text, /every check the dry run could make .*1 could not be checked/);
  });

  test('text that is not JSON is not shown as a final answer; the correction is an event', async () => {
    const r = await run(q(`  - id: c\n    query: where is order ORD-123\n    model:\n      - final: "It is shipped."\n      - final: { status: shipped }\n`));
    const types = r.events.map((e) => `${e.event_type}:${e.status}`);
    const firstFinal = types.indexOf('final_output:invalid');
    assert.ok(firstFinal > types.indexOf('validation:invalid'), `the answer is judged after its format check: ${types.join(' ')}`);
    assert.equal(types[firstFinal + 1], 'correction:success');
    const l = lines(r.events);
    assert.match(l.find((x) => x.type === 'final_output' && x.status === 'invalid')!.text, /^answer not accepted \(OUTPUT_FORMAT_INVALID\): It is shipped\./);
    assert.match(l.find((x) => x.type === 'correction')!.text, /^the model is told: Your answer is not valid JSON/);
    assert.equal(l.filter((x) => x.type === 'final_output' && x.status === 'success').length, 1);
  });

  test('a loop shows the identical result on the second call and "not executed" on the third', async () => {
    const r = await run(q(`  - id: loop\n    query: where is order ORD-123\n    model:\n      - { call: get_order, arguments: { order_id: ORD-123 }, repeat: 5 }\n`));
    assert.equal(r.outcome.code, 'LOOP_DETECTED');
    const results = lines(r.events).filter((l) => l.type === 'tool_result');
    assert.equal(results.length, 3);
    assert.doesNotMatch(results[0]!.text, /identical/);
    assert.match(results[1]!.text, /identical to the previous call/);
    assert.equal(results[2]!.status, 'failure');
    assert.match(results[2]!.text, /LOOP_DETECTED, not executed: call number 3/);
  });

  test('a failed safety guard shows the values it read', async () => {
    const r = await run(q(`  - id: v\n    query: where is order ORD-123\n    model:\n      - final: { status: teleported }\n`));
    const guard = lines(r.events).find((l) => l.type === 'validation' && l.status === 'invalid')!;
    assert.match(guard.text, /output\.status = "teleported"/);
    assert.match(guard.text, /memory\.order_log\[\*\]\.status = \["paid","shipped"\]/);
  });

  test('a HITL condition is named by its scenario', async () => {
    const r = await run(q(`  - id: ok\n    query: where is order ORD-123\n    model:\n      - final: { status: shipped }\n`));
    const cond = lines(r.events).find((l) => l.type === 'condition')!;
    assert.equal(cond.text, 'HUMAN_IN_THE_LOOP "Big refund": condition "amount > 100" is unknown (missing: amount)');
    assert.match(lines(r.events, 'zh-cn').find((l) => l.type === 'condition')!.text, /Big refund/);
  });

  test('weights and times print in one readable form', () => {
    assert.equal(shortNumber(1 / 3), 0.333);
    assert.equal(shortNumber(0.8), 0.8);
    assert.equal(shortTime('2024-06-12T12:00:00+08:00'), '2024-06-12T04:00:00Z');
    assert.equal(shortTime('2024-06-12T04:00:00.250Z'), '2024-06-12T04:00:00Z');
    assert.equal(shortTime('never'), 'never');
  });

  test('time a human takes to decide is not simulated time', async () => {
    let now = 1_000_000;
    const query = q(`  - id: a\n    query: refund order ORD-123\n    model:\n      - { call: refund_order, arguments: { order_id: ORD-123, amount: 5 } }\n      - final: { status: paid }\n`);
    const r = await run(query, {
      clock: () => now,
      decide: async () => {
        now += 3_600_000;
        return 'approve';
      },
    });
    assert.equal(r.outcome.code, 'OK', 'an hour waiting for a human is not over the one-minute timeout');
    assert.ok(r.stats.elapsedMs < 60_000, `simulated ${r.stats.elapsedMs} ms`);
    const end = r.events.at(-1)!;
    assert.ok(Number((end.payload['timing'] as { real_ms: number }).real_ms) >= 3_600_000, 'the real time is still recorded');
  });

  test('tool calls beyond 64 in one step are dropped with an event, and the assistant message lists only the answered ids', async () => {
    const calls = Array.from({ length: 70 }, (_, i) => `          - { name: refund_order, arguments: { order_id: ORD-123, amount: ${i + 1} } }`).join('\n');
    const query = q(`  - id: many\n    query: refund order ORD-123\n    model:\n      - calls:\n${calls}\n      - final: { status: paid }\n    human: { refund_order: approve }\n`);
    let seen: { assistant: readonly string[]; answered: readonly string[] } | undefined;
    const scripted = createScriptedModel(query.model);
    const r = await run(query, {
      provider: {
        id: 'spy',
        step: (req) => {
          const a = req.messages.find((m) => m.role === 'assistant' && m.toolCalls);
          if (a) seen ??= { assistant: a.toolCalls!.map((c) => c.id), answered: req.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId!) };
          return scripted.step(req);
        },
      },
    });
    assert.equal(r.outcome.code, 'OK');
    const dropped = r.events.find((e) => e.event_type === 'validation' && e.payload['check_id'] === 'check.calls-per-step');
    assert.ok(dropped, 'a trace event records the dropped calls');
    assert.equal((dropped!.payload['dropped'] as string[]).length, 6);
    assert.match(lines([dropped!])[0]!.text, /^model: at most 64 tool calls per step failed: 6 calls dropped and not answered: /);
    assert.equal(seen!.assistant.length, 64, 'the assistant message lists only the answered calls');
    assert.deepEqual([...seen!.answered].sort(), [...seen!.assistant].sort(), 'every id listed has its answer');
    assert.equal(r.stats.tools.length, 64);
  });
});

describe('FAILURE_PROTOCOL forms', () => {
  test('an entry that says return `CODE` handles that outcome: protocol step, alert and error code', async () => {
    const { parseContract } = await import('../server/src/service/index.ts');
    const { CONTRACT } = await import('./helpers/dryRun.ts');
    for (const step of ['return `MEMORY_UNAVAILABLE`', 'Return `MEMORY_UNAVAILABLE`', '返回 `MEMORY_UNAVAILABLE`']) {
      const text = CONTRACT.replace('→ Return error_code `MEMORY_UNAVAILABLE`', `→ ${step}`);
      assert.notEqual(text, CONTRACT);
      const query = q(`  - id: down\n    query: where is order ORD-123\n    pools: { order_log: { status: unavailable } }\n`);
      const r = await run(query, { contract: parseContract(text) });
      assert.equal(r.outcome.code, 'MEMORY_UNAVAILABLE', step);
      assert.equal(r.outcome.protocol?.errorCode, 'MEMORY_UNAVAILABLE', step);
      assert.ok(r.events.some((e) => e.event_type === 'protocol'), `${step}: a protocol step`);
      assert.ok(r.events.some((e) => e.event_type === 'alert' && e.payload['channel'] === '#orders'), `${step}: an alert`);
    }
  });
});

describe('eval assertions', () => {
  test('answer, trajectory, calls and clauses: met, and missed with what the run did', async () => {
    const { checkExpectation } = await import('../server/src/service/run/eval/evaluate.ts');
    const query = q(`  - id: a\n    query: refund order ORD-123\n    model:\n      - { call: get_order, arguments: { order_id: ORD-123 } }\n      - { call: refund_order, arguments: { order_id: ORD-123, amount: 500 } }\n      - final: { status: shipped }\n    human: { Big refund: approve }\n`);
    const r = await run(query);
    assert.equal(r.outcome.code, 'OK');
    const met = checkExpectation(
      {
        answer: { equals: { status: 'shipped' }, contains: 'shipped', schema: { type: 'object', required: ['status'] }, check: "output.status = 'shipped'" },
        trajectory: { tools: ['refund_order', 'get_order'], order: 'any_order' },
        calls: [{ tool: 'refund_order', arguments: { amount: 500 } }],
        clauses: ['/human_in_the_loop/0'],
      },
      r,
    );
    assert.deepEqual(met, []);
    assert.deepEqual(checkExpectation({ trajectory: { tools: ['refund_order'], order: 'in_order' } }, r), []);
    const missed = checkExpectation(
      {
        answer: { equals: { status: 'paid' }, contains: 'lost', schema: { type: 'object', required: ['refund_id'] }, check: "output.status = 'paid'" },
        trajectory: { tools: ['refund_order', 'get_order'], order: 'exact' },
        calls: [{ tool: 'refund_order', arguments: { amount: 5 } }, { tool: 'cancel_order' }],
        clauses: ['/failure_protocol/1'],
      },
      r,
    );
    assert.deepEqual(
      missed.map((m) => `${m.field}: expected ${m.expected}, got ${m.actual}`),
      [
        'answer: expected = {"status":"paid"}, got {"status":"shipped"}',
        'answer: expected containing "lost", got {"status":"shipped"}',
        'answer: expected schema, got {"status":"shipped"} (/ must have property refund_id)',
        "answer: expected check output.status = 'paid', got false",
        'trajectory: expected exact [refund_order, get_order], got [get_order, refund_order]',
        'call: expected refund_order {"amount":5}, got {"order_id":"ORD-123","amount":500}',
        'call: expected cancel_order, got not called',
        'clause: expected /failure_protocol/1, got /human_in_the_loop/0',
      ],
    );
  });

  test('the snapshot schema accepts the assertions and rejects unknown ones', async () => {
    const { readSnapshot } = await import('../server/src/service/run/snapshot/snapshotValidate.ts');
    const { contract, SNAPSHOT } = await import('./helpers/dryRun.ts');
    const good = readSnapshot(`${SNAPSHOT}    expect:\n      answer: { check: "output.status = 'shipped'" }\n      trajectory: { tools: [get_order], order: in_order }\n      calls: [{ tool: get_order, arguments: { order_id: ORD-123 } }]\n      clauses: [/human_in_the_loop/0]\n`, { contract });
    assert.deepEqual(good.diagnostics.filter((d) => d.severity === 'error'), []);
    assert.equal(good.snapshot?.queries[0]?.expect?.trajectory?.order, 'in_order');
    const bad = readSnapshot(`${SNAPSHOT}    expect:\n      trajectory: { tools: [get_order], order: sideways }\n`, { contract });
    assert.ok(bad.diagnostics.some((d) => d.severity === 'error'));
  });
});

describe('JUnit output', () => {
  test('one testsuite per snapshot, one testcase per query, failures with every mismatch, escaped', async () => {
    const { junitXml } = await import('../server/src/cli/format/junit.ts');
    const base = { status: 'success', code: 'OK', steps: 1, tokens: 10, humanDecisions: 0, path: ['final'] };
    const xml = junitXml('20261201T000000000Z-eval', [
      { ...base, key: 'a#ok', snapshot: 'snapshots/a.snapshot.yaml', query: 'ok', mismatches: [], trace: '.agents-md/runs/x/a--ok.jsonl' },
      { ...base, key: 'a#bad', snapshot: 'snapshots/a.snapshot.yaml', query: 'bad <&>', status: 'failure', code: 'SAFETY_VIOLATION', mismatches: [{ field: 'code', expected: 'OK', actual: 'SAFETY_VIOLATION' }, { field: 'answer', expected: 'containing "x"', actual: '{"a":1}' }] },
      { ...base, key: 'b#ok', snapshot: 'snapshots/b.snapshot.yaml', query: 'ok', mismatches: [] },
    ], (m) => `expected ${m.field} ${m.expected}, got ${m.actual}`);
    assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="agents-md eval 20261201T000000000Z-eval" tests="3" failures="1">\n/);
    assert.equal(xml.match(/<testsuite /g)?.length, 2);
    assert.match(xml, /<testsuite name="snapshots\/a.snapshot.yaml" tests="2" failures="1">/);
    assert.match(xml, /<testcase classname="snapshots\/a.snapshot.yaml" name="bad &lt;&amp;&gt;">\n {6}<failure message="expected code OK, got SAFETY_VIOLATION" type="code">failure SAFETY_VIOLATION\nexpected code OK, got SAFETY_VIOLATION\nexpected answer containing &quot;x&quot;, got \{&quot;a&quot;:1\}<\/failure>/);
    assert.match(xml, /<system-out>trace: .agents-md\/runs\/x\/a--ok.jsonl<\/system-out>/);
    assert.equal(xml.match(/<testcase /g)?.length, xml.match(/<\/testcase>/g)?.length);
  });
});

describe('numbers read right in both languages', () => {
  test('one model step, one record, one pool, one tool: singular in English, counted in Chinese', async () => {
    const { runMessage } = await import('../server/src/service/run/runMessage.ts');
    assert.equal(runMessage('outcome.OK', { steps: 1 }, 'en'), 'The answer passed every check after 1 model step.');
    assert.equal(runMessage('outcome.OK', { steps: 2 }, 'en'), 'The answer passed every check after 2 model steps.');
    assert.match(runMessage('outcome.OK.unchecked', { steps: 1, unchecked: 1 }, 'en'), /after 1 model step;/);
    assert.equal(runMessage('timeline.context_assembly', { records: 1, pools: 1, chars: 1 }, 'en'), 'context: 1 record from 1 pool, 1 character');
    assert.equal(runMessage('timeline.prompt', { chars: 900, tools: 1 }, 'en'), 'system prompt: 900 characters, 1 tool (full text in the trace)');
    assert.equal(runMessage('eval.summary', { passed: 1, total: 1, failed: 0 }, 'en'), '1 of 1 query met their expectations (0 failed).');
    assert.doesNotMatch(runMessage('outcome.OK', { steps: 1 }, 'zh-cn'), /[{}#]|plural/);
    assert.match(runMessage('outcome.OK', { steps: 1 }, 'zh-cn'), /1/);
  });
});
