/**
 * The workspace over the real protocol: the bundled server on stdio, a generated workspace of 36
 * contracts on disk (bench/generateWorkspace.ts). Workspace symbols (Ctrl+T) find agents, tools,
 * pools, roles, HITL scenarios and error codes in contracts that are not open; pulled diagnostics
 * of an open contract carry the cross-contract findings with the other contract as related
 * information; workspace diagnostics (`workspace/diagnostic`) list the problems of the contracts
 * that are not open, answer `unchanged` for what did not change, wait for a change when nothing
 * did, and give way to typing. The Contracts overview (`agentsMd/contractsOverview`) answers the
 * workspace report's page as the CLI renders it, with its own nonce in a strict
 * Content-Security-Policy, nothing remote, a link per contract and per cross-contract finding at
 * the finding's line; an open contract counts as the editor has it, not as on disk.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Location, SymbolInformation, WorkspaceDiagnosticReport, WorkspaceEdit, WorkspaceFullDocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { applyEdits } from '../server/src/service/index.ts';
import { LspClient } from './helpers/lspClient.ts';
import { ensureBundles, SERVER_PATH } from './helpers/bundles.ts';
import { scratchFolders } from './helpers/cli.ts';
import { contractPath, FAULTS, generateWorkspace, resourceText } from '../bench/generateWorkspace.ts';
import { CONTRACTS_OVERVIEW, type ContractsOverviewResult } from '../server/src/lsp/customRequests.ts';

const serverPath = SERVER_PATH;
const scratch = scratchFolders();
let ws = '';

before(() => {
  ensureBundles();
  ws = scratch.workspace(generateWorkspace(36));
});
after(() => {
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

test('a contract opened before the other contracts are read: its first diagnostics do not wait for them, the cross-contract ones follow', async () => {
  const wsUri = pathToFileURL(ws).href;
  const client = new LspClient(serverPath);
  try {
    await client.initialize(wsUri, true);
    const uri = `${wsUri}/${contractPath(3)}`;
    const text = readFileSync(join(ws, contractPath(3)), 'utf8');
    await client.open(uri, text);
    // Right after start, none of the 35 others has been read: the rules that need them wait (no guess without them).
    const first = await client.pullDiagnostics(uri);
    assert.equal(first.find((d) => d.code === 'resource-pin-drift'), undefined);
    assert.deepEqual(first.map((d) => d.code), ['missing-section'], 'the document\'s own diagnostics are there');
    // Once they are read, the document is diagnosed again (the client is asked to pull).
    const refreshes = client.refreshes;
    await client.settled();
    assert.ok(client.refreshes > refreshes, 'a diagnostic refresh was asked for');
    const full = await client.pullDiagnostics(uri);
    assert.deepEqual(full.map((d) => d.code), ['missing-section', 'resource-pin-drift']);
    const drift = full.find((d) => d.code === 'resource-pin-drift');
    assert.ok(drift, 'resource-pin-drift once the others are read');
    assert.equal(drift.relatedInformation?.[0]?.location.uri, `${wsUri}/${contractPath(9)}`);
  } finally {
    await client.shutdown();
  }
});

test('workspace diagnostics: every contract that is not open, updated from file events, yielding to typing', async () => {
  const wsUri = pathToFileURL(ws).href;
  const uriOf = (i: number) => `${wsUri}/${contractPath(i)}`;
  const client = new LspClient(serverPath);
  try {
    const init = await client.initialize(wsUri, true);
    assert.deepEqual((init.capabilities['diagnosticProvider'] as { workspaceDiagnostics?: boolean }).workspaceDiagnostics, true);
    const pull = (previous: Map<string, string>) =>
      client.connection.sendRequest<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: [...previous].map(([uri, value]) => ({ uri, value })) });
    const ids = (r: WorkspaceDiagnosticReport) => new Map(r.items.map((x) => [x.uri, x.resultId!]));
    const codes = (r: WorkspaceDiagnosticReport, uri: string) => (r.items.find((x) => x.uri === uri) as WorkspaceFullDocumentDiagnosticReport).items.map((d) => d.code);
    await client.open(uriOf(0), readFileSync(join(ws, contractPath(0)), 'utf8'));

    // The 35 contracts that are not open, each with its cross-contract findings.
    const first = await pull(new Map());
    assert.equal(first.items.length, 35);
    assert.ok(!first.items.some((x) => x.uri === uriOf(0)), 'the open contract is left to the document pull');
    assert.ok(first.items.every((x) => x.kind === 'full' && x.version === null));
    const drift = (first.items.find((x) => x.uri === uriOf(FAULTS.resourceDrift)) as WorkspaceFullDocumentDiagnosticReport).items.find((d) => d.code === 'resource-pin-drift');
    assert.ok(drift, 'resource-pin-drift on the contract with the old pin');
    assert.match(drift.relatedInformation![0]!.location.uri, /lines\/logistics\/agent_0\d\d\/AGENTS\.md$/);
    assert.ok(codes(first, uriOf(13)).includes('side-effect-tool-ungated'));
    assert.ok(!codes(first, uriOf(5)).includes('resource-pin-drift'), 'hr has no fault');

    // Nothing changed: the pull is held until something does. The drift fixed on disk (a file
    // event) answers it: the logistics contracts lose the finding, the others are unchanged.
    const held = pull(ids(first));
    // An answer would come before the server says it has settled.
    assert.equal(await Promise.race([held.then(() => 'answered'), client.settled().then(() => 'held')]), 'held');
    const path = join(ws, contractPath(FAULTS.resourceDrift));
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    writeFileSync(path, readFileSync(path, 'utf8').replace(sha('old logistics'), sha(resourceText('logistics'))));
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(FAULTS.resourceDrift), type: 2 }] });
    const second = await held;
    const changed = second.items.filter((x) => x.kind === 'full').map((x) => x.uri).sort();
    assert.deepEqual(changed, [3, 9, 15, 21, 27, 33].map(uriOf).sort());
    assert.ok(!codes(second, uriOf(FAULTS.resourceDrift)).includes('resource-pin-drift'));
    assert.equal(second.items.filter((x) => x.kind === 'unchanged').length, 29);

    // Typing ends a pass early with what it has; the next pull completes.
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(5), type: 2 }] });
    const typed = pull(new Map());
    await client.change(uriOf(0), 2, [{ text: readFileSync(join(ws, contractPath(0)), 'utf8') + '\n<!-- typing -->\n' }]);
    assert.ok((await typed).items.length < 35, 'the pass gave way to the edit');
    assert.equal((await pull(new Map())).items.length, 35);
  } finally {
    await client.shutdown();
  }
});

test('a deleted folder takes its contracts out of the workspace diagnostics and the overview; an unrelated one changes nothing', async () => {
  const dir = scratch.workspace(generateWorkspace(36));
  const wsUri = pathToFileURL(dir).href;
  const uriOf = (i: number) => `${wsUri}/${contractPath(i)}`;
  const client = new LspClient(serverPath);
  try {
    await client.initialize(wsUri, true);
    // VS Code reports a deleted folder, not the files in it: the server watches deletions of anything.
    const watchers = async () => {
      for (let i = 0; i < 100 && !client.registrations.length; i++) await new Promise((r) => setTimeout(r, 50));
      return client.registrations.flatMap((r) => (r.registerOptions as { watchers?: { globPattern: string; kind?: number }[] }).watchers ?? []);
    };
    assert.ok((await watchers()).some((w) => w.globPattern === '**/*' && w.kind === (1 | 4)), 'a watcher of creations and deletions (WatchKind.Create | Delete) of anything');
    const pull = (previous: Map<string, string>) =>
      client.connection.sendRequest<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: [...previous].map(([uri, value]) => ({ uri, value })) });
    const ids = (r: WorkspaceDiagnosticReport) => new Map(r.items.filter((x) => x.resultId).map((x) => [x.uri, x.resultId!]));
    // Contract 5 is open from the start: its problems are the document pull's, never the workspace's.
    const open = uriOf(5);
    await client.open(open, readFileSync(join(dir, contractPath(5)), 'utf8'));
    await client.pullDiagnostics(open);
    const first = await pull(new Map());
    assert.equal(first.items.length, 35);

    const folder = contractPath(13).replace(/\/AGENTS\.md$/, '');
    rmSync(join(dir, folder), { recursive: true });
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: `${wsUri}/${folder}`, type: 3 }] });
    const second = await pull(ids(first));
    assert.equal(second.items.length, 35, '34 contracts and the one that went');
    assert.deepEqual(second.items.find((x) => x.uri === uriOf(13)), { kind: 'full', uri: uriOf(13), version: null, items: [] }, 'its problems cleared');
    const page = await client.connection.sendRequest<ContractsOverviewResult>(CONTRACTS_OVERVIEW, { nonce: 'n' });
    assert.equal(page.contracts.length, 35);
    assert.ok(!page.contracts.includes(uriOf(13)));

    // A folder without contracts (a build output) going is no change: the next pull stays held.
    const held = pull(ids(second));
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: `${wsUri}/out`, type: 3 }] });
    assert.equal(await Promise.race([held.then(() => 'answered'), client.settled().then(() => 'held')]), 'held');

    // The folder moved back in: VS Code reports the folder, and its contract is listed again.
    mkdirSync(join(dir, folder), { recursive: true });
    writeFileSync(join(dir, contractPath(13)), generateWorkspace(36)[contractPath(13)]!);
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: `${wsUri}/${folder}`, type: 1 }] });
    const back = await held;
    assert.ok(back.items.some((x) => x.uri === uriOf(13) && x.kind === 'full' && x.items.length > 0), 'its problems are back');

    // The open contract deleted on disk, then closed: its problems (the document pull's) are cleared too.
    const beforeClose = back;
    rmSync(join(dir, contractPath(5)));
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: open, type: 3 }] });
    await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: open } });
    const afterClose = await pull(ids(beforeClose));
    assert.deepEqual(afterClose.items.find((x) => x.uri === open), { kind: 'full', uri: open, version: null, items: [] }, 'the closed, deleted contract cleared');
  } finally {
    await client.shutdown();
  }
});

