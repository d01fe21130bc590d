// The dry-run engine in process (docs/dry-run.md): pipeline order and outcomes, retrieval, the
// expression language, budgets that end every run, cancellation, streaming, asynchronous human
// decisions, PII redaction and hostile patterns. The CLI and the sample snapshots are tested in
// test/run-cli.test.ts.
// Run: node --import tsx --test test/run-engine.test.ts
import { describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { evaluate, type Scope } from '../server/src/service/run/engine/expression.ts';
import { parseExpression } from '../server/src/service/model/expression.ts';
import { conditionExpression } from '../server/src/service/model/condition.ts';
import { resolveTemplate, retrieve } from '../server/src/service/run/engine/retrieval.ts';
import { parseCsv, resourceValues } from '../server/src/service/run/engine/resourceValues.ts';
import { ModelError, type ModelProvider } from '../server/src/service/run/llm/llmProvider.ts';
import { OUTCOME_CODES, MESSAGES } from '../server/src/service/run/messages.ts';
import { template } from '../server/src/service/l10n/format.ts';
import { RUN_PREFIX, runMessage } from '../server/src/service/run/runMessage.ts';
import { EVENT_TYPES } from '../server/src/service/run/trace/trace.ts';
import { describeEvent } from '../server/src/service/run/trace/timeline.ts';
import { parseContract } from '../server/src/service/index.ts';
import { CONTRACT, contract, run, snapshot } from './helpers/dryRun.ts';

const scope = (names: Record<string, unknown> = {}, output?: unknown, files: Record<string, string> = {}): Scope => ({
  ...(output !== undefined ? { output } : {}),
  input: { query: 'q', entities: { device_id: 'A-207' } },
  memory: { kb: [{ root_cause: 'fuse' }, { root_cause: 'fan' }, { other: 1 }] },
  names: [names],
  file: (n) => (files[n] === undefined ? undefined : resourceValues(n, files[n]!)),
});

describe('the expression language', () => {
  test('comparisons, membership, files, wildcards, functions and three-valued logic', () => {
    const ev = (text: string, s: Scope) => {
      const r = parseExpression(text);
      assert.ok(r.ok, `${text}: ${r.ok ? '' : r.error}`);
      return evaluate(r.expr, s).value;
    };
    const csv = { 'vendors.csv': 'vendor_name,domain\nDell,dell.com\n"Lenovo, Inc",lenovo.com\n' };
    assert.equal(ev('amount > 50000', scope({ amount: 80000 })), true);
    assert.equal(ev('amount > 50000', scope({ amount: 800 })), false);
    assert.equal(ev('amount > 50000', scope({})), 'unknown');
    assert.equal(ev('vendor_domain NOT IN vendors.csv', scope({ vendor_domain: 'dell.com' }, undefined, csv)), false);
    assert.equal(ev('vendor_domain NOT IN vendors.csv', scope({ vendor_domain: 'acme.io' }, undefined, csv)), true);
    assert.equal(ev("output.v IN vendors.csv OR output.v = ['ALL_APPROVED']", scope({}, { v: ['Dell', 'Lenovo, Inc'] }, csv)), true);
    assert.equal(ev("output.v IN vendors.csv OR output.v = ['ALL_APPROVED']", scope({}, { v: ['ALL_APPROVED'] }, csv)), true);
    assert.equal(ev("output.v IN vendors.csv OR output.v = ['ALL_APPROVED']", scope({}, { v: ['Acme'] }, csv)), false);
    assert.equal(ev('output.c IN memory.kb[*].root_cause', scope({}, { c: 'fan' })), true);
    assert.equal(ev('output.c IN memory.kb[*].root_cause', scope({}, { c: 'board' })), false);
    assert.equal(ev('len(output.w) > 0', scope({}, { w: ['x'] })), true);
    assert.equal(ev("country IN ['XXX', 'YYY']", scope({})), 'unknown');
    assert.equal(ev("country IN ['XXX', 'YYY'] AND 1 = 2", scope({})), false, 'false AND unknown is false');
    assert.equal(ev("lower(name) MATCHES '^a.+e$'", scope({ name: 'ALICE' })), true);
    assert.equal(ev('x IS NULL', scope({ x: null })), true);
    assert.equal(ev('NOT (a = 1)', scope({ a: 2 })), true);
    assert.equal(ev('input.entities.device_id = "A-207"', scope()), true);
    assert.equal(ev("urgency_reason = ''", scope({ urgency_reason: '' })), true);
  });

  test('prose is not an expression; bare names and syntax errors are prose', () => {
    for (const prose of ['表格完成且准备发布', 'Large purchase', 'LLM returns non-JSON where JSON required', '`urgency_reason` is empty on an urgent request', 'a > ']) {
      assert.equal(conditionExpression(prose), undefined, prose);
    }
    assert.ok(conditionExpression('`amount > 50000`'));
    assert.ok(conditionExpression('vendor_domain NOT IN vendor_whitelist.csv'));
  });

  test('hostile expressions are bounded: deep nesting, long text and catastrophic MATCHES patterns', () => {
    assert.equal(parseExpression(`${'('.repeat(5000)}1${')'.repeat(5000)}`).ok, false);
    assert.equal(parseExpression(`a = ${'1'.repeat(5000)}`).ok, false);
    const r = parseExpression("s MATCHES '^(a+)+$'");
    assert.ok(r.ok);
    assert.equal(evaluate(r.expr, scope({ s: `${'a'.repeat(100_000)}!` })).value, false);
  });

  test('CSV, JSON and text resources', () => {
    assert.deepEqual(parseCsv('a,b\r\n"x, y","say ""hi"""\n'), [['a', 'b'], ['x, y', 'say "hi"']]);
    assert.deepEqual(resourceValues('l.json', '["a", 2]'), ['a', 2]);
    assert.deepEqual(resourceValues('l.txt', 'a\n\n b \n'), ['a', 'b']);
  });
});

describe('retrieval', () => {
  test('templates, prefix filters, newest first, top_k', () => {
    assert.deepEqual(resolveTemplate('{{extracted_error_code[:3]}}', { error_code: 'E773' }, 'q'), { value: 'E77' });
    assert.deepEqual(resolveTemplate('{{ extracted_x }}', {}, 'q'), { missing: 'x' });
    const records = [
      { id: 1, error_code: 'E773', timestamp: '2024-06-01T00:00:00Z' },
      { id: 2, error_code: 'E771', timestamp: '2024-06-03T00:00:00Z' },
      { id: 3, error_code: 'E520', timestamp: '2024-06-04T00:00:00Z' },
      { id: 4, error_code_prefix: 'E77', timestamp: '2024-06-02T00:00:00Z' },
    ];
    const r = retrieve(records, [{ field: 'error_code_prefix', value: 'E77' }], 2);
    assert.deepEqual(r.records.map((x) => x.id), [2, 4]);
    assert.equal(r.matched, 3);
    assert.equal(r.total, 4);
  });
});

describe('the pipeline', () => {
  test('happy path: events in pipeline order, answer verified, guards checked or shown as not checkable', async () => {
    const q = snapshot().queries[0]!;
    const r = await run(q);
    assert.equal(r.outcome.code, 'OK');
    assert.equal(r.outcome.status, 'success');
    assert.deepEqual(r.answer, { status: 'shipped' });
    const types = r.events.map((e) => e.event_type);
    const order = ['task_start', 'trigger_match', 'entity_extraction', 'memory_check', 'memory_retrieval', 'context_assembly', 'prompt', 'model_step', 'tool_call', 'validation', 'tool_result', 'final_output', 'task_end'];
    let at = 0;
    for (const t of types) if (t === order[at]) at++;
    assert.equal(at, order.length, `events in order: ${types.join(' ')}`);
    const retrieval = r.events.find((e) => e.event_type === 'memory_retrieval' && e.payload['pool'] === 'order_log')!;
    assert.deepEqual((retrieval.payload['records'] as { order_id: string }[]).map((x) => x.order_id), ['ORD-124', 'ORD-123']);
    const guards = r.events.filter((e) => e.event_type === 'validation' && e.payload['check_id'] === 'check.guard');
    assert.deepEqual(guards.map((g) => g.status), ['success', 'skipped']);
    const prompt = r.events.find((e) => e.event_type === 'prompt')!;
    assert.match(String(prompt.payload['text']), /You are DemoAgent\./);
    assert.match(String(prompt.payload['text']), /get_order: Returns one order\./);
    assert.deepEqual(r.stats.tools, ['get_order']);
    assert.deepEqual(r.stats.path, ['tool:get_order', 'final']);
  });

  test('every outcome points at its clause, and a FAILURE_PROTOCOL entry with the same code handles it', async () => {
    const q = snapshot(`  - id: down\n    query: where is order ORD-123\n    pools: { order_log: { status: unavailable } }\n`).queries[0]!;
    const r = await run(q);
    assert.equal(r.outcome.code, 'MEMORY_UNAVAILABLE');
    assert.equal(r.outcome.clause?.pointer, '/memory_requirements/0');
    assert.ok(r.outcome.clause?.range, 'the clause has a range in the contract');
    assert.equal(r.outcome.protocol?.errorCode, 'MEMORY_UNAVAILABLE');
    assert.ok(r.events.some((e) => e.event_type === 'alert' && e.payload['channel'] === '#orders'));
    assert.equal(r.events.filter((e) => e.event_type === 'model_step').length, 0, 'no reasoning after a boot failure');
  });

  test('freshness: past the stale-after time, data not updated today is stale', async () => {
    const q = snapshot().queries[0]!;
    assert.equal((await run(q, {}, '2024-06-12T06:59:00Z')).outcome.code, 'OK', 'before 07:00 the 04:00 update counts');
    assert.equal((await run(q, {}, '2024-06-13T07:30:00Z')).outcome.code, 'MEMORY_STALE');
    assert.equal((await run(q, {}, '2024-06-13T06:30:00Z')).outcome.code, 'OK', 'yesterday\'s update counts until 07:00');
  });

  test('INVALID_INPUT goes back to the model with expected and got; three in a row end the run', async () => {
    const recovered = snapshot(`  - id: r\n    query: where is order ORD-123\n    model:\n      - { call: get_order, arguments: { order_id: "123" } }\n      - { call: get_order, arguments: { order_id: ORD-123 } }\n      - final: { status: shipped }\n`).queries[0]!;
    let seen = '';
    const r = await run(recovered, {
      provider: {
        id: 'spy',
        step: async (req) => {
          const last = req.messages[req.messages.length - 1]!;
          if (last.role === 'tool' && !seen) seen = last.content;
          const { createScriptedModel } = await import('../server/src/service/run/llm/scriptedLlm.ts');
          return createScriptedModel(recovered.model).step(req);
        },
      },
    });
    assert.equal(r.outcome.code, 'OK');
    assert.match(seen, /^INVALID_INPUT: .*Expected: \/order_id must match pattern "\^ORD-\\d\+\$"\. Got: "123"\./);
    const exhausted = snapshot(`  - id: x\n    query: where is order ORD-123\n    model:\n      - { call: get_order, raw_arguments: "{oops" }\n      - { call: get_order, arguments: {} }\n      - { call: get_order, arguments: { order_id: 7 } }\n`).queries[0]!;
    const x = await run(exhausted);
    assert.equal(x.outcome.code, 'INVALID_INPUT');
    assert.equal(x.outcome.clause?.pointer, '/tools/0/input_schema');
  });

  test('a HITL row fires on a tool call\'s arguments; rejection ends with HUMAN_REJECTED and its fallback entry', async () => {
    const q = snapshot(`  - id: h\n    query: refund order ORD-123\n    model:\n      - { call: refund_order, arguments: { order_id: ORD-123, amount: 500 } }\n    human: { Big refund: reject }\n`).queries[0]!;
    const r = await run(q);
    assert.equal(r.outcome.code, 'HUMAN_REJECTED');
    assert.equal(r.outcome.protocol?.errorCode, 'HITL001');
    assert.deepEqual(r.stats.tools, []);
    const small = snapshot(`  - id: s\n    query: refund order ORD-123\n    model:\n      - { call: refund_order, arguments: { order_id: ORD-123, amount: 5 } }\n      - final: { status: paid }\n`).queries[0]!;
    const noAnswer = await run(small);
    assert.equal(noAnswer.outcome.code, 'HUMAN_TIMEOUT', 'the tool needs approval; no answer means reject');
  });

  test('a branch the script does not cover ends plainly: the decision that led there, the step it needs, how to script it', async () => {
    // Scripted for the rejection only: approving asks for a step the script does not have.
    const q = snapshot(`  - id: h\n    query: refund order ORD-123\n    model:\n      - { call: refund_order, arguments: { order_id: ORD-123, amount: 500 } }\n    human: { Big refund: reject }\n`).queries[0]!;
    const approved = await run(q, { decide: async () => 'approve' });
    assert.equal(approved.outcome.code, 'MODEL_PROTOCOL_ERROR');
    assert.equal(approved.outcome.messageId, 'outcome.MODEL_PROTOCOL_ERROR.script-exhausted-after-human');
    assert.equal(approved.outcome.message, 'After "Big refund" was approved, the run needs model step 2, but the snapshot scripts 1 step: this branch is not scripted. Add its steps to the query\'s model script (docs/dry-run.md §1).');
    assert.doesNotMatch(approved.outcome.message, /model scripted/);
    assert.match(runMessage(approved.outcome.messageId, approved.outcome.args, 'zh-cn'), /^“Big refund”获得批准之后，运行需要第 2 个模型步骤，但快照只编写了 1 个/);
    // No human on the way: the path is not scripted.
    const short = snapshot(`  - id: s\n    query: refund order ORD-123\n    model: []\n`).queries[0]!;
    const ran = await run(short);
    assert.equal(ran.outcome.message, 'The run needs model step 1, but the snapshot scripts 0 steps: this path is not scripted. Add its steps to the query\'s model script (docs/dry-run.md §1).');
  });

  test('a human decision can be answered asynchronously, and the events stream as they are made', async () => {
    const q = snapshot(`  - id: a\n    query: refund order ORD-123\n    model:\n      - { call: refund_order, arguments: { order_id: ORD-123, amount: 5 } }\n      - final: { status: paid }\n`).queries[0]!;
    const streamed: string[] = [];
    let pausedAt = -1;
    const r = await run(q, {
      onEvent: (e) => void streamed.push(e.event_type),
      decide: (req) =>
        new Promise((resolve) => {
          pausedAt = streamed.length;
          assert.equal(req.kind, 'tool_approval');
          assert.equal(req.tool, 'refund_order');
          setTimeout(() => resolve('approve'), 20);
        }),
    });
    assert.equal(r.outcome.code, 'OK');
    assert.equal(streamed[pausedAt - 1], 'human_input', 'the pause is already streamed when decide is called');
    assert.deepEqual(streamed, r.events.map((e) => e.event_type));
  });

  test('output verification: one correction of a non-JSON answer, then the FAILURE_PROTOCOL fallback when fired', async () => {
    const corrected = snapshot(`  - id: c\n    query: where is order ORD-123\n    model:\n      - final: "It is shipped."\n      - final: { status: shipped }\n`).queries[0]!;
    assert.equal((await run(corrected)).outcome.code, 'OK');
    const lenient = snapshot(`  - id: l\n    query: where is order ORD-123\n    model:\n      - final: "Here you go:\\n\`\`\`json\\n{\\"status\\": \\"shipped\\"}\\n\`\`\`"\n`).queries[0]!;
    const l = await run(lenient);
    assert.equal(l.outcome.code, 'OK');
    assert.ok(l.events.some((e) => e.payload['check_id'] === 'check.coerced'), 'the coercion is recorded');
    const fired = snapshot(`  - id: f\n    query: where is order ORD-123\n    model:\n      - final: "It is shipped."\n        fire: [the answer is not JSON]\n`).queries[0]!;
    const f = await run(fired);
    assert.equal(f.outcome.status, 'fallback');
    assert.equal(f.outcome.protocol?.errorCode, 'FMT001');
    assert.equal(f.answer, 'a polite apology');
  });

  test('SAFETY_VIOLATION when a checkable guard is false', async () => {
    const q = snapshot(`  - id: v\n    query: where is order ORD-123\n    model:\n      - final: { status: teleported }\n`).queries[0]!;
    const r = await run(q);
    assert.equal(r.outcome.code, 'SAFETY_VIOLATION');
    assert.equal(r.outcome.clause?.pointer, '/constraints/1');
  });

  test('LOOP_DETECTED on the third identical call; the second is told its result is identical', async () => {
    const q = snapshot(`  - id: loop\n    query: where is order ORD-123\n    model:\n      - { call: get_order, arguments: { order_id: ORD-123 }, repeat: 5 }\n`).queries[0]!;
    let second = '';
    const { createScriptedModel } = await import('../server/src/service/run/llm/scriptedLlm.ts');
    const r = await run(q, {
      provider: {
        id: 'spy',
        step: (req) => {
          const tools = req.messages.filter((m) => m.role === 'tool');
          if (tools.length === 2) second = tools[1]!.content;
          return createScriptedModel(q.model).step(req);
        },
      },
    });
    assert.equal(r.outcome.code, 'LOOP_DETECTED');
    assert.match(second, /identical to the previous call/);
  });
});

describe('every run ends', () => {
  const endless: ModelProvider = {
    id: 'endless',
    step: async (req) => ({ kind: 'tool_calls', calls: [{ id: `c${req.messages.length}`, name: 'get_order', rawArguments: JSON.stringify({ order_id: `ORD-${req.messages.length}` }) }], usage: { promptTokens: 1, completionTokens: 1 } }),
  };
  test('a model that never stops is stopped by the step budget', async () => {
    const q = snapshot(`  - id: e\n    query: where is order ORD-123\n    tools: { get_order: [ { output: { status: x } } ] }\n`).queries[0]!;
    const r = await run(q, { provider: endless });
    assert.equal(r.outcome.code, 'BUDGET_EXCEEDED');
    assert.equal(r.outcome.messageId, 'outcome.BUDGET_EXCEEDED.steps');
    assert.equal(r.stats.steps, 6);
    assert.equal(r.outcome.clause?.pointer, '/budgets/max_steps');
  });

  test('a contract without BUDGETS still stops at the default step limit', async () => {
    const noBudgets = parseContract(CONTRACT.replace(/## BUDGETS[\s\S]*?## COMPLIANCE/, '## COMPLIANCE'));
    const q = snapshot(`  - id: e\n    query: where is order ORD-123\n    tools: { get_order: [ { output: { status: x } } ] }\n`).queries[0]!;
    const r = await run(q, { provider: endless, contract: noBudgets });
    assert.equal(r.outcome.code, 'BUDGET_EXCEEDED');
    assert.equal(r.stats.steps, 20);
  });

  test('a model that never answers is stopped by the time budget, even if it ignores the abort signal', async () => {
    const q = snapshot().queries[0]!;
    const short = parseContract(CONTRACT.replace('- **Timeout**: 1m', '- **Timeout**: 1s'));
    const hanging: ModelProvider = { id: 'hanging', step: () => new Promise(() => undefined) };
    const r = await run(q, { provider: hanging, contract: short });
    assert.equal(r.outcome.code, 'BUDGET_EXCEEDED');
    assert.equal(r.outcome.messageId, 'outcome.BUDGET_EXCEEDED.time');
  });

  test('mocked delays count against the timeout without being waited for', async () => {
    const q = snapshot(`  - id: slow\n    query: where is order ORD-123\n    tools: { get_order: [ { output: { status: shipped }, delay_ms: 4000 } ] }\n    model:\n      - { call: get_order, arguments: { order_id: ORD-1 }, delay_ms: 30000 }\n      - { call: get_order, arguments: { order_id: ORD-2 }, delay_ms: 30000 }\n      - final: { status: shipped }\n`).queries[0]!;
    const t0 = Date.now();
    const r = await run(q);
    assert.equal(r.outcome.code, 'BUDGET_EXCEEDED');
    assert.equal(r.outcome.messageId, 'outcome.BUDGET_EXCEEDED.time');
    assert.ok(r.stats.elapsedMs > 60_000);
    assert.ok(Date.now() - t0 < 30_000, 'not waited for');
  });

  test('a host cancels a run through its AbortSignal, also while it waits for a human', async () => {
    const q = snapshot(`  - id: c\n    query: refund order ORD-123\n    model:\n      - { call: refund_order, arguments: { order_id: ORD-123, amount: 5 } }\n`).queries[0]!;
    const controller = new AbortController();
    const r = await run(q, { signal: controller.signal, decide: () => (setTimeout(() => controller.abort(), 10), new Promise(() => undefined)) });
    assert.equal(r.outcome.code, 'CANCELLED');
    assert.equal(r.outcome.status, 'cancelled');
    assert.equal(r.events[r.events.length - 1]!.event_type, 'task_end');
  });

  test('provider errors become outcome codes', async () => {
    const q = snapshot().queries[0]!;
    const down: ModelProvider = { id: 'openai:x', step: async () => { throw new ModelError('MODEL_UNAVAILABLE', 'connection refused', 503); } };
    const r = await run(q, { provider: down });
    assert.equal(r.outcome.code, 'MODEL_UNAVAILABLE');
    assert.match(r.outcome.message, /openai:x.*connection refused/);
    const exhausted = snapshot(`  - id: s\n    query: where is order ORD-123\n    model: []\n`).queries[0]!;
    assert.equal((await run(exhausted)).outcome.code, 'MODEL_PROTOCOL_ERROR');
  });

  test('a hostile intent pattern runs in linear time on a long query', async () => {
    const q = snapshot(`  - id: redos\n    query: "${'a '.repeat(20_000)}!"\n`).queries[0]!;
    const r = await run(q);
    assert.equal(r.outcome.code, 'TRIGGER_NOT_MATCHED');
  });
});

describe('trace content', () => {
  test('PII fields named by COMPLIANCE are redacted everywhere in the trace, not in the run', async () => {
    const q = snapshot(`  - id: p\n    query: where is order ORD-123 for Zed Example\n    entities: { customer: Zed Example }\n    model:\n      - final: { status: shipped, note: "Dear Zed Example" }\n`).queries[0]!;
    const r = await run(q);
    assert.equal(r.outcome.code, 'OK');
    assert.deepEqual(r.answer, { status: 'shipped', note: 'Dear Zed Example' }, 'the run itself sees the data');
    const text = JSON.stringify(r.events);
    assert.doesNotMatch(text, /Zed Example/);
    assert.match(text, /\[REDACTED:customer\]/);
  });

  test('event types are a closed set, ids chain, every event has a timeline line with a catalogue message', async () => {
    const q = snapshot().queries[0]!;
    const r = await run(q);
    r.events.forEach((e, i) => {
      assert.ok((EVENT_TYPES as readonly string[]).includes(e.event_type));
      assert.equal(e.prev_event, i === 0 ? null : r.events[i - 1]!.event_id);
      assert.match(e.checksum, /^[0-9a-f]{64}$/);
      for (const line of describeEvent(e)) {
        assert.ok(line.messageId in MESSAGES, `${e.event_type}: ${line.messageId}`);
        assert.doesNotMatch(line.text, /\{\w+\}/, `${line.messageId}: all placeholders filled: ${line.text}`);
      }
    });
  });

  test('every outcome code has a message and a row in docs/dry-run.md, and the docs name no other code', () => {
    const docs = readFileSync(new URL('../docs/dry-run.md', import.meta.url), 'utf8');
    // The table is generated from the catalogue (scripts/outcomeDocs.ts): the summary is the text shown.
    const documented = [...docs.matchAll(/^\| `([A-Z_]+)` \| (\w+) \| (\w+) \| (.*) \|$/gm)].map((m) => [m[1]!, m[2]!, m[3]!, m[4]!]);
    assert.deepEqual(documented, Object.entries(OUTCOME_CODES).map(([code, spec]) => [code, spec.status, spec.stage, spec.summary]));
    for (const [code, spec] of Object.entries(OUTCOME_CODES)) {
      assert.ok(spec.summary.length > 10, code);
      assert.equal(template(`${RUN_PREFIX}outcome.${code}`), spec.message);
    }
    assert.equal(contract.kind, 'contract');
  });
});
