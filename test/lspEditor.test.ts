import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, mkdirSync, rmSync, readFileSync } from 'node:fs';
import type { Location, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from './helpers/lspClient.ts';
import { ensureBundles, SERVER_PATH } from './helpers/bundles.ts';
import { DEMO_CONTRACT } from './helpers/fixtures.ts';

// Protocol tests of what an editor user meets in the first hour (docs/vscode.md): saving keeps
// the diagnostics, references are listed once, rename reaches the snapshots.
const serverPath = SERVER_PATH;
const ws = mkdtempSync(join(tmpdir(), 'agents-md-ws-editor-'));
const wsUri = pathToFileURL(ws).href;

const CONTRACT = DEMO_CONTRACT;

before(() => {
  ensureBundles();
});
after(() => {
  rmSync(ws, { recursive: true, force: true });
});

/** A started client (pull diagnostics, as VS Code) with `files` written under a fresh folder of the workspace. */
async function session(t: { after: (f: () => unknown) => void }, folder: string, files: Record<string, string>) {
  mkdirSync(join(ws, folder), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(ws, folder, name, '..'), { recursive: true });
    writeFileSync(join(ws, folder, name), text);
  }
  const client = new LspClient(serverPath);
  t.after(() => client.shutdown().catch(() => client.kill()));
  await client.initialize(wsUri, true);
  return { client, uri: (name: string) => `${wsUri}/${folder}/${name}` };
}

test('saving an open contract (as autosave does) keeps its diagnostics: no refresh of every file', async (t) => {
  const { client, uri } = await session(t, 'save', { 'AGENTS.md': CONTRACT, 'vendors.csv': 'a,b\n' });
  const contract = uri('AGENTS.md');
  await client.open(contract, CONTRACT);
  const first = await client.pullDiagnostics(contract);
  assert.ok(first.some((d) => d.code === 'hitl-needs-fallback'));

  // VS Code on save: didSave, then the file watcher reports the file as changed.
  await client.connection.sendNotification('textDocument/didSave', { textDocument: { uri: contract } });
  await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: contract, type: 2 }] });
  // A request answered after the notification proves the server has handled it.
  assert.deepEqual((await client.pullDiagnostics(contract)).map((d) => d.code), first.map((d) => d.code));
  assert.equal(client.refreshes, 0, 'a save of an open document asked the client to pull every file again');

  // A change of a file that is not open (a resource, another contract) still refreshes.
  await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('vendors.csv'), type: 2 }] });
  await client.pullDiagnostics(contract);
  assert.equal(client.refreshes, 1);
});

const SAMPLE = join(new URL('..', import.meta.url).pathname, 'samples', 'procurement-analyzer');
const read = (path: string) => readFileSync(path, 'utf8');

test('references list each place once; rename reaches the snapshots that name the tool', async (t) => {
  const contractText = read(join(SAMPLE, 'AGENTS.md'));
  const snapshotText = read(join(SAMPLE, 'snapshots', 'procurement.snapshot.yaml'));
  const { client, uri } = await session(t, 'rename', { 'AGENTS.md': contractText, 'snapshots/procurement.snapshot.yaml': snapshotText.replace(/\$schema: .*\n/, '') });
  const contract = uri('AGENTS.md');
  const snapshot = uri('snapshots/procurement.snapshot.yaml');
  await client.open(contract, contractText);
  const lines = contractText.split('\n');
  const line = lines.findIndex((l) => l.startsWith('### ') && l.includes('create_approval_draft'));
  const position = { line, character: lines[line]!.indexOf('create_approval_draft') + 2 };

  const refs = await client.request<Location[]>('textDocument/references', { textDocument: { uri: contract }, position, context: { includeDeclaration: true } });
  const inContract = refs.filter((r) => r.uri === contract);
  const keys = inContract.map((r) => `${r.range.start.line}`);
  assert.equal(new Set(keys).size, keys.length, `one place per line: ${JSON.stringify(inContract.map((r) => r.range))}`);
  assert.ok(inContract.every((r) => lines[r.range.start.line]!.slice(r.range.start.character, r.range.end.character) === 'create_approval_draft'));
  const snapshotRefs = refs.filter((r) => r.uri === snapshot);
  assert.ok(snapshotRefs.length >= 4, `the snapshot's mocks, calls, decisions and expectations: ${snapshotRefs.length}`);

  const edit = await client.request<WorkspaceEdit>('textDocument/rename', { textDocument: { uri: contract }, position, newName: 'draft_approval_request' });
  const renamed = applyEdits(snapshotText.replace(/\$schema: .*\n/, ''), edit.changes![snapshot]!);
  assert.doesNotMatch(renamed, /create_approval_draft/);
  assert.match(renamed, /call: draft_approval_request/);
  assert.match(renamed, /tools: \[check_inventory, draft_approval_request\]/);
  assert.equal(edit.changes![contract]!.length, inContract.length);
});

