// The language server's `agentsMd/semanticDiff` request (docs/semantic-diff.md), over stdio on the
// bundled server: an open document against its version in git HEAD of a real temporary
// repository, against another file, and a clear error for an unknown ref.
// Run: node --import tsx --test test/lspDiff.test.ts
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from './helpers/lspClient.ts';
import { REPO } from './helpers/cli.ts';
import type { SemanticDiffResult } from '../server/src/lsp/semanticDiff.ts';

const outdir = mkdtempSync(join(tmpdir(), 'agents-md-lsp-diff-'));
const serverPath = join(outdir, 'server.cjs');
const ws = mkdtempSync(join(tmpdir(), 'agents-md-ws-diff-'));
const corpus = (file: string) => readFileSync(join(REPO, 'test', 'diff-corpus', 'bump-unchanged', file), 'utf8');

before(() => {
  execFileSync(process.execPath, ['esbuild.mjs', '--only', 'server', '--outdir', outdir], { cwd: REPO });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: ws, stdio: 'ignore' });
  git('init', '-q');
  writeFileSync(join(ws, 'AGENTS.md'), corpus('before.md'));
  git('add', 'AGENTS.md');
  git('commit', '-q', '-m', 'v1');
  writeFileSync(join(ws, 'old.md'), corpus('before.md'));
});

after(() => {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(ws, { recursive: true, force: true });
});

test('agentsMd/semanticDiff compares the open document with git HEAD or a file, with the advice as diagnostics', async () => {
  const uri = pathToFileURL(join(ws, 'AGENTS.md')).href;
  const client = new LspClient(serverPath);
  try {
    await client.initialize(pathToFileURL(ws).href, true);
    // The editor's text, not yet saved: the disk still holds the committed version.
    await client.open(uri, corpus('after.md'));
    const head = await client.request<SemanticDiffResult>('agentsMd/semanticDiff', { uri, against: { ref: 'HEAD' } });
    assert.deepEqual(head.diff.changes.map((c) => c.reasonId), ['doc-changed']);
    assert.equal(head.diff.advice.required, 'patch');
    assert.deepEqual(head.diagnostics.map((d) => d.code), ['diff-version-bump', 'diff-audit-row']);
    assert.match(head.diagnostics[0]!.message, /since HEAD need a patch version bump/);
    const index = await client.request<SemanticDiffResult>('agentsMd/semanticDiff', { uri, against: 'index' });
    assert.deepEqual(index.diff.changes.map((c) => c.reasonId), ['doc-changed']);
    const file = await client.request<SemanticDiffResult>('agentsMd/semanticDiff', { uri, against: { file: pathToFileURL(join(ws, 'old.md')).href } });
    assert.deepEqual(file.diff.changes.map((c) => c.reasonId), ['doc-changed']);
    await assert.rejects(client.request('agentsMd/semanticDiff', { uri, against: { ref: 'no-such-ref' } }), /no-such-ref is not a commit in the repository of/);
  } finally {
    await client.shutdown();
  }
});
