// The CLI launcher's cache of V8's compiled code on Node 20 (bin/agents-md.cjs; docs/cli.md,
// docs/performance.md "Start-up"), as a user meets it: a bundle changed in place, a write that
// fails, a cache file that is not a file, `lint` and other commands, many installs. The real
// launcher and bundle, copied into a folder of their own where the test changes the bundle.
// Run: node --import tsx --test test/cliCodeCache.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';
import { useCliBundle, REPO } from './helpers/cli.ts';
import { BUNDLE_DIR } from './helpers/bundles.ts';
import { CliUnderTest } from './helpers/cliProcess.ts';

const skip = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function' && 'Node keeps the compiled code itself';
const { bundle, scratch } = useCliBundle('cli-code-cache', { skip });
const sample = (name: string) => readFileSync(join(REPO, 'samples', name, 'AGENTS.md'), 'utf8');
const env = (cache: string) => ({ AGENTS_MD_CACHE_DIR: cache });
const files = (cache: string) => readdirSync(join(cache, 'compile')).sort();

test('a bundle rewritten with the same length and times runs its new code, not the kept one', { skip }, async () => {
  const install = scratch.workspace({});
  cpSync(join(BUNDLE_DIR, 'bin'), join(install, 'bin'), { recursive: true });
  cpSync(join(BUNDLE_DIR, 'dist'), join(install, 'dist'), { recursive: true });
  const cli = new CliUnderTest(join(install, 'bin', 'agents-md.cjs'));
  const ws = scratch.workspace({ 'AGENTS.md': sample('procurement-analyzer').replace('vendor_whitelist.csv', 'gone.csv') });
  const cache = scratch.workspace({});
  const run = () => cli.run(ws, ['lint', 'AGENTS.md'], { ...process.env, LANG: 'C.UTF-8', ...env(cache) }, 120_000);
  const before = await run();
  assert.match(before.stdout, /was not found/);
  assert.equal((await run()).stdout, before.stdout, 'the second run, from the kept code');
  // The same length, the same modification time: as a copy that keeps file times would leave it.
  // (touch -r keeps the nanoseconds, which utimes would round.)
  const main = join(install, 'dist', 'cli.cjs');
  const times = join(install, 'times');
  execFileSync('touch', ['-r', main, times]);
  writeFileSync(main, readFileSync(main, 'utf8').replace('was not found (looked in', 'was NOT FOUND (looked in'));
  execFileSync('touch', ['-r', times, main]);
  assert.match((await run()).stdout, /was NOT FOUND/);
  // A bundle that is not ASCII only (built otherwise than by esbuild.mjs) is read as UTF-8.
  writeFileSync(main, readFileSync(main, 'utf8').replace('was NOT FOUND (looked in', 'was NÖT FÖUND (looked in'));
  assert.match((await run()).stdout, /was NÖT FÖUND/);
  assert.match((await run()).stdout, /was NÖT FÖUND/, 'and from the code kept for it');
});

test('lint keeps a file of its own; a failed write leaves no temporary file; a cache file that is not a file, or far too large, is not read', { skip }, async () => {
  const ws = scratch.workspace({ 'AGENTS.md': sample('coding-agent') });
  const cache = scratch.workspace({});
  const lint = await bundle.runWithEnv(ws, env(cache), 'lint', 'AGENTS.md');
  assert.equal((await bundle.runWithEnv(ws, env(cache), 'rules')).code, 0);
  const kept = files(cache);
  assert.deepEqual(kept.map((n) => n.replace(/^cli-[0-9a-f]{16}-/, '')), ['lint.v8', 'other.v8'], kept.join(', '));
  const lintFile = join(cache, 'compile', kept.find((n) => n.endsWith('-lint.v8'))!);
  // A folder where the file goes: the rename fails, the run is as before and leaves nothing.
  rmSync(lintFile);
  mkdirSync(lintFile);
  const blocked = await bundle.runWithEnv(ws, env(cache), 'lint', 'AGENTS.md');
  assert.deepEqual([blocked.code, blocked.stdout, blocked.stderr], [lint.code, lint.stdout, '']);
  assert.deepEqual(files(cache).filter((n) => n.endsWith('.tmp')), []);
  // A FIFO: reading it would wait for a writer forever.
  rmSync(lintFile, { recursive: true });
  execFileSync('mkfifo', [lintFile]);
  const fifo = await bundle.runWithEnv(ws, env(cache), 'lint', 'AGENTS.md');
  assert.deepEqual([fifo.code, fifo.stdout, fifo.stderr], [lint.code, lint.stdout, '']);
  // Larger than any code the launcher writes (a sparse file of 65 MB): not read, and replaced.
  rmSync(lintFile);
  writeFileSync(lintFile, '');
  truncateSync(lintFile, 65 * 1024 * 1024);
  const huge = await bundle.runWithEnv(ws, env(cache), 'lint', 'AGENTS.md');
  assert.deepEqual([huge.code, huge.stdout, huge.stderr], [lint.code, lint.stdout, '']);
  assert.ok(statSync(lintFile).size < 20 * 1024 * 1024, `written afresh: ${statSync(lintFile).size} bytes`);
});

