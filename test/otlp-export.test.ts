// `agents-md trace export --otlp FILE|URL` (docs/tracing.md): a real dry run exported by the real
// CLI to a real OTLP/HTTP receiver on 127.0.0.1, whose requests are decoded with the official
// OTLP protobuf definitions (test/otlp-proto/, from open-telemetry/opentelemetry-proto), and to a
// file whose OTLP JSON is checked against the same definitions; redaction, exit codes, messages.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useCliBundle } from './helpers/cli.ts';
import { checkOtlpJson, decodeRequest, fromOtlpJson, receiver, REQUEST, spansOf } from './helpers/otlp.ts';
import { CONTRACT, SNAPSHOT } from './helpers/dryRun.ts';
import { parseContract, traceSpans, type SpanData, type TraceEvent } from '../server/src/service/index.ts';
import { runQuery, scriptedDecisions } from '../server/src/service/run/engine/engine.ts';
import { createScriptedModel } from '../server/src/service/run/llm/scriptedLlm.ts';
import { readSnapshot } from '../server/src/service/run/snapshot/snapshotValidate.ts';

const { bundle: tool, scratch: folders } = useCliBundle('otlp-export');

/** A secret the model puts in a tool argument under a PII field (COMPLIANCE: `customer`). */
const SECRET = 'Secret Customer 4242';

const QUERIES = `
  - id: base
    query: where is order ORD-123
    model:
      - call: get_order
        arguments: { order_id: ORD-123, customer: "${SECRET}" }
      - call: refund_order
        arguments: { order_id: ORD-123, amount: 50 }
      - final: { status: shipped }
    human: { refund_order: approve }
`;
const SNAPSHOT_TEXT = `contract: AGENTS.md\n${SNAPSHOT.replace(/queries:[\s\S]*$/, `queries:${QUERIES}`)}`;

/** A workspace with the demo contract and snapshot, and the trace of its dry run. */
async function dryRun(): Promise<{ dir: string; trace: string; events: TraceEvent[] }> {
  const dir = folders.workspace({ 'AGENTS.md': CONTRACT, 'demo.snapshot.yaml': SNAPSHOT_TEXT });
  const r = await tool.run(dir, 'run', 'AGENTS.md', '--snapshot', 'demo.snapshot.yaml', '--query', 'base', '--root', '.');
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const trace = /trace: (\S+)/.exec(r.stdout)?.[1];
  assert.ok(trace, r.stdout);
  const events = readFileSync(join(dir, trace), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as TraceEvent);
  return { dir, trace, events };
}

