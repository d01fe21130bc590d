import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, writeFileSync, mkdirSync, rmSync, readFileSync } from 'node:fs';
import { applyPatch } from 'diff';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeAction, CompletionItem, Diagnostic, Hover, Location, WorkspaceEdit, DocumentSymbol } from 'vscode-languageserver-protocol';
import { LspClient } from './helpers/lspClient.ts';
import { ensureBundles, SERVER_PATH } from './helpers/bundles.ts';
import { DEMO_CONTRACT } from './helpers/fixtures.ts';

// Protocol tests: the bundled server, spawned over stdio and driven as an editor would drive it.
const serverPath = SERVER_PATH;
const ws = mkdtempSync(join(tmpdir(), 'agents-md-ws-'));
const wsUri = pathToFileURL(ws).href;

const CONTRACT = DEMO_CONTRACT;

before(() => {
  ensureBundles();
  mkdirSync(join(ws, 'agents'));
});
after(() => {
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

// The server speaks the client's language (docs/localisation.md). VS Code's LanguageClient sends
// `vscode.env.language` as LSP `initialize.params.locale`; code-server offline only reports zh-cn
// with a language pack installed (test/e2e/README.md), so this protocol test starts the real
// server bundle with that locale directly, as the client would.
test('initialized with locale zh-cn: Chinese diagnostics, hover, code actions and rule docs links', async () => {
  const uri = `${wsUri}/agents/zh.agents.md`;
  const client = new LspClient(serverPath);
  try {
    await client.initialize(wsUri, true, 'zh-CN');
    await client.open(uri, CONTRACT);
    const diags = await client.pullDiagnostics(uri);
    const hitl = diags.find((d) => d.code === 'hitl-needs-fallback')!;
    assert.equal(hitl.message, '人工介入场景 "Large order" 没有 FAILURE_PROTOCOL 兜底条目。请添加一个条目，例如 "如果 Large order 在 4h 内未获签批：→ 自动拒绝"。');
    assert.match(String(hitl.codeDescription?.href), /\/docs\/zh-cn\/rules\.md#hitl-needs-fallback$/);
    assert.ok(diags.every((d) => /\p{Script=Han}/u.test(d.message)), diags.map((d) => d.message).join('\n'));

    // Hover on the **Side Effects** label: the schema's Chinese title and description.
    const h = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: 16, character: 6 } });
    const text = (h.contents as { value: string }).value;
    assert.match(text, /^\*\*副作用\*\* · `side_effects`/);
    assert.match(text, /标签：`Side Effects`/);
    // Hover on a tool reference: what it is and where it is declared.
    const tool = await client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: 9, character: 16 } });
    assert.match((tool.contents as { value: string }).value, /^\*\*工具\*\* `get_stock`\n\n声明于第 14 行。/);

    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: hitl.range, context: { diagnostics: [hitl] } });
    assert.deepEqual(actions.map((a) => a.title), ['为 "Large order" 添加 FAILURE_PROTOCOL 兜底条目', '在此代码块中禁用 hitl-needs-fallback', '在此文件中禁用 hitl-needs-fallback', '修复所有可自动修复的契约问题']);
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.kill();
  }
});

test('source.fixAll.agentsMd applies the safe fixes (fix-on-save) and nothing else', async () => {
  const uri = `${wsUri}/agents/fixall.agents.md`;
  const text = '---\ncontract: true\n---\n## MEMROY_POLICY\n\n- **Source Priority**: `ERP > user`\n\n## MEMORY_REQUIREMENTS\n\n```yaml\n- pool: device_log\n  filters:\n    - field: device_id\n      value: {{extracted_device_id}}\n```\n';
  writeFileSync(join(ws, 'agents', 'fixall.agents.md'), text);
  const client = new LspClient(serverPath);
  try {
    await client.initialize(wsUri, true);
    await client.open(uri, text);
    const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: zero, context: { diagnostics: [], only: ['source.fixAll'] } });
    assert.deepEqual(actions.map((a) => [a.title, a.kind]), [['Fix all auto-fixable contract problems', 'source.fixAll.agentsMd']]);
    const edits = actions[0]!.edit!.changes![uri]!;
    assert.deepEqual(edits.map((e) => e.newText), ['MEMORY_POLICY', '"{{extracted_device_id}}"']);
    // Ctrl+. on one finding (docs/vscode.md, "Fixes on save"): its own fixes, then the same fix-all
    // as a quick fix, last, with the same edits. The light bulb asks on every cursor move, so a
    // client that resolves actions (VS Code) gets fix-all without its edits, computed when chosen.
    const finding = (await client.pullDiagnostics(uri)).find((d) => d.code === 'unknown-section')!;
    const menu = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: finding.range, context: { diagnostics: [finding] } });
    const last = menu[menu.length - 1]!;
    assert.deepEqual([last.title, last.kind], ['Fix all auto-fixable contract problems', 'quickfix'], menu.map((a) => a.title).join(' | '));
    assert.equal(last.edit, undefined, 'the edits are not computed for the menu');
    const chosen = await client.request<CodeAction>('codeAction/resolve', last);
    assert.deepEqual(chosen.edit!.changes![uri]!.map((e) => e.newText), ['MEMORY_POLICY', '"{{extracted_device_id}}"']);
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.kill();
  }
  // A client that does not resolve actions (push diagnostics, as Neovim) gets the edits in the menu.
  const push = new LspClient(serverPath);
  try {
    await push.initialize(wsUri, false);
    const published = push.nextPublished(uri);
    await push.open(uri, text);
    const finding = (await published).diagnostics.find((d) => d.code === 'unknown-section')!;
    const menu = await push.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: finding.range, context: { diagnostics: [finding] } });
    const last = menu[menu.length - 1]!;
    assert.equal(last.title, 'Fix all auto-fixable contract problems');
    assert.deepEqual(last.edit!.changes![uri]!.map((e) => e.newText), ['MEMORY_POLICY', '"{{extracted_device_id}}"']);
    assert.equal(await push.shutdown(), 0);
  } finally {
    client.kill();
  }
});