test('references and rename of a shared pool reach every contract and snapshot that use it; a shared resource\'s references too, its rename refused with the reason', async () => {
  const files = generateWorkspace(36);
  const dir = scratch.workspace(files);
  const wsUri = pathToFileURL(dir).href;
  // The logistics line: contracts 3, 9, …, 33 declare and require `logistics_history`; each has a snapshot naming it.
  const line = [3, 9, 15, 21, 27, 33].map(contractPath);
  const users = [...line, ...line.map((p) => p.replace(/AGENTS\.md$/, 'snapshots/main.snapshot.yaml'))].sort();
  const client = new LspClient(serverPath);
  try {
    await client.initialize(wsUri, true);
    const uri = `${wsUri}/${line[0]}`;
    const text = files[line[0]!]!;
    await client.open(uri, text);
    const at = (needle: string) => {
      const lines = text.split('\n');
      const l = lines.findIndex((x) => x.includes(needle));
      return { line: l, character: lines[l]!.indexOf(needle) + 1 };
    };
    const relPaths = (locs: { uri: string }[]) => [...new Set(locs.map((l) => l.uri.slice(wsUri.length + 1)))].sort();

    const position = at('### logistics_history');
    position.character += 4;
    const refs = await client.connection.sendRequest<Location[]>('textDocument/references', { textDocument: { uri }, position, context: { includeDeclaration: true } });
    assert.deepEqual(relPaths(refs), users);

    const edit = await client.connection.sendRequest<WorkspaceEdit>('textDocument/rename', { textDocument: { uri }, position, newName: 'logistics_ledger' });
    assert.deepEqual(Object.keys(edit.changes!).map((u) => u.slice(wsUri.length + 1)).sort(), users);
    for (const path of users) {
      const renamed = applyEdits(files[path]!, edit.changes![`${wsUri}/${path}`]!);
      assert.ok(!renamed.includes('logistics_history') && renamed.includes('logistics_ledger'), `${path} renamed everywhere`);
    }
    assert.ok(!Object.keys(edit.changes!).some((u) => u.includes('/procurement/')), 'other lines untouched');

    // A resource pinned by every logistics contract: its references list all six.
    const resource = await client.connection.sendRequest<Location[]>('textDocument/references', {
      textDocument: { uri },
      position: at('configs/resources/logistics_rules.csv'),
      context: { includeDeclaration: true },
    });
    assert.deepEqual(relPaths(resource), [...line].sort());

    // Renaming it is refused with the reason (the file would have to move), never half done.
    const pin = { textDocument: { uri }, position: at('configs/resources/logistics_rules.csv') };
    await assert.rejects(client.connection.sendRequest('textDocument/prepareRename', pin), (e: Error) => {
      assert.match(e.message, /^A resource path is not renamed: the file `configs\/resources\/logistics_rules\.csv` would have to move with it/);
      return true;
    });
    assert.equal(await client.connection.sendRequest('textDocument/rename', { ...pin, newName: 'configs/resources/ledger.csv' }), null);
  } finally {
    await client.shutdown();
  }
});

