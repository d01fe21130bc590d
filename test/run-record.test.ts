// Live runs made reproducible (docs/dry-run.md, "Recording a live run" and "Tool mocks"): the
// model's latency and tokens per step in the timeline, the trace and the Agent Run view; a mocked
// tool that answers a sequence (fail once, then succeed) so that retries can be tested; and
// `agents-md run --record` against a chat-completions server on 127.0.0.1, replayed with
// `--scripted` after the server is gone, with the same timeline and outcome.
// Run: node --import tsx --test test/run-record.test.ts
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { useCliBundle } from './helpers/cli.ts';
import { CONTRACT, SNAPSHOT, contract, run, snapshot } from './helpers/dryRun.ts';
import { describeEvent, readSnapshot, traceTree, type ViewNode } from '../server/src/service/index.ts';

const flat = (nodes: readonly ViewNode[]): ViewNode[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);

describe('a tool mock that answers a sequence', () => {
  const RETRY = `  - id: retry
    query: where is order ORD-123
    tools:
      get_order:
        - sequence:
            - error: inventory service returned 503
              delay_ms: 40
            - output: { status: shipped }
              delay_ms: 10
    model:
      - call: get_order
        arguments: { order_id: ORD-123 }
        usage: { prompt_tokens: 300, completion_tokens: 12 }
        delay_ms: 850
      - call: get_order
        arguments: { order_id: ORD-123 }
      - call: get_order
        arguments: { order_id: ORD-124 }
      - final: { status: shipped }
`;

  test('fails once, then succeeds, and the last answer repeats; the model sees the error in between', async () => {
    const q = snapshot(RETRY).queries[0]!;
    const r = await run(q);
    assert.equal(r.outcome.status, 'success', r.outcome.message);
    const results = r.events.filter((e) => e.event_type === 'tool_result');
    assert.deepEqual(results.map((e) => [e.status, e.payload['code'] ?? null]), [['failure', 'TOOL_ERROR'], ['success', null], ['success', null]]);
    assert.deepEqual(results.slice(1).map((e) => e.payload['timing']), [{ simulated_ms: 10 }, { simulated_ms: 10 }]);
    assert.match(JSON.stringify(results[0]!.payload), /inventory service returned 503/);
    // Each run starts the sequence again.
    const again = await run(q);
    assert.deepEqual(again.events.filter((e) => e.event_type === 'tool_result').map((e) => e.status), ['failure', 'success', 'success']);
  });

  test('the same script against a mock that always fails: the retries fail too', async () => {
    const q = snapshot(RETRY.replace(/sequence:[\s\S]*?delay_ms: 10\n/, 'error: inventory service returned 503\n')).queries[0]!;
    const r = await run(q);
    assert.deepEqual(r.events.filter((e) => e.event_type === 'tool_result').map((e) => e.status), ['failure', 'failure', 'failure']);
    assert.equal(r.outcome.code, 'TOOL_ERROR', r.outcome.message);
  });

  test('a sequence beside the mock\'s own output or error is an error of the snapshot, at the key', () => {
    const text = SNAPSHOT.replace('    - output: { refund_id: R-1 }\n', '    - output: { refund_id: R-1 }\n      sequence:\n        - error: down\n');
    const r = readSnapshot(text, { contract });
    const d = r.diagnostics.find((x) => x.code === 'snapshot-sequence-and-answer');
    assert.ok(d, JSON.stringify(r.diagnostics));
    assert.equal(d.message, 'A mock with a sequence answers from it: remove output, or put it into the sequence.');
    assert.equal(text.split('\n')[d.range.start.line]!.trim().startsWith('- output'), true);
    assert.equal(r.snapshot, undefined);
  });

  test('each model step shows its latency and tokens: timeline, trace event, Agent Run view row', async () => {
    const q = snapshot(RETRY).queries[0]!;
    const r = await run(q);
    const step = r.events.find((e) => e.event_type === 'model_step')!;
    assert.deepEqual(step.payload['timing'], { latency_ms: 850 });
    assert.deepEqual(step.payload['usage'], { prompt_tokens: 300, completion_tokens: 12 });
    assert.equal(describeEvent(step, 'en')[0]!.text, 'step 1: model calls get_order (312 tokens: 300 prompt, 12 completion; 850 ms)');
    assert.equal(describeEvent(step, 'zh-cn')[0]!.text, '第 1 步：模型调用 get_order（312 个 token：提示 300，生成 12；850 毫秒）');
    const rows = flat(traceTree([{ queryId: q.id, events: r.events, outcome: r.outcome }], { contract, contractUri: 'file:///w/AGENTS.md' }));
    assert.ok(rows.some((n) => n.label.includes('step 1: model calls get_order (312 tokens: 300 prompt, 12 completion; 850 ms)')), rows.map((n) => n.label).join('\n'));
  });
});

