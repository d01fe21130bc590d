// Attack suite, the dry run through the real command line (docs/robustness.md, "Dry runs" and
// "Whose endpoint"): the configuration's model endpoint (a chat-completions server on 127.0.0.1)
// reached only once the user confirmed it, budgets checked while `--real-delays` waits, a `runs`
// link inside the workspace, hostile traces given to `trace verify` and `trace show`, signed
// traces, and one set of colour options on every command.
// Run: node --import tsx --test test/attack/run-cli.test.ts
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useCliBundle } from '../helpers/cli.ts';
import { CONTRACT, SNAPSHOT } from '../helpers/dryRun.ts';
import { eventLine, type TraceEvent } from '../../server/src/service/index.ts';
import { eventChecksum } from '../../server/src/service/run/trace/trace.ts';

const { bundle: cli, scratch } = useCliBundle('attack-cli');
const KEY = 'sk-test-0123456789abcdef';

/** A chat-completions endpoint that answers every request with the final answer `{"status":"shipped"}`. */
let server: Server;
let baseUrl = '';
const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
before(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: '{"status":"shipped"}' } }], usage: { prompt_tokens: 10, completion_tokens: 5 } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const workspace = (config?: unknown, snapshot = SNAPSHOT) => scratch.workspace({ 'AGENTS.md': CONTRACT, 'snapshots/orders.snapshot.yaml': snapshot, ...(config ? { '.agents-md.json': JSON.stringify(config) } : {}) });
const traceOf = (ws: string) => {
  const runs = join(ws, '.agents-md', 'runs');
  const [dir] = readdirSync(runs);
  return readFileSync(join(runs, dir!, 'trace.jsonl'), 'utf8');
};

describe('the configuration\'s model endpoint', () => {
  const config = () => ({ model: { provider: 'openai', baseUrl, model: 'test-model', retries: 0 } });

  test('named by the repository, not confirmed: refused before any request, exit 2', async () => {
    const before = seen.length;
    const ws = workspace(config());
    const r = await cli.runWithEnv(ws, { AGENTS_MD_API_KEY: KEY }, 'run', 'AGENTS.md', '-s', 'snapshots/orders.snapshot.yaml');
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /is named by the repository's configuration \.agents-md\.json; .*--trust-endpoint http:\/\/127\.0\.0\.1:\d+\/v1/);
    assert.equal(seen.length, before, 'no request reached the endpoint');
    assert.ok(!r.stderr.includes(KEY) && !r.stdout.includes(KEY));
  });

  test('confirmed with --trust-endpoint: the run talks to the endpoint with the key, and the trace names it', async () => {
    const before = seen.length;
    const ws = workspace(config());
    const r = await cli.runWithEnv(ws, { AGENTS_MD_API_KEY: KEY }, 'run', 'AGENTS.md', '-s', 'snapshots/orders.snapshot.yaml', '--trust-endpoint', `${baseUrl}/`, '--json');
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const requests = seen.slice(before);
    assert.equal(requests.length, 1);
    assert.equal(requests[0]!.path, '/v1/chat/completions');
    assert.equal(requests[0]!.headers.authorization, `Bearer ${KEY}`);
    const trace = traceOf(ws);
    assert.match(trace, new RegExp(`"provider":"openai:test-model@${baseUrl.replace(/[./]/g, '\\$&')}`));
    assert.ok(!trace.includes(KEY), 'the key is not in the trace');
    assert.equal(JSON.parse(r.stdout).answer.status, 'shipped');
  });

  test('trusted by the user\'s AGENTS_MD_TRUSTED_ENDPOINTS: eval reaches it too', async () => {
    const before = seen.length;
    const ws = workspace(config());
    const r = await cli.runWithEnv(ws, { AGENTS_MD_API_KEY: KEY, AGENTS_MD_TRUSTED_ENDPOINTS: `https://example.invalid/v1, ${baseUrl}` }, 'eval', '--json');
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.equal(seen.length - before, 1);
  });

  test('no model section: the scripted model, no request', async () => {
    const before = seen.length;
    const r = await cli.runWithEnv(workspace(), { AGENTS_MD_API_KEY: KEY }, 'run', 'AGENTS.md', '-s', 'snapshots/orders.snapshot.yaml');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(seen.length, before);
  });
});

