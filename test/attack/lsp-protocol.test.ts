// Attack suite, the language server's wire (docs/robustness.md, "Protocol"): the bundled server
// over stdio, sent what a broken or hostile client sends — didOpen before initialize, malformed
// params, junk bytes and a bad Content-Length — plus a contract outside every workspace folder
// whose snapshots must not be searched for across the disk.
// Run: node --import tsx --test test/attack/lsp-protocol.test.ts
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serverBundle } from '../helpers/cli.ts';
import { LspClient } from '../helpers/lspClient.ts';

const server = serverBundle();
const serverPath = server.path;
const ws = mkdtempSync(join(tmpdir(), 'agents-md-attack-ws-'));
const wsUri = pathToFileURL(ws).href;
const DOC = '---\ncontract: true\nname: x\nversion: 1.0.0\n---\n\n## AGENT_IDENTITY\n\n- **Name**: `X`\n';

before(() => server.build());
after(() => {
  rmSync(ws, { recursive: true, force: true });
});

/** A server on raw stdio: `send` writes bytes, `responses` collects parsed answers, `stderr` its log. */
function rawServer() {
  const proc = spawn(process.execPath, [serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let stderr = '';
  proc.stdout.on('data', (d) => (out += String(d)));
  proc.stderr.on('data', (d) => (stderr += String(d)));
  const frame = (msg: unknown) => {
    const body = Buffer.from(JSON.stringify(msg), 'utf8');
    return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
  };
  const responses = () => out.split(/Content-Length: \d+\r\n\r\n/).filter(Boolean).map((t) => JSON.parse(t) as { id?: number; error?: { code: number; message: string }; result?: unknown });
  const answer = async (id: number, ms = 5000) => {
    const t0 = Date.now();
    for (;;) {
      const hit = responses().find((r) => r.id === id);
      if (hit) return hit;
      if (Date.now() - t0 > ms || proc.exitCode !== null) assert.fail(`no answer to ${id} within ${ms} ms (exit ${proc.exitCode}); stderr: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { proc, send: (b: Buffer | string) => proc.stdin.write(b), frame, answer, stderr: () => stderr, kill: () => proc.kill() };
}

/** The first answer also waits for the server to start, which takes longer on a loaded CI machine. */
const FIRST_ANSWER_MS = 30_000;
const init = { processId: null, rootUri: wsUri, capabilities: {}, workspaceFolders: [{ uri: wsUri, name: 'ws' }] };

test('didOpen and hover before initialize: dropped and refused with -32002; the server lives on', async () => {
  const s = rawServer();
  try {
    s.send(s.frame({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: `${wsUri}/AGENTS.md`, languageId: 'markdown', version: 1, text: DOC } } }));
    s.send(s.frame({ jsonrpc: '2.0', id: 1, method: 'textDocument/hover', params: { textDocument: { uri: `${wsUri}/AGENTS.md` }, position: { line: 0, character: 0 } } }));
    assert.equal((await s.answer(1, FIRST_ANSWER_MS)).error?.code, -32002);
    s.send(s.frame({ jsonrpc: '2.0', id: 2, method: 'initialize', params: init }));
    assert.ok((await s.answer(2)).result);
    assert.match(s.stderr(), /Dropped textDocument\/didOpen/);
  } finally {
    s.kill();
  }
});

test('malformed params get -32602 naming the problem, never a TypeError', async () => {
  const s = rawServer();
  try {
    s.send(s.frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: init }));
    await s.answer(1, FIRST_ANSWER_MS);
    s.send(s.frame({ jsonrpc: '2.0', method: 'initialized', params: {} }));
    const bad: [string, unknown][] = [
      ['textDocument/hover', {}],
      ['textDocument/hover', { textDocument: { uri: 5 }, position: { line: 0, character: 0 } }],
      ['textDocument/completion', { textDocument: { uri: 'file:///x' }, position: { line: -1, character: 'a' } }],
      ['textDocument/codeAction', { textDocument: { uri: 'file:///x' }, range: null, context: {} }],
      ['textDocument/rename', { textDocument: { uri: 'file:///x' }, position: { line: 0, character: 0 } }],
      ['agentsMd/listSnapshots', null],
      ['agentsMd/runAgent', { uri: 'file:///x' }],
    ];
    bad.forEach(([method, params], i) => s.send(s.frame({ jsonrpc: '2.0', id: 10 + i, method, params })));
    for (let i = 0; i < bad.length; i++) {
      const r = await s.answer(10 + i);
      assert.equal(r.error?.code, -32602, `${bad[i]![0]} ${JSON.stringify(bad[i]![1])}: ${JSON.stringify(r)}`);
      assert.doesNotMatch(r.error!.message, /TypeError|Cannot read/);
    }
    s.send(s.frame({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: {}, contentChanges: 7 } }));
    s.send(s.frame({ jsonrpc: '2.0', id: 99, method: 'shutdown' }));
    assert.equal((await s.answer(99)).error, undefined);
  } finally {
    s.kill();
  }
});

test('junk bytes are logged and end the server (the editor restarts it) instead of leaving it deaf', async () => {
  const s = rawServer();
  try {
    s.send(s.frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: init }));
    assert.ok((await s.answer(1, FIRST_ANSWER_MS)).result);
    const exited = new Promise<number | null>((r) => s.proc.once('exit', r));
    s.send('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal(await exited, 1);
    assert.match(s.stderr(), /framing error/);
  } finally {
    s.kill();
  }
});

test('listSnapshots for a contract outside every workspace folder answers at once, without walking its disk', async () => {
  const client = new LspClient(serverPath);
  try {
    await client.initialize(wsUri, true);
    const t0 = Date.now();
    const r = await client.request<{ snapshots: unknown[] }>('agentsMd/listSnapshots', { uri: 'file:///AGENTS.md' });
    assert.deepEqual(r.snapshots, []);
    // A walk of the disk takes minutes (and memory until the process dies): the bound tells it from an answer on a loaded machine.
    assert.ok(Date.now() - t0 < 30_000, `took ${Date.now() - t0} ms`);
  } finally {
    await client.shutdown();
  }
});