test('a free-form AGENTS.md: no hover, no contract colours, and the server says it is no contract', async (t) => {
  const freeform = read(join(SAMPLE, '..', 'coding-agent', 'AGENTS.md'));
  const { client, uri } = await session(t, 'freeform', { 'AGENTS.md': freeform });
  const doc = uri('AGENTS.md');
  await client.open(doc, freeform);
  const heading = freeform.split('\n').findIndex((l) => l.startsWith('## '));
  assert.equal(await client.request('textDocument/hover', { textDocument: { uri: doc }, position: { line: heading, character: 4 } }), null);
  assert.deepEqual((await client.request<{ data: number[] }>('textDocument/semanticTokens/full', { textDocument: { uri: doc } })).data, []);
  assert.deepEqual(await client.request('agentsMd/documentKind', { uri: doc }), { kind: 'freeform' });

  const contract = uri('x.agents.md');
  await client.open(contract, CONTRACT);
  assert.deepEqual(await client.request('agentsMd/documentKind', { uri: contract }), { kind: 'contract' });
  const tokens = await client.request<{ data: number[] }>('textDocument/semanticTokens/full', { textDocument: { uri: contract } });
  assert.deepEqual(tokens.data.slice(0, 5), [5, 3, 'AGENT_IDENTITY'.length, 0, 0], 'the first section title, type contractSection');
});

test('a way in: the New-contract text lints clean, the New-snapshot text has a query per failure, a free-form file offers Convert', async (t) => {
  const { client, uri } = await session(t, 'scaffold', {});
  const made = await client.request<{ name: string; text: string }>('agentsMd/newContract', { name: 'Order Helper', kind: 'acting' });
  assert.equal(made.name, 'order_helper');
  const contract = uri('order_helper/AGENTS.md');
  await client.open(contract, made.text);
  assert.deepEqual(await client.pullDiagnostics(contract), []);
  const snap = await client.request<{ text: string }>('agentsMd/newSnapshot', { uri: contract });
  // One query per FAILURE_PROTOCOL code of the contract, in its order (the codes themselves are
  // picked apart from the other contracts of the shared test workspace: FMT001 may be taken).
  const codes = [...made.text.matchAll(/error_code `(\w+)`/g)].map((m) => m[1]);
  assert.deepEqual(codes.slice(0, 3), ['MEMORY_UNAVAILABLE', 'MEMORY_STALE', 'INVALID_INPUT']);
  assert.equal(codes.length, 5, made.text);
  assert.deepEqual([...snap.text.matchAll(/error_code: (\w+)/g)].map((m) => m[1]), codes);
  await assert.rejects(client.request('agentsMd/newContract', { name: 'x', kind: 'nonsense' }));

  const freeform = read(join(SAMPLE, '..', 'coding-agent', 'AGENTS.md'));
  const doc = uri('AGENTS.md');
  await client.open(doc, freeform);
  const actions = await client.request<{ title: string; kind: string; edit: WorkspaceEdit }[]>('textDocument/codeAction', { textDocument: { uri: doc }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [] } });
  assert.deepEqual(actions.map((a) => [a.title, a.kind]), [['Convert to an AGENTS.md contract', 'refactor.rewrite']]);
  assert.match(applyEdits(freeform, actions[0]!.edit.changes![doc]!), /^---\ncontract: true\nname: my_agent\n/);
});

test("a rule code's text: that rule's section of docs/rules.md alone, in the client's language", async (t) => {
  const { client } = await session(t, 'ruledoc', {});
  const en = await client.request<{ markdown: string | null }>('agentsMd/ruleDoc', { code: 'hitl-needs-fallback' });
  const page = read(join(SAMPLE, '..', '..', 'docs', 'rules.md'));
  const section = page.slice(page.indexOf('\n## hitl-needs-fallback\n') + 1).split(/\n(?=## [a-z0-9-]+\n)/)[0]!;
  assert.equal(en.markdown, section.replace(/^## /, '# ').trimEnd() + '\n');
  assert.deepEqual(await client.request('agentsMd/ruleDoc', { code: 'no-such-rule' }), { markdown: null });
});

/** `text` with LSP edits applied (no overlaps). */
function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start)).reduce((s, e) => s.slice(0, offset(e.range.start)) + e.newText + s.slice(offset(e.range.end)), text);
}
