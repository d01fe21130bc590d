// Attack suite, the language server at workspace scale (docs/robustness.md, "Workspace scale"): the
// bundled server over stdio, as VS Code drives it. A workspace of many contracts: `workspace/diagnostic`
// streams its reports as partial results while the pass runs, and a `workspace/symbol` and a hover
// sent meanwhile are answered between two contracts, before the pass ends. A workspace folder whose
// tree is larger than the walk's budget: `agentsMd/listSnapshots` stops walking at the cut (a
// snapshot beyond it is not found) and answers. A symbol search sent as the first pass starts is
// answered from what is indexed so far. Timing lives in bench/workspaceServer.ts.
// Run: node --import tsx --test test/attack/workspace-scale.test.ts
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ProgressType } from 'vscode-jsonrpc/node.js';
import type { Diagnostic, SymbolInformation, WorkspaceDiagnosticReport, WorkspaceDiagnosticReportPartialResult } from 'vscode-languageserver-protocol';
import { REPO, scratchFolders, serverBundle } from '../helpers/cli.ts';
import { LspClient } from '../helpers/lspClient.ts';
import { CONTRACT, SNAPSHOT } from '../helpers/dryRun.ts';
import { contractPath, generateWorkspace } from '../../bench/generateWorkspace.ts';
import { WALK_LIMITS } from '../../server/src/node/nodeFileSystem.ts';
import type { ListSnapshotsResult } from '../../server/src/lsp/customRequests.ts';

const server = serverBundle();
const scratch = scratchFolders('attack-scale');
const N = 60;
before(() => server.build());
after(() => scratch.dispose());

test('workspace/diagnostic streams partial results; a symbol search and a hover sent meanwhile are answered before it ends', async () => {
  const ws = scratch.workspace(generateWorkspace(N));
  const wsUri = pathToFileURL(ws).href;
  const client = new LspClient(server.path);
  try {
    await client.initialize(wsUri, true);
    const open = `${wsUri}/${contractPath(0)}`;
    await client.open(open, readFileSync(join(ws, contractPath(0)), 'utf8'));
    const events: string[] = [];
    const streamed: string[] = [];
    let meanwhile: Promise<unknown> | undefined;
    let symbols: SymbolInformation[] = [];
    client.connection.onProgress(new ProgressType<WorkspaceDiagnosticReportPartialResult>(), 'scale', (partial) => {
      events.push(`partial ${partial.items.length}`);
      streamed.push(...partial.items.map((x) => x.uri));
      // At the first batch, ask what a user asks while the Problems view fills.
      meanwhile ??= Promise.all([
        client.connection.sendRequest<SymbolInformation[]>('workspace/symbol', { query: 'issue_refund' }).then((s) => ((symbols = s), events.push('symbol'))),
        client.connection.sendRequest('textDocument/hover', { textDocument: { uri: open }, position: { line: 0, character: 3 } }).then(() => events.push('hover')),
      ]);
    });
    const final = await client.connection.sendRequest<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: [], partialResultToken: 'scale' });
    events.push('final');
    await meanwhile;

    // Before: one answer at the end of the pass (1,000 contracts: 59 s), nothing streamed.
    assert.ok(events[0]?.startsWith('partial'), events.join(', '));
    assert.deepEqual(final.items, [], 'streamed results leave the final answer empty');
    assert.equal(new Set(streamed).size, N - 1, 'every contract but the open one, each once');
    assert.ok(!streamed.includes(open));
    // Answered between two contracts, not after the last one.
    assert.ok(events.indexOf('symbol') < events.indexOf('final'), events.join(', '));
    assert.ok(events.indexOf('hover') < events.indexOf('final'), events.join(', '));
    assert.deepEqual(symbols.map((s) => s.containerName), [contractPath(13), contractPath(19)]);
    const batches = events.filter((e) => e.startsWith('partial'));
    assert.ok(batches.length >= 2, `the reports came in batches as they were made: ${events.join(', ')}`);
  } finally {
    await client.shutdown();
  }
});