describe('budgets, run folders and output options', () => {
  // A 10-minute delay, so that ending at the budget and waiting it out are minutes apart even on a
  // loaded machine, where starting the CLI alone can take 20 s.
  test('--real-delays: a 10-minute mocked delay under a 2 s budget ends at the budget, not after the delay', async () => {
    const ws = scratch.workspace({
      'AGENTS.md': CONTRACT.replace('- **Timeout**: 1m', '- **Timeout**: 2s'),
      'snapshots/orders.snapshot.yaml': SNAPSHOT.replace('      - call: get_order\n', '      - call: get_order\n        delay_ms: 600000\n'),
    });
    const started = Date.now();
    const r = await cli.run(ws, 'run', 'AGENTS.md', '-s', 'snapshots/orders.snapshot.yaml', '--real-delays', '--json');
    const took = Date.now() - started;
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout) as { outcome: { code: string; message: string } };
    assert.equal(out.outcome.code, 'BUDGET_EXCEEDED');
    assert.match(out.outcome.message, /over its timeout of 2000 ms/);
    assert.ok(took < 120_000, `ended after ${took} ms`);
    assert.doesNotMatch(r.stderr, /TimeoutOverflowWarning/);
  });

  test('--real-delays under a 30-day budget: timers are clamped, no TimeoutOverflowWarning', async () => {
    const ws = scratch.workspace({
      'AGENTS.md': CONTRACT.replace('- **Timeout**: 1m', '- **Timeout**: 30d'),
      'snapshots/orders.snapshot.yaml': SNAPSHOT.replace('      - call: get_order\n', '      - call: get_order\n        delay_ms: 10\n'),
    });
    const r = await cli.run(ws, 'run', 'AGENTS.md', '-s', 'snapshots/orders.snapshot.yaml', '--real-delays');
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /TimeoutOverflowWarning/);
  });

  test('a committed .agents-md/runs link to another folder of the workspace is not written through', async () => {
    const ws = workspace();
    mkdirSync(join(ws, 'src'));
    mkdirSync(join(ws, '.agents-md'));
    symlinkSync(join('..', 'src'), join(ws, '.agents-md', 'runs'));
    const r = await cli.run(ws, 'run', 'AGENTS.md', '-s', 'snapshots/orders.snapshot.yaml');
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /\.agents-md\/runs is a link \(to src\): runs are written only to real folders/);
    assert.deepEqual(readdirSync(join(ws, 'src')), []);
  });

  test('a committed earlier eval run whose eval.json links to /dev/zero is no baseline, and no hang', { skip: process.platform === 'win32' && 'no /dev/zero on this platform' }, async () => {
    const ws = workspace();
    const old = join(ws, '.agents-md', 'runs', '20200101T000000000Z-eval');
    mkdirSync(old, { recursive: true });
    symlinkSync('/dev/zero', join(old, 'eval.json'));
    const r = await cli.run(ws, 'eval', '.', '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { drift: unknown }).drift, null);
  });

  test('every command takes --color and --no-color', async () => {
    const ws = workspace();
    for (const command of [['lint'], ['rules'], ['diff'], ['run'], ['eval'], ['report'], ['trace', 'verify'], ['trace', 'show'], ['trace', 'replay'], ['trace', 'fork']]) {
      const r = await cli.run(ws, ...command, '--help');
      assert.match(r.stdout, /--color\b/, command.join(' '));
      assert.match(r.stdout, /--no-color\b/, command.join(' '));
    }
  });
});

