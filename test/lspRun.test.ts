// Run agent through the language server (docs/vscode.md, docs/dry-run.md), over stdio on the bundled server, as
// the VS Code client drives it: the ▶ Run agent code lens on a contract, the snapshots found for
// it, a run whose HUMAN_IN_THE_LOOP pause the client answers (approve and reject), the trace tree
// streamed while it runs, the trace file written under .agents-md/runs/, a cancelled run, the
// clause lenses after a run, and a snapshot's diagnostics.
// Run: node --import tsx --test test/lspRun.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CancellationTokenSource } from 'vscode-jsonrpc/node.js';
import { LspClient } from './helpers/lspClient.ts';
import { useSampleServer } from './helpers/sampleServer.ts';
import type { HumanDecisionParams, ListSnapshotsResult, RunAgentResult, RunProgressParams } from '../server/src/lsp/customRequests.ts';
import type { ViewNode } from '../server/src/service/index.ts';

const { serverPath, ws, contractUri, snapshotUri } = useSampleServer('run');
const flat = (nodes: readonly ViewNode[]): ViewNode[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);


async function started(locale = 'en'): Promise<{ client: LspClient; decisions: HumanDecisionParams[]; progress: RunProgressParams[] }> {
  const client = new LspClient(serverPath);
  const decisions: HumanDecisionParams[] = [];
  const progress: RunProgressParams[] = [];
  client.connection.onNotification('agentsMd/runProgress', (p: RunProgressParams) => void progress.push(p));
  await client.initialize(pathToFileURL(ws).href, true, locale);
  await client.open(contractUri, readFileSync(join(ws, 'AGENTS.md'), 'utf8'));
  return { client, decisions, progress };
}

