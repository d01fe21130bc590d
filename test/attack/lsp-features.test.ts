// Attack suite, the language server's features (docs/robustness.md, "Language server"): the
// bundled server over stdio, as an editor drives it, given a 5 MB document, many diagnostics of one
// rule, a configuration naming a model endpoint (a chat-completions server on 127.0.0.1), and a
// client that answers a human-decision pause with null or an error.
// Run: node --import tsx --test test/attack/lsp-features.test.ts
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ResponseError } from 'vscode-jsonrpc/node.js';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { serverBundle } from '../helpers/cli.ts';
import { LspClient } from '../helpers/lspClient.ts';
import { CONTRACT, SNAPSHOT } from '../helpers/dryRun.ts';
import type { RunAgentResult } from '../../server/src/lsp/customRequests.ts';

const server = serverBundle();
const ws = mkdtempSync(join(tmpdir(), 'agents-md-attack-features-'));
const wsUri = pathToFileURL(ws).href;
const contractUri = pathToFileURL(join(ws, 'AGENTS.md')).href;
const snapshotUri = pathToFileURL(join(ws, 'snapshots', 'orders.snapshot.yaml')).href;
const REFUND = SNAPSHOT.replace(/queries:[\s\S]*$/, 'queries:\n  - id: refund\n    query: refund order ORD-123\n    model:\n      - { call: refund_order, arguments: { order_id: ORD-123, amount: 500 } }\n      - final: { status: paid }\n  - id: base\n    query: where is order ORD-123\n    model:\n      - final: { status: shipped }\n');

let endpoint: Server;
let baseUrl = '';
let requests = 0;
before(async () => {
  server.build();
  writeFileSync(join(ws, 'AGENTS.md'), CONTRACT);
  mkdirSync(join(ws, 'snapshots'));
  writeFileSync(join(ws, 'snapshots', 'orders.snapshot.yaml'), REFUND);
  endpoint = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: '{"status":"shipped"}' } }] }));
    });
  });
  await new Promise<void>((r) => endpoint.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`;
});
after(() => {
  endpoint.closeAllConnections();
  endpoint.close();
  rmSync(ws, { recursive: true, force: true });
});

async function started(): Promise<LspClient> {
  const client = new LspClient(server.path);
  await client.initialize(wsUri, true);
  return client;
}

describe('features', () => {
  test('a 5 MB document: the first hover, outline and folding answer at once, without parsing it', async () => {
    const client = await started();
    try {
      const uri = pathToFileURL(join(ws, 'big.agents.md')).href;
      const big = `---\ncontract: true\nname: big\nversion: 1.0.0\n---\n\n## AGENT_IDENTITY\n\n- **Name**: \`Big\`\n\n${'- *a_ **b** [c](d) `e` line of filler text\n'.repeat(120_000)}`;
      assert.ok(big.length > 5_000_000);
      await client.open(uri, big);
      const t0 = Date.now();
      const hover = await client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 7, character: 5 } });
      const symbols = await client.connection.sendRequest<unknown[]>('textDocument/documentSymbol', { textDocument: { uri } });
      const folds = await client.connection.sendRequest<unknown[]>('textDocument/foldingRange', { textDocument: { uri } });
      const took = Date.now() - t0;
      assert.equal(hover, null);
      assert.deepEqual(symbols, []);
      assert.deepEqual(folds, []);
      // Not parsed: the outline would list AGENT_IDENTITY. The bound only catches a hang (a parse takes minutes).
      assert.ok(took < 30_000, `took ${took} ms`);
      const diags = await client.pullDiagnostics(uri);
      assert.deepEqual(diags.map((d) => d.code), ['file-too-large']);
    } finally {
      await client.shutdown();
    }
  });

  test('many diagnostics of one rule: "Disable … for this file" is offered once', async () => {
    const client = await started();
    try {
      const uri = pathToFileURL(join(ws, 'dup.agents.md')).href;
      await client.open(uri, '---\ncontract: true\nname: dup\nversion: 1.0.0\n---\n\n## AGENT_IDENTITY\n\n- **Name**: `Dup`\n');
      const diags: Diagnostic[] = await client.pullDiagnostics(uri);
      const byCode = new Map<string, number>();
      for (const d of diags) byCode.set(String(d.code), (byCode.get(String(d.code)) ?? 0) + 1);
      const [code, count] = [...byCode].sort((a, b) => b[1] - a[1])[0]!;
      assert.ok(count >= 2, `a rule with several diagnostics: ${JSON.stringify([...byCode])}`);
      const all = { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } };
      const actions = await client.connection.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: all, context: { diagnostics: diags } });
      const titles = actions.map((a) => a.title);
      assert.equal(titles.filter((t) => t === `Disable ${code} for this file`).length, 1, titles.join('\n'));
      assert.equal(new Set(titles.map((t, i) => `${t}${JSON.stringify(actions[i]!.edit)}`)).size, titles.length, 'no action twice');
    } finally {
      await client.shutdown();
    }
  });
});

