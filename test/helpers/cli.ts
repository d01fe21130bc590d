/**
 * Runs the real `agents-md` CLI in tests: the esbuild bundle, built once per test file into
 * test-results/ (git-ignored) rather than dist/, so that test files cannot race with each other or
 * with a developer's `npm run build`, and started by the real launcher (bin/agents-md.cjs, copied
 * next to it so that `../dist/cli.cjs` resolves as in the package). Also: temporary workspaces.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A CLI bundle for one test file: `build()` in `before`, `dispose()` in `after`. */
export function cliBundle(tag: string) {
  const buildDir = join(REPO, 'test-results', `${tag}-${process.pid}`);
  const bin = join(buildDir, 'bin', 'agents-md.cjs');
  /** At most this many CLI processes at once (tests run concurrently). */
  const MAX_PROCESSES = 4;
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    bin,
    build(): void {
      const r = spawnSync(process.execPath, [join(REPO, 'esbuild.mjs'), '--only', 'cli', '--outdir', join(buildDir, 'dist')], { cwd: REPO, encoding: 'utf8' });
      assert.equal(r.status, 0, `esbuild failed:\n${r.stdout}\n${r.stderr}`);
      mkdirSync(dirname(bin), { recursive: true });
      copyFileSync(join(REPO, 'bin', 'agents-md.cjs'), bin);
    },
    dispose(): void {
      rmSync(buildDir, { recursive: true, force: true });
    },
    /** Runs the CLI in `cwd`, with a colour-neutral environment (stdout is a pipe, not a TTY) in English. */
    run: (cwd: string, ...args: string[]): Promise<Run> => runWithEnv(cwd, {}, ...args),
    runWithEnv,
  };

  /**
   * Runs the CLI with `extra` environment variables. The locale is neutral (`LANG=C.UTF-8`, no
   * `LC_ALL` / `LC_MESSAGES` / `LANGUAGE`) unless `extra` sets it, so English tests pass on a Chinese desktop.
   */
  async function runWithEnv(cwd: string, extra: Readonly<Record<string, string>>, ...args: string[]): Promise<Run> {
    if (running >= MAX_PROCESSES) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, LANG: 'C.UTF-8', ...extra };
      delete env['NO_COLOR'];
      delete env['FORCE_COLOR'];
      for (const k of ['LC_ALL', 'LC_MESSAGES', 'LANGUAGE']) if (!(k in extra)) delete env[k];
      return await new Promise<Run>((resolve, reject) => {
        const child = spawn(process.execPath, [bin, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    } finally {
      running--;
      waiting.shift()?.();
    }
  }
}

/** Temporary folders holding files; `dispose()` removes them all. */
export function scratchFolders() {
  const dirs: string[] = [];
  return {
    /** A temporary folder holding `files` (relative path → content). */
    workspace(files: Record<string, string>): string {
      const dir = mkdtempSync(join(tmpdir(), 'agents-md-test-'));
      dirs.push(dir);
      for (const [name, content] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), content);
      }
      return dir;
    },
    dispose(): void {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
