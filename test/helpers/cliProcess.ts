/**
 * The `agents-md` command line as the CLI tests run it: the real esbuild bundle, built once per
 * test file into test-results/<name>-<pid>/ (git-ignored) rather than dist/, so that test files
 * cannot race with each other or with a developer's `npm run build`, with the launcher copied next
 * to it (`bin/agents-md.cjs` → `../dist/cli.cjs` resolves as in the package). Processes run at most
 * four at a time.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What one CLI process did. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const MAX_PROCESSES = 4;

/** A CLI bundle for one test file. */
export class CliUnderTest {
  readonly buildDir: string;
  /** The launcher, bin/agents-md.cjs, beside the bundle. */
  readonly bin: string;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(name: string) {
    this.buildDir = join(repo, 'test-results', `${name}-${process.pid}`);
    this.bin = join(this.buildDir, 'bin', 'agents-md.cjs');
  }

  /** Builds the bundle (call it in `before`). */
  build(): void {
    const r = spawnSync(process.execPath, [join(repo, 'esbuild.mjs'), '--only', 'cli', '--outdir', join(this.buildDir, 'dist')], { cwd: repo, encoding: 'utf8' });
    assert.equal(r.status, 0, `esbuild failed:\n${r.stdout}\n${r.stderr}`);
    mkdirSync(dirname(this.bin), { recursive: true });
    copyFileSync(join(repo, 'bin', 'agents-md.cjs'), this.bin);
  }

  /** Removes the bundle (call it in `after`). */
  remove(): void {
    rmSync(this.buildDir, { recursive: true, force: true });
  }

  /** Runs the CLI in `cwd` with `env` (default: this process's), stdout and stderr captured. */
  async run(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env, timeout = 120_000): Promise<CliRun> {
    if (this.running >= MAX_PROCESSES) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await new Promise<CliRun>((resolve, reject) => {
        const child = spawn(process.execPath, [this.bin, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
