import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOOLS_AND_HITL } from '../helpers/fixtures.ts';

// The language server used from another editor: Debian's headless Neovim and its built-in LSP
// client (push diagnostics, hover, completion). Run with `npm run test:neovim`; .ci/run installs
// the `neovim` package first. Without nvim on PATH the test says so and skips.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const missing = nvim.status === 0 ? undefined : 'nvim is not installed (apt-get install neovim); skipping the Neovim client test';

const work = mkdtempSync(join(tmpdir(), 'agents-md-nvim-'));
before(() => {
  if (missing) return;
  execFileSync(process.execPath, ['esbuild.mjs', '--only', 'server', '--outdir', work], { cwd: ROOT });
});
after(() => rmSync(work, { recursive: true, force: true }));

const CONTRACT = `---
contract: true
name: demo
version: 1.0.0
---
${TOOLS_AND_HITL}`;

test('Neovim shows the server\'s diagnostics, hover and completion', { skip: missing }, () => {
  const file = join(work, 'AGENTS.md');
  const out = join(work, 'result.json');
  writeFileSync(file, CONTRACT);
  const run = spawnSync('nvim', ['--headless', '--clean', file, '-c', `luafile ${join(ROOT, 'test/neovim/client.lua')}`], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, AGENTS_MD_SERVER: join(work, 'server.cjs'), AGENTS_MD_ROOT: work, AGENTS_MD_OUT: out, AGENTS_MD_NODE: process.execPath, AGENTS_MD_HOVER_LINE: '10', AGENTS_MD_HOVER_CHAR: '20' },
  });
  assert.equal(run.status, 0, `nvim exited ${run.status}: ${run.stderr}`);
  const result = JSON.parse(readFileSync(out, 'utf8')) as { waited: boolean; diagnostics: { code: string; line: number; col: number }[]; hover: string; completion: string[] };
  assert.ok(result.waited, 'diagnostics arrived');
  const hitl = result.diagnostics.find((d) => d.code === 'hitl-needs-fallback');
  assert.deepEqual(hitl && [hitl.line, hitl.col], [16, 2], JSON.stringify(result.diagnostics));
  assert.match(result.hover, /side_effects/);
  assert.match(result.hover, /`read`/);
  assert.deepEqual([...result.completion].sort(), ['external', 'none', 'read', 'write']);
});
