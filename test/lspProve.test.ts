// Prove in the editor (docs/prove.md, "In the editor"): the open contract proved over real LSP (the
// bundled server on stdio), as the VS Code client asks for it on its command, lens or a save. Each
// finding is one diagnostic of its own source at its clause with the witness as related
// information; the server proves only when asked (never on an edit); after an edit the kept
// findings stay on unchanged clauses and a changed clause waits for the next proof; Chinese texts.
// Run: node --import tsx --test test/lspProve.test.ts
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from './helpers/lspClient.ts';
import { ensureBundles, SERVER_PATH } from './helpers/bundles.ts';
import { REPO } from './helpers/cli.ts';
import { PROVE, type ProveViewResult } from '../server/src/lsp/customRequests.ts';

const ws = mkdtempSync(join(tmpdir(), 'agents-md-ws-prove-'));
const uri = `${pathToFileURL(ws).href}/AGENTS.md`;
const corpus = (name: string) => readFileSync(join(REPO, 'test/prove-corpus', name, 'AGENTS.md'), 'utf8');
const TEXT = corpus('01-threshold-bypass');
const WITNESS = '{"tool":"pay_invoice","arguments":{"invoice_id":"x","amount":50000,"currency":"USD"}}';

before(() => ensureBundles());
after(() => rmSync(ws, { recursive: true, force: true }));

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle));

test('on request the open contract is proved: one diagnostic of its own source per finding, the witness as related information', async () => {
  const client = new LspClient(SERVER_PATH);
  try {
    await client.initialize(pathToFileURL(ws).href, true);
    await client.open(uri, TEXT);
    assert.equal(await client.request(PROVE, { uri }), null, 'never proved: nothing kept');
    // Opening and linting prove nothing: no diagnostic of the prove source comes with the lint.
    assert.ok((await client.pullDiagnostics(uri)).every((d) => d.source !== 'agents-md prove'));

    const r = await client.request<ProveViewResult>(PROVE, { uri, run: true });
    assert.equal(r.summary, '1 finding in 1 contract.');
    assert.equal(r.version, 1);
    assert.equal(r.diagnostics.length, 1);
    const d = r.diagnostics[0]!;
    assert.equal(d.source, 'agents-md prove');
    assert.equal(d.code, 'ungated-side-effect');
    assert.match(d.codeDescription!.href, /\/prove\.md#ungated-side-effect$/);
    assert.match(d.message, /^Tool `pay_invoice` \(write\) runs without a human for .*\(proved\)$/);
    assert.equal(d.range.start.line, lineOf(TEXT, '### `pay_invoice`'));
    assert.deepEqual(d.relatedInformation?.map((x) => x.message), [`witness: ${WITNESS}`]);
    assert.deepEqual(d.relatedInformation![0]!.location, { uri, range: d.range });

    // Three lines inserted above TOOLS: the finding moves with its clause, nothing is proved again.
    const at = lineOf(TEXT, '## TOOLS');
    await client.change(uri, 2, [{ range: { start: { line: at, character: 0 }, end: { line: at, character: 0 } }, text: '<!-- a -->\n<!-- b -->\n<!-- c -->\n' }]);
    const moved = await client.request<ProveViewResult>(PROVE, { uri });
    assert.equal(moved.version, 1, 'the kept proof, not a new one');
    assert.equal(moved.diagnostics[0]!.range.start.line, d.range.start.line + 3);

    // The tool's clause changed (it now requires approval): its finding waits for the next proof, which finds nothing.
    const side = lineOf(TEXT, '- **Side Effects**: write') + 3;
    await client.change(uri, 3, [{ range: { start: { line: side + 1, character: 0 }, end: { line: side + 1, character: 0 } }, text: '- **Requires Approval**: true\n' }]);
    assert.deepEqual((await client.request<ProveViewResult>(PROVE, { uri })).diagnostics, []);
    const again = await client.request<ProveViewResult>(PROVE, { uri, run: true });
    assert.equal(again.version, 3);
    assert.deepEqual(again.diagnostics, []);
    assert.equal(again.summary, '0 findings in 1 contract.');
  } finally {
    await client.shutdown();
  }
});

test('in Chinese with a Chinese locale; a free-form Markdown file is not proved', async () => {
  const client = new LspClient(SERVER_PATH);
  try {
    await client.initialize(pathToFileURL(ws).href, true, 'zh-cn');
    const zh = `${pathToFileURL(ws).href}/zh/AGENTS.md`;
    await client.open(zh, corpus('17-zh-threshold'));
    const r = await client.request<ProveViewResult>(PROVE, { uri: zh, run: true });
    assert.equal(r.diagnostics.length, 1, JSON.stringify(r));
    assert.match(r.diagnostics[0]!.message, /无需人工.*（已证明）$/);
    assert.match(r.diagnostics[0]!.relatedInformation![0]!.message, /^见证：/);
    const notes = `${pathToFileURL(ws).href}/notes/AGENTS.md`;
    await client.open(notes, '# Notes\n\nUse two spaces.\n');
    assert.equal(await client.request(PROVE, { uri: notes, run: true }), null);
  } finally {
    await client.shutdown();
  }
});