test('Run agent: code lens, snapshots, a HITL pause answered by the user, the streamed tree and the trace file', async () => {
  const { client, decisions, progress } = await started();
  try {
    const lenses = await client.request<{ command: { title: string; command: string; arguments: unknown[] } }[]>('textDocument/codeLens', { textDocument: { uri: contractUri } });
    assert.deepEqual(lenses.map((l) => [l.command.title.replace(/\d+/g, 'N'), l.command.command, l.command.arguments]), [['▶ Run agent', 'agentsMd.runAgent', [contractUri]], ['Tool definitions sent with every request: N tokens, N% of the token budget', '', undefined]]);

    const { snapshots } = await client.request<ListSnapshotsResult>('agentsMd/listSnapshots', { uri: contractUri });
    assert.deepEqual(snapshots.map((s) => s.label), ['snapshots/procurement.snapshot.yaml']);
    assert.ok(snapshots[0]!.queries.some((q) => q.id === 'large-purchase-rejected'));
    assert.equal(snapshots[0]!.problem, undefined);

    // The user rejects, then approves, the same large purchase.
    for (const [decision, code] of [['reject', 'HUMAN_REJECTED'], ['approve', undefined]] as const) {
      client.connection.onRequest('agentsMd/humanDecision', (p: HumanDecisionParams) => (decisions.push(p), { decision, decidedBy: 'alice' }));
      const result = await client.request<RunAgentResult>('agentsMd/runAgent', { uri: contractUri, snapshotUri, queryId: 'large-purchase-rejected', runId: `r-${decision}`, trusted: true });
      const run = result.tree[0]!;
      // Approved, the draft is created and the query's script answers that branch too.
      assert.equal(run.label, `large-purchase-rejected · ${code ?? 'OK'}`);
      // The query expects the rejection: the rejected run is as expected (✓, its outcome still in
      // the label), the approved one is not, which its row marks (✗) and its first line says.
      assert.equal(run.kind, decision === 'reject' ? 'ok' : 'error');
      assert.equal(run.children![0]!.label.startsWith('Not as expected: '), decision === 'approve', run.children![0]!.label);
      if (decision === 'approve') assert.match(run.children![0]!.label, /expected code HUMAN_REJECTED, got OK/);
      assert.equal(result.ok, decision === 'reject');
      assert.equal(result.summary, `${decision === 'reject' ? 1 : 0} of 1 queries as expected (their expectations met, or success when they state none).`);
      const nodes = flat(result.tree);
      assert.ok(nodes.some((n) => /human|Human|decision/.test(n.label)), 'the pause is in the trace');
      // Once answered, the paused row says what was decided, and by whom; nothing stays paused.
      assert.deepEqual(nodes.filter((n) => n.kind === 'paused').map((n) => n.label), []);
      const pause = nodes.find((n) => n.id.includes('/') && n.description && new RegExp(`${decision === 'reject' ? 'rejected' : 'approved'} by alice`).test(n.description) && /paused for a human/.test(n.label));
      assert.ok(pause, JSON.stringify(nodes.filter((n) => /HUMAN|human/.test(String(n.description) + n.label)).map((n) => [n.label, n.description, n.kind])));
      assert.equal(pause.kind, decision === 'reject' ? 'error' : 'ok');
      assert.ok(nodes.some((n) => n.location?.uri === contractUri), 'events link to contract clauses');
      // A tool's call and its result lead to the tool's declaration (they name no clause of their own).
      const heading = readFileSync(join(ws, 'AGENTS.md'), 'utf8').split('\n').indexOf('### `check_inventory`');
      assert.deepEqual(nodes.filter((n) => n.label.startsWith('check_inventory ')).map((n) => n.location?.range.start.line), [heading, heading]);
      assert.equal(result.traceUris.length, 1);
      const trace = fileURLToPath(result.traceUris[0]!);
      assert.match(trace, /[/\\]\.agents-md[/\\]runs[/\\]/);
      assert.ok(existsSync(trace));
    }
    assert.equal(decisions.length, 2);
    assert.match(decisions[0]!.message, /\S/);
    assert.equal(decisions[0]!.location?.uri, contractUri, 'the question points at the HITL row');
    assert.ok(progress.length > 0 && progress.every((p) => p.runId.startsWith('r-')), 'the tree is streamed while the run goes');

    // After a run, the clauses it exercised carry a lens naming the query; the client is asked to
    // request the lenses again after each run (they changed though the text did not).
    assert.equal(client.lensRefreshes, 2);
    const after = await client.request<{ command: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri: contractUri } });
    assert.ok(after.some((l) => /exercised by 1 snapshot query: large-purchase-rejected/.test(l.command.title)), JSON.stringify(after.map((l) => l.command.title)));

    // Nobody signs the new vendor off: the user lets the decision time out, as the query expects.
    client.connection.onRequest('agentsMd/humanDecision', () => ({ decision: 'timeout', decidedBy: 'alice' }));
    const timedOut = await client.request<RunAgentResult>('agentsMd/runAgent', { uri: contractUri, snapshotUri, queryId: 'new-vendor-no-sign-off', runId: 'r-timeout', trusted: true });
    assert.equal(timedOut.tree[0]!.label, 'new-vendor-no-sign-off · HUMAN_TIMEOUT');
    assert.equal(timedOut.ok, true, timedOut.summary);
    assert.ok(flat(timedOut.tree).some((n) => /paused for a human/.test(n.label) && n.description === 'let time out by alice'), 'who let it time out');
  } finally {
    await client.shutdown();
  }
});

test('Run agent: a run waiting for a human is cancelled by the client', async () => {
  const { client } = await started();
  try {
    const source = new CancellationTokenSource();
    // Never answered: the client cancels the run instead.
    client.connection.onRequest('agentsMd/humanDecision', () => (source.cancel(), new Promise(() => {})));
    const run = client.connection.sendRequest('agentsMd/runAgent', { uri: contractUri, snapshotUri, queryId: 'large-purchase-rejected', runId: 'r-cancel', trusted: true }, source.token);
    await assert.rejects(run, /cancel/i);
  } finally {
    await client.shutdown();
  }
});

test('snapshot files get diagnostics from the server, checked against their contract', async () => {
  const { client } = await started();
  try {
    const uri = pathToFileURL(join(ws, 'snapshots', 'bad.snapshot.yaml')).href;
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: 'queries:\n  - id: q1\n    query: hello\n    pools: 12\n' } });
    const diagnostics = await client.pullDiagnostics(uri);
    assert.ok(diagnostics.length > 0, 'a malformed snapshot is reported');
    assert.ok(diagnostics.every((d) => String(d.code).startsWith('snapshot-')), JSON.stringify(diagnostics.map((d) => d.code)));
    assert.ok(diagnostics.some((d) => d.range.start.line === 3), `the bad field's line: ${JSON.stringify(diagnostics.map((d) => [d.code, d.range.start.line, d.message]))}`);
  } finally {
    await client.shutdown();
  }
});