test('a contract written in Chinese: no diagnostics, and definition and references on Chinese names', async () => {
  const text = readFileSync(new URL('../samples/after-sales-zh/AGENTS.md', import.meta.url), 'utf8');
  const lines = text.split('\n');
  const at = (needle: string, occurrence = 0) => {
    const hits = lines.flatMap((l, line) => [...l.matchAll(new RegExp(needle, 'g'))].map((m) => ({ line, character: m.index! + 1 })));
    return hits[occurrence]!;
  };
  const uri = `${wsUri}/agents/after-sales.agents.md`;
  const client = new LspClient(serverPath);
  try {
    await client.initialize(wsUri, true, 'zh-cn');
    await client.open(uri, text);
    assert.deepEqual((await client.pullDiagnostics(uri)).map((d) => d.message), []);
    // The role 财务审核员: declared under 授权写入者, used in backticks and in the 写入方 column.
    const role = at('`财务审核员`');
    const def = await client.request<Location[]>('textDocument/definition', { textDocument: { uri }, position: { line: role.line, character: role.character + 1 } });
    assert.deepEqual(def.map((d) => d.range.start), [{ line: lines.findIndex((l) => l.startsWith('- **授权写入者**')), character: lines.find((l) => l.startsWith('- **授权写入者**'))!.indexOf('财务审核员') }]);
    const refs = await client.request<Location[]>('textDocument/references', { textDocument: { uri }, position: { line: role.line, character: role.character + 1 }, context: { includeDeclaration: true } });
    assert.deepEqual(refs.map((r) => r.range.start.line + 1).sort((a, b) => a - b), [24, 32, 71]);
    // The HITL scenario 大额退款, named by the FAILURE_PROTOCOL entry that is its fallback.
    const entry = at('如果 大额退款');
    const scenario = await client.request<Location[]>('textDocument/definition', { textDocument: { uri }, position: { line: entry.line, character: entry.character + 3 } });
    assert.equal(lines[scenario[0]!.range.start.line], '| 大额退款 | `refund_amount > 5000` | 财务审核员审批退款单后才能打款 | 24h | reject |');
    const edit = await client.request<WorkspaceEdit>('textDocument/rename', { textDocument: { uri }, position: { line: entry.line, character: entry.character + 3 }, newName: '高额退款' });
    assert.equal(edit.changes?.[uri]?.length, 2);
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.kill();
  }
});

test('fix-all in the editor does what lint --fix does on samples/broken: every safe fix, applied to its own result until none is left', async () => {
  // A tester: two HITL fallbacks are appended at one place, so one pass made one of them and a
  // second Fix all (or a second save) the other.
  const dir = mkdtempSync(join(tmpdir(), 'agents-md-fixall-'));
  cpSync(new URL('../samples/broken', import.meta.url), dir, { recursive: true });
  const root = pathToFileURL(dir).href;
  const uri = `${root}/AGENTS.md`;
  const text = readFileSync(join(dir, 'AGENTS.md'), 'utf8');
  const expected = applyPatch(text, readFileSync(new URL('./expect/broken-fix.diff', import.meta.url), 'utf8'));
  assert.ok(typeof expected === 'string' && expected.includes('If Payment to high-risk country gets no sign-off'), 'the golden patch of lint --fix applies');
  const client = new LspClient(serverPath);
  try {
    await client.initialize(root, true);
    await client.open(uri, text);
    await client.pullDiagnostics(uri);
    const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const [action] = await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: zero, context: { diagnostics: [], only: ['source.fixAll'] } });
    const fixed = TextDocument.applyEdits(TextDocument.create(uri, 'markdown', 1, text), action!.edit!.changes![uri]!);
    assert.equal(fixed, expected);
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
