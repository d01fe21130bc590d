// The pre-commit hooks (.pre-commit-hooks.yaml, docs/ci.md "pre-commit") as pre-commit runs them:
// each hook's `entry` with the staged files its `files` pattern matches, in a real git repository
// made here, with `agents-md` on PATH (the CLI bundle). pre-commit itself is not needed: it runs
// the entry as a command line with the file names appended, which `sh -c 'entry "$@"'` does too.
// Run: node --import tsx --test test/preCommit.test.ts
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { parse } from 'yaml';
import { REPO, useCliBundle } from './helpers/cli.ts';

interface Hook {
  readonly id: string;
  readonly entry: string;
  readonly files: string;
}

const HOOKS = parse(readFileSync(join(REPO, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
const CORPUS = join(REPO, 'test', 'diff-corpus', 'guarantee-removed');
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

describe('the pre-commit hooks', () => {
  const { bundle, scratch } = useCliBundle('pre-commit');
  let tools = '';
  before(() => {
    tools = scratch.workspace({ 'agents-md': `#!/bin/sh\nexec "${process.execPath}" "${bundle.bin}" "$@"\n` });
    chmodSync(join(tools, 'agents-md'), 0o755);
  });

  /** Runs hook `id` on the staged files of `dir` it matches; returns its exit code and output. */
  function runHook(dir: string, id: string): { code: number | null; files: string[]; output: string } {
    const hook = HOOKS.find((h) => h.id === id)!;
    const files = git(dir, 'diff', '--cached', '--name-only').split('\n').filter((f) => new RegExp(hook.files).test(f));
    const r = spawnSync('sh', ['-c', `${hook.entry} "$@"`, 'pre-commit', ...files], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, LANG: 'C.UTF-8', PATH: `${tools}${delimiter}${process.env['PATH'] ?? ''}` },
    });
    return { code: r.status, files, output: `${r.stdout}${r.stderr}` };
  }

  function repo(): string {
    const dir = scratch.workspace({ 'AGENTS.md': readFileSync(join(CORPUS, 'before.md'), 'utf8'), 'README.md': 'Demo\n' });
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'config', 'user.email', 'test@example.com');
    git(dir, 'config', 'user.name', 'Test');
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'base');
    return dir;
  }

  test('declares the two documented hooks', () => {
    assert.deepEqual(HOOKS.map((h) => h.id), ['agents-md-lint', 'agents-md-diff']);
  });

  test('a staged change that removes guarantees fails agents-md-diff; only contracts are passed', () => {
    const dir = repo();
    writeFileSync(join(dir, 'AGENTS.md'), readFileSync(join(CORPUS, 'after.md')));
    writeFileSync(join(dir, 'README.md'), 'Demo, documented\n');
    git(dir, 'add', '.');
    const diff = runHook(dir, 'agents-md-diff');
    assert.deepEqual(diff.files, ['AGENTS.md']);
    assert.equal(diff.code, 1, diff.output);
    assert.match(diff.output, /Hard boundary removed/);
    assert.match(diff.output, /breaking change\(s\): failing as --fail-on breaking asks/);
    const lint = runHook(dir, 'agents-md-lint');
    assert.deepEqual(lint.files, ['AGENTS.md']);
    assert.notEqual(lint.output, '');
  });

  test('a new contract, not in HEAD yet, is skipped by agents-md-diff and linted', () => {
    const dir = repo();
    writeFileSync(join(dir, 'billing.agents.md'), readFileSync(join(CORPUS, 'after.md')));
    git(dir, 'add', '.');
    const diff = runHook(dir, 'agents-md-diff');
    assert.deepEqual(diff.files, ['billing.agents.md']);
    assert.equal(diff.code, 0, diff.output);
    assert.equal(diff.output, '');
    const lint = runHook(dir, 'agents-md-lint');
    assert.match(lint.output, /billing\.agents\.md/);
  });

  test('a contract whose name starts with a dash is a file to both hooks, never an option', () => {
    const dir = repo();
    writeFileSync(join(dir, '-q.agents.md'), readFileSync(join(CORPUS, 'before.md')));
    git(dir, 'add', '--', '-q.agents.md');
    git(dir, 'commit', '-q', '-m', 'dash');
    writeFileSync(join(dir, '-q.agents.md'), readFileSync(join(CORPUS, 'after.md')));
    git(dir, 'add', '--', '-q.agents.md');
    const lint = runHook(dir, 'agents-md-lint');
    assert.deepEqual(lint.files, ['-q.agents.md']);
    assert.match(lint.output, /-q\.agents\.md/, 'linted, not read as the option -q');
    const diff = runHook(dir, 'agents-md-diff');
    assert.equal(diff.code, 1, diff.output);
    assert.match(diff.output, /Hard boundary removed/);
  });
});