describe('agents-md trace export --otlp URL', () => {
  test('sends the run as GenAI spans over OTLP/HTTP: names, parent links, attributes, token counts, checks and decisions', async () => {
    const { dir, trace, events } = await dryRun();
    const otlp = await receiver();
    try {
      const r = await tool.run(dir, 'trace', 'export', trace, '--otlp', otlp.url);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(otlp.requests.length, 1);
      const [request] = otlp.requests;
      assert.equal(request!.path, '/v1/traces');
      assert.equal(request!.contentType, 'application/x-protobuf');
      const decoded = decodeRequest(request!.body);
      const spans = spansOf(decoded);
      assert.match(r.stdout, new RegExp(`sent ${spans.length} spans to ${otlp.url.replace(/[/.]/g, '\\$&')}`));

      const root = spans.find((s) => s.name === 'invoke_agent DemoAgent');
      assert.ok(root, spans.map((s) => s.name).join(', '));
      assert.equal(root.parentSpanId, '');
      assert.equal(root.attributes['gen_ai.operation.name'], 'invoke_agent');
      assert.equal(root.attributes['gen_ai.agent.name'], 'DemoAgent');
      assert.equal(root.status.code, 1, 'STATUS_CODE_OK: the run succeeded');
      assert.deepEqual(spans.map((s) => s.name).sort(), ['chat', 'chat', 'chat', 'execute_tool get_order', 'execute_tool refund_order', 'invoke_agent DemoAgent', 'search_memory notes', 'search_memory order_log'].sort());
      for (const s of spans) {
        assert.equal(s.traceId, root.traceId, `${s.name}: one trace`);
        assert.match(s.spanId, /^[0-9a-f]{16}$/);
        if (s !== root) assert.equal(s.parentSpanId, root.spanId, `${s.name} is a child of the agent span`);
      }

      // Tokens: each chat span carries its step's usage; the agent span their sums.
      const steps = events.filter((e) => e.event_type === 'model_step').map((e) => e.payload['usage'] as { prompt_tokens: number; completion_tokens: number });
      const chats = spans.filter((s) => s.name === 'chat');
      assert.deepEqual(chats.map((s) => [s.attributes['gen_ai.usage.input_tokens'], s.attributes['gen_ai.usage.output_tokens']]), steps.map((u) => [u.prompt_tokens, u.completion_tokens]));
      assert.equal(root.attributes['gen_ai.usage.input_tokens'], steps.reduce((n, u) => n + u.prompt_tokens, 0));
      assert.equal(root.attributes['gen_ai.usage.output_tokens'], steps.reduce((n, u) => n + u.completion_tokens, 0));
      assert.deepEqual(chats.map((s) => s.attributes['gen_ai.response.finish_reasons']), [['tool_calls'], ['tool_calls'], ['stop']]);

      // Tools: name, call id, arguments (redacted), result; their schema checks as evaluation events.
      const getOrder = spans.find((s) => s.name === 'execute_tool get_order')!;
      assert.equal(getOrder.attributes['gen_ai.operation.name'], 'execute_tool');
      assert.equal(getOrder.attributes['gen_ai.tool.name'], 'get_order');
      assert.equal(getOrder.attributes['gen_ai.tool.call.id'], 'call-1');
      assert.equal(getOrder.attributes['gen_ai.tool.call.arguments'], '{"order_id":"ORD-123","customer":"[REDACTED:customer]"}');
      assert.equal(getOrder.attributes['gen_ai.tool.call.result'], '{"status":"shipped"}');
      assert.deepEqual(getOrder.events.filter((e) => e.name === 'gen_ai.evaluation.result').map((e) => [e.attributes['gen_ai.evaluation.name'], e.attributes['gen_ai.evaluation.score.label']]), [['input_schema', 'pass'], ['output_schema', 'pass']]);

      // The approval: a pause and its decision, on the tool's span.
      const refund = spans.find((s) => s.name === 'execute_tool refund_order')!;
      assert.deepEqual(refund.events.filter((e) => e.name.startsWith('agents_md.human')).map((e) => [e.name, e.attributes['agents_md.decision'] ?? e.attributes['agents_md.subject']]), [['agents_md.human_input', 'refund_order'], ['agents_md.human_decision', 'approve']]);

      // The answer's checks on the last chat span, the guard that cannot be checked labelled so.
      const answerChecks = chats[2]!.events.filter((e) => e.name === 'gen_ai.evaluation.result').map((e) => e.attributes['gen_ai.evaluation.score.label']);
      assert.ok(answerChecks.includes('pass') && answerChecks.includes('not_checkable'), JSON.stringify(answerChecks));

      const memory = spans.find((s) => s.name === 'search_memory order_log')!;
      assert.equal(memory.attributes['gen_ai.operation.name'], 'search_memory');
      assert.equal(memory.attributes['gen_ai.memory.store.name'], 'order_log');
      assert.equal(typeof memory.attributes['gen_ai.memory.search.result.count'], 'number');

      // PII: the secret the model put in a tool argument never leaves, in any form.
      assert.ok(!request!.body.includes(Buffer.from(SECRET)), 'the secret is not in the request');
      assert.ok(!request!.body.includes(Buffer.from('Zed Example')), 'record PII is not in the request');
    } finally {
      await otlp.close();
    }
  });

  test('an endpoint that is not there: exit 1 and a clear message, in English and Chinese', async () => {
    const { dir, trace } = await dryRun();
    const gone = await receiver();
    await gone.close();
    const r = await tool.run(dir, 'trace', 'export', trace, '--otlp', gone.url, '--timeout', '1000');
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`The OTLP endpoint ${gone.url.replace(/[/.]/g, '\\$&')} did not accept the spans \\(.*ECONNREFUSED.*\\)`));
    const zh = await tool.run(dir, 'trace', 'export', trace, '--otlp', gone.url, '--timeout', '1000', '--lang', 'zh-cn');
    assert.equal(zh.code, 1);
    assert.match(zh.stderr, /OTLP 端点 .* 未接受这些跨度/);
  });

  test('an endpoint that refuses the spans (HTTP 400): exit 1', async () => {
    const { dir, trace } = await dryRun();
    const otlp = await receiver(400);
    try {
      const r = await tool.run(dir, 'trace', 'export', trace, '--otlp', otlp.url, '--timeout', '2000');
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /did not accept the spans/);
    } finally {
      await otlp.close();
    }
  });
});