describe('hostile traces through trace verify and trace show', () => {
  const oneRun = async (env: Record<string, string> = {}) => {
    const ws = workspace();
    const r = await cli.runWithEnv(ws, env, 'run', 'AGENTS.md', '-s', 'snapshots/orders.snapshot.yaml', '--json');
    assert.equal(r.code, 0, r.stderr);
    return { ws, trace: (JSON.parse(r.stdout) as { trace: string }).trace };
  };

  test('a 100,000-deep payload, a duplicated key: verify fails with the line, show does not crash; a BOM passes', async () => {
    const { ws, trace } = await oneRun();
    const text = readFileSync(join(ws, trace), 'utf8');
    const deep = text.replace(/"payload":\{/, `"payload":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)},`);
    writeFileSync(join(ws, 'deep.jsonl'), deep);
    const dup = text.replace(/"payload":\{/, '"payload":{"query":"forged",');
    writeFileSync(join(ws, 'dup.jsonl'), dup);
    writeFileSync(join(ws, 'bom.jsonl'), `\uFEFF${text}`);
    const v = await cli.run(ws, 'trace', 'verify', 'deep.jsonl');
    assert.equal(v.code, 1, v.stderr);
    assert.match(v.stdout, /deep\.jsonl:1: nested more than 256 levels deep/);
    // The refused first line leaves no task_start to show: said plainly, exit 2.
    const s = await cli.run(ws, 'trace', 'show', 'deep.jsonl');
    assert.equal(s.code, 2, s.stderr);
    assert.match(s.stderr, /the trace does not start with a task_start event/);
    assert.doesNotMatch(s.stderr, /RangeError|at \w+ \(/);
    const d = await cli.run(ws, 'trace', 'verify', 'dup.jsonl');
    assert.equal(d.code, 1, d.stdout);
    assert.match(d.stdout, /dup\.jsonl:1: the key "query" appears twice/);
    const b = await cli.run(ws, 'trace', 'verify', 'bom.jsonl');
    assert.equal(b.code, 0, b.stdout);
  });

  test('a keyed signature: written with AGENTS_MD_TRACE_KEY, checked by verify; a rebuilt chain passes the checksums but not the signature', async () => {
    const KEY_ENV = { AGENTS_MD_TRACE_KEY: 'a long random secret' };
    const { ws, trace } = await oneRun(KEY_ENV);
    const path = join(ws, trace);
    assert.ok(existsSync(`${path}.sig`));
    const ok = await cli.runWithEnv(ws, KEY_ENV, 'trace', 'verify', trace);
    assert.equal(ok.code, 0, ok.stdout);
    assert.match(ok.stdout, /matches the key in AGENTS_MD_TRACE_KEY/);
    // Someone edits the query and rebuilds every checksum after it.
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as TraceEvent);
    let previous = '';
    const forged = [];
    for (const e of lines) {
      const { checksum: _, ...unsigned } = e.event_type === 'task_start' ? { ...e, payload: { ...e.payload, query: 'forged' } } : e;
      const event = { ...unsigned, checksum: await eventChecksum(previous, unsigned) };
      previous = event.checksum;
      forged.push(eventLine(event as TraceEvent));
    }
    writeFileSync(path, forged.join(''));
    const unkeyed = await cli.run(ws, 'trace', 'verify', trace);
    assert.equal(unkeyed.code, 0, 'the chain alone cannot tell');
    assert.match(unkeyed.stdout, /is signed .*; set AGENTS_MD_TRACE_KEY to the key to check it/);
    const keyed = await cli.runWithEnv(ws, KEY_ENV, 'trace', 'verify', trace);
    assert.equal(keyed.code, 1, keyed.stdout);
    assert.match(keyed.stdout, /does not match the trace/);
    rmSync(`${path}.sig`);
    const missing = await cli.runWithEnv(ws, KEY_ENV, 'trace', 'verify', trace);
    assert.equal(missing.code, 1);
    assert.match(missing.stdout, /has no signature/);
  });
});

describe('large pools and values', () => {
  test('200,000 records in a JSON snapshot, one with a 5 MB field: the run ends, the trace keeps that field by size and hash', async () => {
    const records = Array.from({ length: 200_000 }, (_, i) => ({ order_id: `ORD-${i}`, status: i % 2 ? 'paid' : 'shipped', timestamp: '2024-06-10T00:00:00Z' }));
    (records[0] as Record<string, unknown>)['blob'] = 'x'.repeat(5_000_000);
    const snap = { now: '2024-06-12T08:00:00Z', pools: { order_log: { updated_at: '2024-06-12T04:00:00Z', records }, notes: { records: [] } }, tools: { get_order: [{ match: { order_id: 'ORD-123' }, output: { status: 'shipped' } }] }, queries: [{ id: 'base', query: 'where is order ORD-123', model: [{ call: 'get_order', arguments: { order_id: 'ORD-123' } }, { final: { status: 'shipped' } }] }] };
    const ws = scratch.workspace({ 'AGENTS.md': CONTRACT, 'big.snapshot.json': JSON.stringify(snap) });
    const r = await cli.run(ws, 'run', 'AGENTS.md', '-s', 'big.snapshot.json', '--json');
    assert.equal(r.code, 0, r.stderr);
    const trace = traceOf(ws);
    assert.ok(trace.length < 200_000, `the trace has ${trace.length} characters`);
    assert.match(trace, /"blob":\{"\$omitted":\{"chars":5000000,"sha256":"[0-9a-f]{64}"\}\}/);
    const v = await cli.run(ws, 'trace', 'verify', (JSON.parse(r.stdout) as { trace: string }).trace);
    assert.equal(v.code, 0, v.stdout);
  });

  test('a YAML snapshot over 4 MiB is refused at once with the advice to use JSON', async () => {
    const ws = workspace(undefined, `${SNAPSHOT}\n# ${'padding '.repeat(600_000)}\n`);
    const r = await cli.run(ws, 'run', 'AGENTS.md', '-s', 'snapshots/orders.snapshot.yaml');
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /more than the 4194304 a YAML snapshot may have .*write large pools as a JSON snapshot/);
  });
});
