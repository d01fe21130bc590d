/**
 * The `agents-md` command line as the CLI tests run it: the real esbuild bundle, built once per
 * test file into test-results/<name>-<pid>/ (git-ignored) rather than dist/, so that test files
 * cannot race with each other or with a developer's `npm run build`, with the launcher copied next
 * to it (`bin/agents-md.cjs` → `../dist/cli.cjs` resolves as in the package). Processes run at most
 * four at a time.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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

  /**
   * `shared`: one bundle for every test file of one `node --test` run (its process id names the
   * folder): the first file to need it builds it, the others reuse it; bundles of runs that ended
   * are removed by the next build.
   */
  constructor(
    name: string,
    private readonly shared = false,
    private readonly only: 'cli' | 'server' = 'cli',
  ) {
    this.buildDir = join(repo, 'test-results', shared ? `${name}-shared-${process.ppid}` : `${name}-${process.pid}`);
    this.bin = join(this.buildDir, 'bin', 'agents-md.cjs');
  }

  /** The language server's bundle, when built with `only: 'server'`. */
  get serverPath(): string {
    return join(this.buildDir, 'dist', 'server.cjs');
  }

  /** Builds the bundle (call it in `before`); a shared bundle already built is reused. */
  build(): void {
    if (this.shared && existsSync(this.bin)) return;
    if (this.shared) removeStaleSharedBundles();
    // Built aside and renamed into place, so that a file never runs a half-written bundle.
    const dir = this.shared ? `${this.buildDir}.${process.pid}` : this.buildDir;
    const r = spawnSync(process.execPath, [join(repo, 'esbuild.mjs'), '--only', this.only, '--outdir', join(dir, 'dist')], { cwd: repo, encoding: 'utf8' });
    assert.equal(r.status, 0, `esbuild failed:\n${r.stdout}\n${r.stderr}`);
    mkdirSync(join(dir, 'bin'), { recursive: true });
    copyFileSync(join(repo, 'bin', 'agents-md.cjs'), join(dir, 'bin', 'agents-md.cjs'));
    if (!this.shared) return;
    writeFileSync(join(dir, 'owner'), String(process.ppid));
    try {
      renameSync(dir, this.buildDir);
    } catch {
      // Another file of the same run renamed its bundle first: use that one.
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Removes the bundle (call it in `after`); a shared one stays for the other files of the run. */
  remove(): void {
    if (!this.shared) rmSync(this.buildDir, { recursive: true, force: true });
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

/** Removes shared bundles whose `node --test` process has ended. */
function removeStaleSharedBundles(): void {
  const results = join(repo, 'test-results');
  for (const name of existsSync(results) ? readdirSync(results) : []) {
    const m = /-shared-(\d+)(?:\.\d+)?$/.exec(name);
    if (m && !processAlive(Number(m[1]))) rmSync(join(results, name), { recursive: true, force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
