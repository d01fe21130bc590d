// The language server's semantic diff (docs/semantic-diff.md), over stdio on the bundled server:
// `agentsMd/semanticDiff` for an open document against its version in git HEAD of a real
// temporary repository, the index and another file, answered as the diff view's tree; the older
// side's text through `agentsMd/revisionText`; the version advice against HEAD among the pulled
// diagnostics, in English and in Chinese; a clear error for an unknown ref.
// Run: node --import tsx --test test/lspDiff.test.ts
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from './helpers/lspClient.ts';
import { ensureBundles, SERVER_PATH } from './helpers/bundles.ts';
import { REPO } from './helpers/cli.ts';
import type { RevisionTextResult, SemanticDiffResult } from '../server/src/lsp/customRequests.ts';
import type { ViewNode } from '../server/src/service/index.ts';

const serverPath = SERVER_PATH;
const ws = mkdtempSync(join(tmpdir(), 'agents-md-ws-diff-'));
const corpus = (file: string) => readFileSync(join(REPO, 'test', 'diff-corpus', 'bump-unchanged', file), 'utf8');

before(() => {
  ensureBundles();
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: ws, stdio: 'ignore' });
  git('init', '-q');
  writeFileSync(join(ws, 'AGENTS.md'), corpus('before.md'));
  git('add', 'AGENTS.md');
  git('commit', '-q', '-m', 'v1');
  writeFileSync(join(ws, 'old.md'), corpus('before.md'));
});

after(() => {
  rmSync(ws, { recursive: true, force: true });
});

/** Every node of a tree, depth first. */
const flat = (nodes: readonly ViewNode[]): ViewNode[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);

test('agentsMd/semanticDiff compares the open document with git HEAD, the index or a file, as the diff view tree', async () => {
  const uri = pathToFileURL(join(ws, 'AGENTS.md')).href;
  const client = new LspClient(serverPath);
  try {
    await client.initialize(pathToFileURL(ws).href, true);
    // The editor's text, not yet saved: the disk still holds the committed version.
    await client.open(uri, corpus('after.md'));
    const head = await client.request<SemanticDiffResult>('agentsMd/semanticDiff', { uri, against: { kind: 'ref', ref: 'HEAD' } });
    assert.equal(head.summary, '1 semantic change: 0 breaking, 0 risk-increasing, 0 risk-reducing, 1 neutral.');
    assert.match(head.beforeUri, /^agents-md-rev:.*AGENTS\.md\?ref%3DHEAD$|^agents-md-rev:.*AGENTS\.md\?ref=HEAD$/);
    const nodes = flat(head.tree);
    assert.deepEqual(head.tree.map((n) => [n.id, n.kind]), [['advice', 'warning'], ['section:tools', 'info']]);
    const change = nodes.find((n) => n.id.startsWith('change:'))!;
    assert.equal(change.kind, 'changed');
    assert.match(change.label, /lookup_vendor/);
    assert.equal(change.location!.uri, uri);
    assert.equal(change.otherLocation!.uri, head.beforeUri);
    // The older side's text, for the virtual document of the diff editor.
    const before = await client.request<RevisionTextResult>('agentsMd/revisionText', { uri: head.beforeUri });
    assert.equal(before.text, corpus('before.md'));
    const index = await client.request<SemanticDiffResult>('agentsMd/semanticDiff', { uri, against: { kind: 'index' } });
    assert.equal(flat(index.tree).filter((n) => n.id.startsWith('change:')).length, 1);
    const file = await client.request<SemanticDiffResult>('agentsMd/semanticDiff', { uri, against: { kind: 'file', uri: pathToFileURL(join(ws, 'old.md')).href } });
    assert.equal(file.beforeUri, pathToFileURL(join(ws, 'old.md')).href);
    assert.equal(flat(file.tree).filter((n) => n.id.startsWith('change:')).length, 1);
    await assert.rejects(client.request('agentsMd/semanticDiff', { uri, against: { kind: 'ref', ref: 'no-such-ref' } }), /no-such-ref is not a commit in the repository of/);
    // The version advice against HEAD joins the document's diagnostics once computed (off the typing path).
    const diagnostics = await client.pullUntil(uri, (d) => d.some((x) => String(x.code).startsWith('diff-')));
    const advice = diagnostics.filter((d) => String(d.code).startsWith('diff-'));
    assert.deepEqual(advice.map((d) => [d.code, d.severity]), [['diff-version-bump', 3], ['diff-audit-row', 3]], 'information, not warnings: an edit does not add a warning');
    assert.match(advice[0]!.message, /since HEAD need a patch version bump/);
    assert.doesNotMatch(advice[0]!.message, /\*\*|went from (\S+) to \1/);
  } finally {
    await client.shutdown();
  }
});

test('the diff view and the version advice speak Chinese to a zh-cn client', async () => {
  const uri = pathToFileURL(join(ws, 'AGENTS.md')).href;
  const client = new LspClient(serverPath);
  try {
    await client.initialize(pathToFileURL(ws).href, true, 'zh-cn');
    await client.open(uri, corpus('after.md'));
    const head = await client.request<SemanticDiffResult>('agentsMd/semanticDiff', { uri, against: { kind: 'ref', ref: 'HEAD' } });
    assert.match(head.summary, /\p{Script=Han}/u);
    for (const n of flat(head.tree)) assert.match(n.label, /\p{Script=Han}|^[A-Z_ &]+$/u, `label of ${n.id}: ${n.label}`);
    const advice = (await client.pullUntil(uri, (d) => d.some((x) => String(x.code).startsWith('diff-')))).filter((d) => String(d.code).startsWith('diff-'));
    assert.equal(advice.length, 2);
    for (const d of advice) assert.match(d.message, /\p{Script=Han}/u);
  } finally {
    await client.shutdown();
  }
});
