/**
 * The `agents-md` command line as the CLI tests run it: the real esbuild bundle built once per test
 * run (helpers/bundles.ts), started by the real launcher. Processes run at most four at a time.
 */
import { spawn } from 'node:child_process';
import { CLI_BIN, ensureBundles, SERVER_PATH } from './bundles.ts';

export { repo } from './bundles.ts';

/** What one CLI process did. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const MAX_PROCESSES = 4;

/** The CLI of this test run. */
export class CliUnderTest {
  /** `bin`: the launcher, bin/agents-md.cjs, beside the bundle (the run's, unless a test copied it). */
  constructor(readonly bin = CLI_BIN) {}
  /** The language server's bundle. */
  readonly serverPath = SERVER_PATH;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  /** Builds the run's bundles unless they are there (call it in `before`). */
  build(): void {
    ensureBundles();
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