/** The attribute values of every element with `data-uri`, as [uri, line, text]. */
const links = (html: string) => [...html.matchAll(/<(\w+)[^>]* data-uri="([^"]+)" data-line="(\d+)"[^>]*>(.*?)<\/\1>/g)].map((m) => [m[2]!, Number(m[3]), m[4]!] as const);

test('the Contracts overview: the report page with links to every contract and finding, strict CSP, open documents as edited', async () => {
  // Its own workspace: the diagnostics test above fixes the drift on disk.
  const dir = scratch.workspace(generateWorkspace(36));
  const wsUri = pathToFileURL(dir).href;
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
    const source = readFileSync(join(dir, contractPath(FAULTS.resourceDrift)), 'utf8').split('\n');
    assert.match(source[line - 1]!, /[0-9a-f]{64}/, 'the line of the pin');

    // An open contract as edited: the drift fixed in the editor is gone from the page, unsaved.
    const text9 = source.join('\n');
    const good = readFileSync(join(dir, contractPath(3)), 'utf8').match(/[0-9a-f]{64}/)![0];
    await client.open(uri, text9.replace(/[0-9a-f]{64}/, good));
    const fixed = await client.connection.sendRequest<ContractsOverviewResult>(CONTRACTS_OVERVIEW, { nonce: 'other' });
    assert.equal(links(fixed.html).filter(([, , t]) => t.includes('resource-pin-drift')).length, 0, 'no drift left');
    assert.match(fixed.html, /script-src 'nonce-other'/);
  } finally {
    await client.shutdown();
  }
});
