/**
 * The Contracts overview over the real protocol (docs/workspace.md, "In the editor"): the bundled
 * server on stdio, a generated workspace of 36 contracts on disk. `agentsMd/contractsOverview`
 * answers the workspace report's page as the CLI renders it, with its own nonce in a strict
 * Content-Security-Policy, nothing remote, a link per contract and per cross-contract finding at
 * the finding's line; an open contract counts as the editor has it, not as on disk.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from './helpers/lspClient.ts';
import { scratchFolders } from './helpers/cli.ts';
import { contractPath, FAULTS, generateWorkspace } from '../bench/generateWorkspace.ts';
import { CONTRACTS_OVERVIEW, type ContractsOverviewResult } from '../server/src/lsp/customRequests.ts';

const outdir = mkdtempSync(join(tmpdir(), 'agents-md-lsp-overview-'));
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

/** The attribute values of every element with `data-uri`, as [uri, line, text]. */
const links = (html: string) => [...html.matchAll(/<(\w+)[^>]* data-uri="([^"]+)" data-line="(\d+)"[^>]*>(.*?)<\/\1>/g)].map((m) => [m[2]!, Number(m[3]), m[4]!] as const);

test('the Contracts overview: the report page with links to every contract and finding, strict CSP, open documents as edited', async () => {
  const wsUri = pathToFileURL(ws).href;
  const client = new LspClient(serverPath);
  try {
    await client.initialize(wsUri, true);
    const page = await client.connection.sendRequest<ContractsOverviewResult>(CONTRACTS_OVERVIEW, { nonce: 'n0nce+/=' });
    assert.equal(page.title, 'Contracts report');
    assert.equal(page.contracts.length, 36);
    assert.ok(page.contracts.includes(`${wsUri}/${contractPath(FAULTS.resourceDrift)}`));

    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page.html)?.[1];
    assert.equal(csp, "default-src 'none'; style-src 'nonce-n0nce+/='; script-src 'nonce-n0nce+/='");
    assert.match(page.html, /<style nonce="n0nce\+\/=">/);
    assert.equal([...page.html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]).join(), ' nonce="n0nce+/="', 'one script, with the nonce');
    assert.doesNotMatch(page.html, /\b(src|href)=|<link\b|@import|url\(/, 'nothing loaded from anywhere');
    assert.match(page.html, /var\(--vscode-foreground/, 'the theme colours');

    const all = links(page.html);
    // Each contract: its matrix label and its versions row, at line 1.
    for (const uri of page.contracts) assert.equal(all.filter(([u, line]) => u === uri && line === 1).length, 2, uri);
    // Each drift finding links to its contract at its line; the drifting contract's, to the pin.
    const drifts = all.filter(([, , text]) => text.includes('resource-pin-drift'));
    assert.ok(drifts.length >= 2, 'the drifting contract and the others that pin the file');
    for (const [u, l, text] of drifts) assert.match(text, new RegExp(`^${u.slice(wsUri.length + 1)}:${l} resource-pin-drift: `));
    const [uri, line] = drifts.find(([u]) => u === `${wsUri}/${contractPath(FAULTS.resourceDrift)}`)!;
    const source = readFileSync(join(ws, contractPath(FAULTS.resourceDrift)), 'utf8').split('\n');
    assert.match(source[line - 1]!, /[0-9a-f]{64}/, 'the line of the pin');

    // An open contract as edited: the drift fixed in the editor is gone from the page, unsaved.
    const text9 = source.join('\n');
    const good = readFileSync(join(ws, contractPath(3)), 'utf8').match(/[0-9a-f]{64}/)![0];
    await client.open(uri, text9.replace(/[0-9a-f]{64}/, good));
    const after = await client.connection.sendRequest<ContractsOverviewResult>(CONTRACTS_OVERVIEW, { nonce: 'other' });
    assert.equal(links(after.html).filter(([, , t]) => t.includes('resource-pin-drift')).length, 0, 'no drift left');
    assert.match(after.html, /script-src 'nonce-other'/);
  } finally {
    await client.shutdown();
  }
});