describe('agents-md run --record against a chat-completions server, replayed offline with --scripted', () => {
  const { bundle: cli, scratch } = useCliBundle('record');
  let server: Server;
  let baseUrl = '';
  let requests = 0;
  // The endpoint's answers in turn: a tool call whose arguments are not compact JSON, then the answer.
  const answers = [
    { message: { role: 'assistant', content: 'Looking it up.', tool_calls: [{ id: 'call_a1', type: 'function', function: { name: 'get_order', arguments: '{ "order_id": "ORD-123" }' } }] }, usage: { prompt_tokens: 420, completion_tokens: 18 } },
    { message: { role: 'assistant', content: '{"status":"shipped"}' }, usage: { prompt_tokens: 470, completion_tokens: 7 } },
  ];
  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const a = answers[Math.min(requests++, answers.length - 1)]!;
        // A measurable latency.
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: a.message, finish_reason: 'stop' }], usage: a.usage }));
        }, 25);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  /**
   * The timeline as printed, without what differs between any two runs, scripted ones too: the
   * run's id, the line naming its trace file, and the times measured on the machine (a retrieval's,
   * and the simulated time, which counts the machine's own time too). The model's latency stays.
   */
  const timeline = (stdout: string) =>
    stdout
      .split('\n')
      .filter((l) => l && !/^trace: /.test(l))
      .map((l) => l.replace(/run \d{8}T\d{9}Z-/, 'run <id>-').replace(/simulated time \d+ ms/, 'simulated time <ms>').replace(/(weight [\d.]+), [\d.]+ ms$/, '$1, <ms>'));

  test('the recorded script replays with the same timeline and outcome after the server stopped', async () => {
    const ws = scratch.workspace({
      'AGENTS.md': CONTRACT,
      'snapshots/orders.snapshot.yaml': `# Orders, recorded from the staging model.\n${SNAPSHOT}`,
      '.agents-md.json': JSON.stringify({ model: { provider: 'openai', baseUrl: '__URL__', model: 'test-model', retries: 0 } }),
    });
    writeFileSync(join(ws, '.agents-md.json'), readFileSync(join(ws, '.agents-md.json'), 'utf8').replace('__URL__', baseUrl));
    const live = await cli.run(ws, 'run', 'AGENTS.md', '-s', 'snapshots/orders.snapshot.yaml', '--trust-endpoint', baseUrl, '--record', '--no-color');
    assert.equal(live.code, 0, live.stderr + live.stdout);
    assert.equal(requests, 2);
    assert.match(live.stderr, /recorded 2 model steps of query base into snapshots\/orders\.snapshot\.yaml; replay offline with --scripted/);
    // Each step with the endpoint's tokens and the measured latency.
    const liveSteps = timeline(live.stdout).filter((l) => /step \d: model/.test(l));
    assert.equal(liveSteps.length, 2, live.stdout);
    assert.match(liveSteps[0]!, /step 1: model calls get_order \(438 tokens: 420 prompt, 18 completion; \d+ ms\)/);
    assert.ok(Number(/; (\d+) ms\)/.exec(liveSteps[0]!)![1]) >= 20, liveSteps[0]);

    const text = readFileSync(join(ws, 'snapshots/orders.snapshot.yaml'), 'utf8');
    assert.match(text, /^# Orders, recorded from the staging model\./, 'the rest of the file is kept');
    const script = (parse(text) as { queries: { model: Record<string, unknown>[] }[] }).queries[0]!.model;
    assert.equal(script.length, 2);
    assert.deepEqual({ ...script[0], delay_ms: 0 }, { call: 'get_order', raw_arguments: '{ "order_id": "ORD-123" }', say: 'Looking it up.', usage: { prompt_tokens: 420, completion_tokens: 18 }, delay_ms: 0 });
    assert.deepEqual({ ...script[1], delay_ms: 0 }, { final: '{"status":"shipped"}', usage: { prompt_tokens: 470, completion_tokens: 7 }, delay_ms: 0 });
    assert.ok(Number(script[0]!['delay_ms']) >= 20);

    // The server is gone: the configuration's endpoint cannot answer, the script can.
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    const replay = await cli.run(ws, 'run', 'AGENTS.md', '-s', 'snapshots/orders.snapshot.yaml', '--scripted', '--no-color');
    assert.equal(replay.code, live.code, replay.stderr);
    assert.deepEqual(timeline(replay.stdout), timeline(live.stdout));
    const json = async () => JSON.parse((await cli.run(ws, 'run', 'AGENTS.md', '-s', 'snapshots/orders.snapshot.yaml', '--scripted', '--json')).stdout);
    const [a, b] = [await json(), await json()];
    assert.deepEqual(a.outcome, b.outcome);
    assert.deepEqual(a.answer, { status: 'shipped' });
    assert.deepEqual({ ...a.stats, elapsed_ms: 0 }, { ...b.stats, elapsed_ms: 0 });
    assert.equal(a.stats.tokens, 438 + 477);
    // The recorded snapshot kept in the repository: eval plays it offline too.
    const evaluated = await cli.run(ws, 'eval', '--scripted', '--json');
    assert.equal(evaluated.code, 0, evaluated.stderr + evaluated.stdout);
    assert.equal(requests, 2, 'the replays sent nothing');
  });

  test('--record with the scripted model records nothing: exit 2 with the reason, the file untouched', async () => {
    const ws = scratch.workspace({ 'AGENTS.md': CONTRACT, 'snapshots/orders.snapshot.yaml': SNAPSHOT });
    const r = await cli.run(ws, 'run', 'AGENTS.md', '-s', 'snapshots/orders.snapshot.yaml', '--record');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--record records a live run, and this one would play the snapshot's own script/);
    assert.equal(readFileSync(join(ws, 'snapshots/orders.snapshot.yaml'), 'utf8'), SNAPSHOT);
    assert.deepEqual(readdirSync(ws).filter((n) => n === '.agents-md'), []);
  });
});