test('kept code damaged in place (bytes changed, the same size) is not given to V8, which crashed on it every run, and is written afresh', { skip }, async () => {
  const ws = scratch.workspace({ 'AGENTS.md': sample('coding-agent') });
  const cache = scratch.workspace({});
  const lint = await bundle.runWithEnv(ws, env(cache), 'lint', 'AGENTS.md');
  const file = join(cache, 'compile', files(cache).find((n) => n.endsWith('-lint.v8'))!);
  const good = readFileSync(file);
  for (const at of [40, 80, Math.floor(good.length / 2)]) {
    const bad = Buffer.from(good);
    bad[at] = bad[at]! ^ 1;
    writeFileSync(file, bad);
    const run = await bundle.runWithEnv(ws, env(cache), 'lint', 'AGENTS.md');
    assert.deepEqual([run.code, run.stdout, run.stderr], [lint.code, lint.stdout, ''], `a bit changed at byte ${at}`);
    assert.ok(!readFileSync(file).equals(bad), `written afresh after the change at byte ${at}`);
  }
});

test('the six newest files of compiled code are kept, and temporary files of runs long gone are removed', { skip }, async () => {
  const ws = scratch.workspace({ 'AGENTS.md': sample('coding-agent') });
  const cache = scratch.workspace({});
  const dir = join(cache, 'compile');
  mkdirSync(dir);
  // Seven files of earlier installs, a day apart, and what a run killed while writing left.
  const day = 86_400;
  const ago = (n: string, days: number) => utimesSync(join(dir, n), Date.now() / 1000 - days * day, Date.now() / 1000 - days * day);
  const old = [1, 2, 3, 4, 5, 6, 7].map((i) => `cli-${String(i).padStart(16, '0')}-${i % 2 ? 'lint' : 'other'}.v8`);
  old.forEach((n, i) => {
    writeFileSync(join(dir, n), 'old');
    ago(n, i + 1);
  });
  writeFileSync(join(dir, 'cli-00000000000000ff-lint.v8.123.tmp'), 'half');
  ago('cli-00000000000000ff-lint.v8.123.tmp', 1);
  writeFileSync(join(dir, 'notes.txt'), 'not ours');
  const r = await bundle.runWithEnv(ws, env(cache), 'lint', 'AGENTS.md');
  assert.equal(r.code, 0, r.stderr);
  const left = files(cache);
  const mine = left.filter((n) => !old.includes(n) && n !== 'notes.txt');
  assert.equal(mine.length, 1, `this run's file: ${left.join(', ')}`);
  assert.deepEqual(left.filter((n) => old.includes(n)), old.slice(0, 5), "the five newest earlier files, beside this run's");
  assert.ok(left.includes('notes.txt'), 'a file that is not compiled code stays');
});

test('a relative XDG_CACHE_HOME is ignored, as the XDG specification says: the caches go under the home folder, not into the workspace', { skip }, async () => {
  const ws = scratch.workspace({ 'AGENTS.md': sample('broken') });
  const home = scratch.workspace({});
  const env: Record<string, string> = { HOME: home, XDG_CACHE_HOME: 'relx' };
  const run = await bundle.runWithEnv(ws, env, 'lint', 'AGENTS.md');
  assert.equal(run.stderr, '');
  assert.deepEqual(readdirSync(ws), ['AGENTS.md']);
  assert.ok(files(join(home, '.cache', 'agents-md')).some((n) => n.endsWith('-lint.v8')), 'the compiled code under ~/.cache/agents-md');
  assert.ok(readdirSync(join(home, '.cache', 'agents-md')).includes('regex-verdicts.json'), 'and the ReDoS verdicts beside it');
});
