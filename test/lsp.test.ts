import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import type { CodeAction, CompletionItem, Diagnostic, Hover, Location, WorkspaceEdit, DocumentSymbol } from 'vscode-languageserver-protocol';
import { LspClient } from './helpers/lspClient.ts';
import { TOOLS_AND_HITL } from './helpers/fixtures.ts';

// Protocol tests: the bundled server, spawned over stdio and driven as an editor would drive it.
const outdir = mkdtempSync(join(tmpdir(), 'agents-md-lsp-'));
const serverPath = join(outdir, 'server.cjs');
const ws = mkdtempSync(join(tmpdir(), 'agents-md-ws-'));
const wsUri = pathToFileURL(ws).href;

const CONTRACT = `---
contract: true
name: demo
version: 1.1.0
---
## AGENT_IDENTITY

- **Name**: \`Demo\`
- **Hard Boundaries**:
  - ✅ May use \`get_stock\` to check stock

${TOOLS_AND_HITL}
## BUDGETS

- **Max Steps**: 20
`;

before(() => {
  execFileSync(process.execPath, ['esbuild.mjs', '--only', 'server', '--outdir', outdir], { cwd: new URL('..', import.meta.url).pathname });
  mkdirSync(join(ws, 'agents'));
});
after(() => {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(ws, { recursive: true, force: true });
});

test('pull diagnostics, hover, completion, definition, rename, symbols and a quick fix over stdio', async () => {
  const uri = `${wsUri}/agents/AGENTS.md`;
  writeFileSync(join(ws, 'agents', 'AGENTS.md'), CONTRACT);
  const client = new LspClient(serverPath);
  try {
    const init = await client.initialize(wsUri, true);
    assert.ok(init.capabilities['diagnosticProvider'], 'announces pull diagnostics');
    await client.open(uri, CONTRACT);
    const diags = await client.pullDiagnostics(uri);
    const hitl = diags.find((d) => d.code === 'hitl-needs-fallback');
    assert.ok(hitl, diags.map((d) => d.code).join(', '));
    assert.deepEqual(hitl.range, { start: { line: 22, character: 2 }, end: { line: 22, character: 13 } });
    assert.equal(hitl.source, 'agents-md');
    assert.match(String(hitl.codeDescription?.href), /rules\.md#hitl-needs-fallback$/);
    assert.ok(diags.every((d) => d.code !== 'undeclared-tool'));

    const h = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: 16, character: 6 } });
    assert.match(JSON.stringify(h.contents), /side_effects/);

    const items = await client.request<CompletionItem[]>('textDocument/completion', { textDocument: { uri }, position: { line: 16, character: 20 } });
    assert.deepEqual(items.map((i) => i.label).sort(), ['external', 'none', 'read', 'write']);

    const def = await client.request<Location[]>('textDocument/definition', { textDocument: { uri }, position: { line: 9, character: 16 } });
    assert.equal(def[0]?.range.start.line, 13);

    const edit = await client.request<WorkspaceEdit>('textDocument/rename', { textDocument: { uri }, position: { line: 9, character: 16 }, newName: 'get_inventory' });
    assert.equal(edit.changes?.[uri]?.length, 2);

    const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.ok(symbols.some((s) => s.name === 'TOOLS' && s.children?.some((c) => c.name === 'get_stock')));

    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: hitl.range, context: { diagnostics: [hitl] } });
    const fix = actions.find((a) => a.isPreferred);
    assert.match(String(fix?.title), /FAILURE_PROTOCOL fallback for "Large order"/);
    assert.match(JSON.stringify(fix?.edit), /If Large order gets no sign-off within 4h/);

    // An edit makes the server re-validate the new version only.
    await client.change(uri, 2, [{ range: { start: { line: 26, character: 17 }, end: { line: 26, character: 19 } }, text: 'twenty' }]);
    const after = await client.pullDiagnostics(uri);
    assert.ok(after.some((d: Diagnostic) => d.code === 'schema' && d.range.start.line === 26), after.map((d) => `${d.code}@${d.range.start.line}`).join(', '));
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.kill();
  }
});

test('push diagnostics for clients without pull (Neovim, Helix), with document versions', async () => {
  const uri = `${wsUri}/agents/push.agents.md`;
  const client = new LspClient(serverPath);
  try {
    const init = await client.initialize(wsUri, false);
    assert.equal(init.capabilities['diagnosticProvider'], undefined);
    const first = client.nextPublished(uri);
    await client.open(uri, CONTRACT, 7);
    const p = await first;
    assert.equal(p.version, 7);
    assert.ok(p.diagnostics.some((d) => d.code === 'hitl-needs-fallback'));
    // Two quick edits: only diagnostics for the latest version are published.
    const next = client.nextPublished(uri);
    await client.change(uri, 8, [{ text: CONTRACT.replace('| Large order |', '| Big order |') }]);
    await client.change(uri, 9, [{ text: CONTRACT.replace('- **Max Steps**: 20', '- **Max Steps**: many') }]);
    const q = await next;
    assert.equal(q.version, 9);
    assert.ok(q.diagnostics.some((d) => d.code === 'schema'));
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.kill();
  }
});

test('a free-form AGENTS.md gets no diagnostics; garbage input does not crash the server', async () => {
  const uri = `${wsUri}/AGENTS.md`;
  const client = new LspClient(serverPath);
  try {
    await client.initialize(wsUri, true);
    await client.open(uri, '# Repo\n\n## Build\n\n`npm test`\n');
    assert.deepEqual(await client.pullDiagnostics(uri), []);
    await client.change(uri, 2, [{ text: '\u0000\uFEFF---\n{{{\n```yaml\n- a: [\n## ' + '|'.repeat(5000) }]);
    await client.pullDiagnostics(uri);
    const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 999, character: 999 } });
    assert.equal(hover, null);
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.kill();
  }
});
