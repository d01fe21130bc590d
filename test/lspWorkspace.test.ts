/**
 * The workspace over the real protocol: the bundled server on stdio, a generated workspace of 36
 * contracts on disk (bench/generateWorkspace.ts). Workspace symbols (Ctrl+T) find agents, tools,
 * pools, roles, HITL scenarios and error codes in contracts that are not open; pulled diagnostics
 * of an open contract carry the cross-contract findings with the other contract as related
 * information.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SymbolInformation } from 'vscode-languageserver-protocol';
import { LspClient } from './helpers/lspClient.ts';
import { scratchFolders } from './helpers/cli.ts';
import { contractPath, generateWorkspace } from '../bench/generateWorkspace.ts';

const outdir = mkdtempSync(join(tmpdir(), 'agents-md-lsp-ws-'));
const serverPath = join(outdir, 'server.cjs');
const scratch = scratchFolders();
let ws = '';

before(() => {
  execFileSync(process.execPath, ['esbuild.mjs', '--only', 'server', '--outdir', outdir], { cwd: new URL('..', import.meta.url).pathname });
  ws = scratch.workspace(generateWorkspace(36));
});
after(() => {
  rmSync(outdir, { recursive: true, force: true });
  scratch.dispose();
});

test('workspace symbols across unopened contracts, and cross-contract diagnostics of an open one', async () => {
  const wsUri = pathToFileURL(ws).href;
  const client = new LspClient(serverPath);
  try {
    const init = await client.initialize(wsUri, true);
    assert.equal(init.capabilities['workspaceSymbolProvider'], true);
    const find = (query: string) => client.connection.sendRequest<SymbolInformation[]>('workspace/symbol', { query });

    const refund = await find('issue_refund');
    assert.deepEqual(refund.map((s) => [s.name, s.containerName]), [
      ['issue_refund', 'lines/after_sales/agent_013/AGENTS.md'],
      ['issue_refund', 'lines/after_sales/agent_019/AGENTS.md'],
    ]);
    assert.equal(refund[0]!.location.uri, `${wsUri}/${contractPath(13)}`);
    const line = readFileSync(join(ws, contractPath(13)), 'utf8').split('\n')[refund[0]!.location.range.start.line]!;
    assert.equal(line, '### issue_refund');

    const kinds = async (q: string) => new Set((await find(q)).map((s) => s.kind));
    assert.deepEqual(await kinds('Agent17'), new Set([5])); // Class: the agent
    assert.ok((await find('hr_history')).length === 6, 'the pool of each hr contract');
    assert.ok((await find('RogueBot')).some((s) => s.containerName === 'lines/support/agent_010/AGENTS.md'));
    assert.ok((await find('Finance notice approval')).length === 6, 'HITL scenarios');
    assert.ok((await find('LOGISTICS001')).length === 6, 'error codes');
    assert.deepEqual(await find('no_such_symbol_anywhere'), []);

    const uri = `${wsUri}/${contractPath(3)}`;
    await client.open(uri, readFileSync(join(ws, contractPath(3)), 'utf8'));
    const drift = (await client.pullDiagnostics(uri)).find((d) => d.code === 'resource-pin-drift');
    assert.ok(drift, 'resource-pin-drift on an open contract');
    assert.equal(drift.relatedInformation?.[0]?.location.uri, `${wsUri}/${contractPath(9)}`);
  } finally {
    await client.shutdown();
  }
});