describe('agents-md trace export --otlp FILE', () => {
  test('writes OTLP JSON that follows the OTLP definitions and holds the same spans as the request', async () => {
    const { dir, trace } = await dryRun();
    const otlp = await receiver();
    try {
      const r = await tool.run(dir, 'trace', 'export', trace, '--otlp', 'spans.json');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /wrote 8 spans to spans\.json/);
      const text = readFileSync(join(dir, 'spans.json'), 'utf8');
      assert.ok(!text.includes(SECRET));
      const json = JSON.parse(text) as Record<string, unknown>;
      checkOtlpJson(json, REQUEST);
      const fromFile = spansOf(fromOtlpJson(json));
      assert.equal((await tool.run(dir, 'trace', 'export', trace, '--otlp', otlp.url)).code, 0);
      const fromUrl = spansOf(decodeRequest(otlp.requests[0]!.body));
      assert.deepEqual(fromFile, fromUrl, 'a file and a request hold the same spans, ids included (a re-export matches)');
    } finally {
      await otlp.close();
    }
  });

  test('a bad trace file: exit 2 and a message, nothing written', async () => {
    const { dir, trace } = await dryRun();
    writeFileSync(join(dir, 'notes.txt'), 'not a trace\n');
    const notTrace = await tool.run(dir, 'trace', 'export', 'notes.txt', '--otlp', 'out.json');
    assert.equal(notTrace.code, 2);
    assert.match(notTrace.stderr, /notes\.txt: the trace is corrupted, nothing was exported/);
    writeFileSync(join(dir, 'empty.jsonl'), '');
    const empty = await tool.run(dir, 'trace', 'export', 'empty.jsonl', '--otlp', 'out.json');
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /empty\.jsonl is empty: a trace has at least its task_start event/);
    const missing = await tool.run(dir, 'trace', 'export', 'missing.jsonl', '--otlp', 'out.json');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing\.jsonl: cannot be read \(no such file or directory\)/);
    const text = readFileSync(join(dir, trace), 'utf8');
    writeFileSync(join(dir, 'edited.jsonl'), text.replace('"ORD-123"', '"ORD-999"'));
    const edited = await tool.run(dir, 'trace', 'export', 'edited.jsonl', '--otlp', 'out.json', '--lang', 'zh-cn');
    assert.equal(edited.code, 2);
    assert.match(edited.stderr, /edited\.jsonl：轨迹已损坏/);
    const badTimeout = await tool.run(dir, 'trace', 'export', trace, '--otlp', 'http://127.0.0.1:1/v1/traces', '--timeout', 'soon');
    assert.equal(badTimeout.code, 2);
    assert.match(badTimeout.stderr, /--timeout soon: give a whole number of milliseconds/);
    assert.throws(() => readFileSync(join(dir, 'out.json')), /ENOENT/);
  });
});

describe('traceSpans (the service)', () => {
  test('applies the contract PII fields again to a trace written without them', async () => {
    // The run's contract without COMPLIANCE writes the secret into its trace; the export's contract names it.
    const bare = parseContract(CONTRACT.replace(/## COMPLIANCE[\s\S]*$/, ''));
    const read = readSnapshot(SNAPSHOT_TEXT, { contract: bare });
    const query = read.snapshot!.queries[0]!;
    const result = await runQuery({ contract: bare, query, now: '2024-06-12T08:00:00Z', provider: createScriptedModel(query.model), decide: scriptedDecisions(query.human) });
    assert.ok(JSON.stringify(result.events).includes(SECRET), 'the unredacted trace holds the secret');
    const spans: SpanData[] = await traceSpans(result.events, { contract: parseContract(CONTRACT) });
    const text = JSON.stringify(spans);
    assert.ok(!text.includes(SECRET), 'no span holds the secret');
    assert.ok(!text.includes('Zed Example'), 'nor a PII value from a record');
    assert.match(text, /\[REDACTED:customer\]/);
  });

  test('an interrupted run (no task_end) ends at its last event, status unset; no events, no spans', async () => {
    const contract = parseContract(CONTRACT);
    const query = readSnapshot(SNAPSHOT_TEXT, { contract }).snapshot!.queries[0]!;
    const { events } = await runQuery({ contract, query, now: '2024-06-12T08:00:00Z', provider: createScriptedModel(query.model), decide: scriptedDecisions(query.human) });
    const cut = events.slice(0, events.findIndex((e) => e.event_type === 'tool_call') + 1);
    const spans = await traceSpans(cut);
    const root = spans[0]!;
    assert.equal(root.status.code, 'unset');
    assert.equal(root.endMs, Date.parse(cut[cut.length - 1]!.timestamp));
    assert.deepEqual(await traceSpans([]), []);
  });
});