test('a workspace worker that reaches its heap limit loses no diagnostics and does not take the server down', async () => {
  const ws = scratch.workspace(generateWorkspace(N));
  const wsUri = pathToFileURL(ws).href;
  // The smallest limit allowed: the workers run out of heap within a few contracts (the default is WORKER_HEAP_MB).
  process.env['AGENTS_MD_WORKER_HEAP_MB'] = '16';
  const client = new LspClient(server.path);
  delete process.env['AGENTS_MD_WORKER_HEAP_MB'];
  try {
    await client.initialize(wsUri, true);
    client.trace('messages');
    const reports = new Map<string, Diagnostic[]>();
    client.connection.onProgress(new ProgressType<WorkspaceDiagnosticReportPartialResult>(), 'heap', (partial) => {
      for (const r of partial.items) if (r.kind === 'full') reports.set(r.uri, r.items);
    });
    await client.connection.sendRequest<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: [], partialResultToken: 'heap' });
    const failures = client.traces.filter((t) => t.message.startsWith('workspace-worker-lost'));
    // Before: no heap limit on the workers, so none ran out.
    assert.ok(failures.some((t) => t.message.includes('ERR_WORKER_OUT_OF_MEMORY')), 'a worker ran out of heap');
    assert.equal(reports.size, N, 'every contract reported');
    // A contract's report equals its document pull once opened (the faulty ones included).
    for (const i of [0, 13]) {
      const uri = `${wsUri}/${contractPath(i)}`;
      await client.open(uri, readFileSync(join(ws, contractPath(i)), 'utf8'));
      assert.deepEqual(reports.get(uri)?.map((d) => d.code).sort(), (await client.pullDiagnostics(uri)).map((d) => d.code).sort(), contractPath(i));
    }
    assert.ok((reports.get(`${wsUri}/${contractPath(13)}`) ?? []).length > 0);
  } finally {
    assert.equal(await client.shutdown(), 0, 'the server ended normally');
  }
});

test('the server bundle ships its workspace worker beside it, and the .vsix keeps it', () => {
  assert.ok(existsSync(join(dirname(server.path), 'workspaceWorker.cjs')));
  assert.match(readFileSync(join(REPO, '.vscodeignore'), 'utf8'), /^!dist\/workspaceWorker\.cjs$/m);
});

/** A contract whose parse takes seconds (a MEMORY_POOLS table of many rows): summarising it is the pass's slowest step. */
function slowContract(name: string, rows = 900): string {
  let t = `---\ncontract: true\nname: ${name}\nversion: 1.0.0\n---\n\n## AGENT_IDENTITY\n\n- **Name**: \`${name}\`\n\n## MEMORY_POOLS\n\n| Name | Content | Lifecycle |\n|---|---|---|\n`;
  for (let i = 0; i < rows; i++) t += `| pool_${i} | Logs *of* \`device\` ${i} | 90 days |\n`;
  return t;
}

test('a workspace/symbol sent as the first pass starts answers from what is indexed, without waiting for every summary', async () => {
  // Sorted last, and slow to parse: a search that waits for every summary waits for this one.
  const ws = scratch.workspace({ ...generateWorkspace(N), 'zz_slow/AGENTS.md': slowContract('SlowLastAgent') });
  const wsUri = pathToFileURL(ws).href;
  const client = new LspClient(server.path);
  try {
    await client.initialize(wsUri, true);
    const events: string[] = [];
    const pull = client.connection.sendRequest<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: [], partialResultToken: 'first' }).then(() => events.push('final'));
    const early = await client.connection.sendRequest<SymbolInformation[]>('workspace/symbol', { query: 'SlowLastAgent' });
    events.push('symbol');
    await pull;
    // Before: the search waited for every contract's summary, the slow one included, and found it.
    assert.deepEqual(early, [], 'answered before the slow contract was indexed');
    assert.deepEqual(events, ['symbol', 'final']);
    // Once the pass has indexed everything, the same search finds it.
    const late = await client.connection.sendRequest<SymbolInformation[]>('workspace/symbol', { query: 'SlowLastAgent' });
    assert.deepEqual(late.map((s) => s.containerName), ['zz_slow/AGENTS.md']);
  } finally {
    await client.shutdown();
  }
});

test('agentsMd/listSnapshots stops its walk at the cut: a snapshot beyond it is not found, the request answers', async () => {
  // The contract at the top, a folder holding more entries than the walk reads, and a snapshot
  // naming the contract in a folder below it: reached only by a walk that goes past the cut.
  const named = `contract: ../../AGENTS.md\n${SNAPSHOT}`;
  const below = scratch.workspace({ 'AGENTS.md': CONTRACT, 'a/b/deep.snapshot.yaml': named });
  const beyond = scratch.workspace({ 'AGENTS.md': CONTRACT, 'a/b/deep.snapshot.yaml': named });
  for (let i = 0; i <= WALK_LIMITS.entries; i++) writeFileSync(join(beyond, 'a', `f${i}`), '');
  for (const [dir, found] of [[below, ['a/b/deep.snapshot.yaml']], [beyond, []]] as const) {
    const client = new LspClient(server.path);
    try {
      await client.initialize(pathToFileURL(dir).href, true);
      const uri = pathToFileURL(join(dir, 'AGENTS.md')).href;
      await client.open(uri, CONTRACT);
      const { snapshots } = await client.request<ListSnapshotsResult>('agentsMd/listSnapshots', { uri });
      // Before: the whole tree was walked and then cut, so the deep snapshot was listed.
      assert.deepEqual(snapshots.map((s) => s.label), found, dir === below ? 'a tree under the budget is walked in full' : 'the walk stopped at the cut');
    } finally {
      await client.shutdown();
    }
  }
});
