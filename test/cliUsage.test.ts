// What the built CLI says when its input cannot be used (docs/cli.md, "Exit codes"): a sentence
// instead of an error code, an absolute path for a file outside the working folder, a pattern
// that matches nothing said as such (exit 2, no "✔"), and a subcommand's usage error pointing
// at that subcommand's help; a contract named through a link read as the one the root holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { useCliBundle } from './helpers/cli.ts';

const { bundle, scratch } = useCliBundle('cli-usage');
const contract = (name: string) => `---\ncontract: true\nname: ${name}\nversion: 1.0.0\n---\n## AGENT_IDENTITY\n\n- **Name**: \`${name}\`\n`;

test('a folder given as a file reads as a sentence, not ENOTREG or EISDIR, in English and Chinese', async () => {
  const dir = scratch.workspace({ 'd/AGENTS.md': '# x\n' });
  const diff = await bundle.run(dir, 'diff', 'd', 'd');
  assert.equal(diff.code, 2);
  assert.match(diff.stderr, /d: cannot be read \(not a regular file\)/);
  const run = await bundle.runWithEnv(dir, {}, 'run', 'd', '--snapshot', 'd', '--lang', 'zh-cn');
  assert.equal(run.code, 2);
  assert.match(run.stderr, /无法读取契约（不是普通文件）/);
  assert.doesNotMatch(diff.stderr + run.stderr, /ENOTREG|EISDIR/);
});

test('a file outside the working folder is shown by its absolute path', async () => {
  const dir = scratch.workspace({});
  const r = await bundle.run(dir, 'lint', '/dev/zero');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^agents-md: \/dev\/zero: /m);
  assert.doesNotMatch(r.stderr, /\.\.\//);
});

test('a pattern that matches nothing is said so, exits 2 and prints no ✔', async () => {
  const dir = scratch.workspace({ 'AGENTS.md': '# x\n' });
  const r = await bundle.run(dir, 'lint', 'zz/*.md');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /zz\/\*\.md: no files match this pattern/);
  assert.equal(r.stdout, '');
});

test('a usage error of a subcommand points at its own help', async () => {
  const dir = scratch.workspace({});
  const diff = await bundle.run(dir, 'diff', '--bogus');
  assert.equal(diff.code, 2);
  assert.match(diff.stderr, /run "agents-md diff --help" for usage/);
  const fork = await bundle.run(dir, 'trace', 'fork', join(dir, 't.jsonl'));
  assert.equal(fork.code, 2);
  assert.match(fork.stderr, /run "agents-md trace fork --help" for usage/);
  const top = await bundle.run(dir, '--bogus');
  assert.match(top.stderr, /run "agents-md --help" for usage/);
});

test('a contract named through a link to the root is the contract the root holds, not another one beside it', async (t) => {
  const ws = scratch.workspace({ 'a/AGENTS.md': contract('alpha'), 'b/AGENTS.md': contract('beta') });
  const link = `${ws}-link`;
  symlinkSync(ws, link);
  t.after(() => rmSync(link));
  const direct = await bundle.run(ws, 'lint', 'a/AGENTS.md');
  const linked = await bundle.run(ws, 'lint', join(link, 'a', 'AGENTS.md'));
  assert.doesNotMatch(linked.stdout, /agent-name-conflict/, linked.stdout);
  assert.equal(linked.stdout, direct.stdout);
  // The folder through the link, and a link inside the root to a contract's folder.
  const all = await bundle.run(ws, 'lint', '.');
  assert.equal((await bundle.run(ws, 'lint', link)).stdout, all.stdout);
  symlinkSync(join(ws, 'a'), join(ws, 'link-to-a'));
  assert.equal((await bundle.run(ws, 'lint', join('link-to-a', 'AGENTS.md'))).stdout, direct.stdout);
});
