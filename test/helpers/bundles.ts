/**
 * The bundles the process tests start: the CLI (with its lint worker) and the language server
 * (with its ReDoS worker), built by esbuild once per test run rather than once per file.
 * `npm run test:all` (test/run.mjs) builds them before the run and names the folder in
 * `AGENTS_MD_TEST_BUNDLE`; a file run on its own builds them once for its process into
 * test-results/bundle-<pid>/ (git-ignored, removed when the process exits), never into dist/, so
 * that runs cannot race with each other or with a developer's `npm run build`. The launcher
 * (bin/agents-md.cjs) is copied beside `dist/` so that `../dist/cli.cjs` resolves as in the package.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const fromRun = process.env['AGENTS_MD_TEST_BUNDLE'];
/** The folder holding bin/ and dist/. */
export const BUNDLE_DIR = fromRun ?? join(repo, 'test-results', `bundle-${process.pid}`);
/** The CLI's launcher. */
export const CLI_BIN = join(BUNDLE_DIR, 'bin', 'agents-md.cjs');
/** The language server (run it with `--stdio`). */
export const SERVER_PATH = join(BUNDLE_DIR, 'dist', 'server.cjs');

let built = false;

/** Builds the bundles unless this run or process already has them (call it in `before`). */
export function ensureBundles(): void {
  if (built || (fromRun && existsSync(CLI_BIN) && existsSync(SERVER_PATH))) return;
  buildBundles(BUNDLE_DIR);
  built = true;
  if (!fromRun) process.once('exit', () => rmSync(BUNDLE_DIR, { recursive: true, force: true }));
}

/** Builds the CLI and server bundles into `dir`/dist with the launcher in `dir`/bin. */
export function buildBundles(dir: string): void {
  const r = spawnSync(process.execPath, [join(repo, 'esbuild.mjs'), '--only', 'cli,server', '--outdir', join(dir, 'dist')], { cwd: repo, encoding: 'utf8' });
  assert.equal(r.status, 0, `esbuild failed:\n${r.stdout}\n${r.stderr}`);
  mkdirSync(join(dir, 'bin'), { recursive: true });
  copyFileSync(join(repo, 'bin', 'agents-md.cjs'), join(dir, 'bin', 'agents-md.cjs'));
}