describe('dry runs from the editor', () => {
  const runAgent = (client: LspClient, queryId: string, trusted = true) =>
    client.connection.sendRequest<RunAgentResult>('agentsMd/runAgent', { uri: contractUri, snapshotUri, queryId, runId: `r-${queryId}`, trusted });

  for (const [name, answer] of [['null', () => null], ['an error', () => new ResponseError(-32603, 'the editor closed the question')]] as const) {
    test(`the client answers a pause with ${name}: the run ends HUMAN_INVALID_ANSWER and its trace has task_end`, async () => {
      const client = await started();
      try {
        client.connection.onRequest('agentsMd/humanDecision', answer);
        await client.open(contractUri, CONTRACT);
        const result = await runAgent(client, 'refund');
        assert.match(result.tree[0]!.label, /HUMAN_INVALID_ANSWER/);
        const lines = readFileSync(fileURLToPath(result.traceUris[0]!), 'utf8').trimEnd().split('\n');
        assert.equal((JSON.parse(lines.at(-1)!) as { event_type: string }).event_type, 'task_end');
      } finally {
        await client.shutdown();
      }
    });
  }

  test('an earlier run folder holding a FIFO named like a trace: the run view answers without waiting on it', { skip: process.platform === 'win32' && 'no FIFOs on this platform' }, async () => {
    const client = await started();
    let answered = false;
    try {
      await client.open(contractUri, CONTRACT);
      const result = await runAgent(client, 'base');
      const old = join(ws, '.agents-md', 'runs', '00000000T000000000Z-old');
      mkdirSync(old, { recursive: true });
      execFileSync('mkfifo', [join(old, 'trace.jsonl')]);
      const page = client.connection.sendRequest<{ html: string }>('agentsMd/runPage', { traceUri: result.traceUris[0]!, nonce: 'n' });
      const late = new Promise<'late'>((r) => setTimeout(() => r('late'), 10_000).unref());
      const answer = await Promise.race([page, late]);
      answered = answer !== 'late';
      assert.ok(answered, 'the run view answered within 10 s');
      assert.match((answer as { html: string }).html, /<html/);
    } finally {
      // A server stuck on the FIFO cannot shut down.
      if (answered) await client.shutdown();
      else client.kill();
      rmSync(join(ws, '.agents-md'), { recursive: true, force: true });
    }
  });

  test('the configuration\'s model section is used in a trusted workspace, refused in an untrusted one', async () => {
    writeFileSync(join(ws, '.agents-md.json'), JSON.stringify({ model: { provider: 'openai', baseUrl, model: 'test-model', retries: 0 } }));
    const client = await started();
    try {
      await client.open(contractUri, CONTRACT);
      const before = requests;
      await assert.rejects(runAgent(client, 'base', false), /not used in an untrusted workspace/);
      assert.equal(requests, before);
      const result = await runAgent(client, 'base');
      assert.equal(requests, before + 1, 'the endpoint answered the run');
      assert.match(readFileSync(fileURLToPath(result.traceUris[0]!), 'utf8'), /"provider":"openai:test-model@/);
    } finally {
      await client.shutdown();
      rmSync(join(ws, '.agents-md.json'));
    }
  });
});
