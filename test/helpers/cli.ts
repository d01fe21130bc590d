/**
 * Runs the real `agents-md` CLI in tests: the esbuild bundle built once per test run
 * (helpers/bundles.ts), started by the real launcher. Also: temporary workspaces.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { after, before } from 'node:test';
import { CliUnderTest, type CliRun } from './cliProcess.ts';
import { ensureBundles, SERVER_PATH } from './bundles.ts';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export { repo as REPO } from './bundles.ts';

export type Run = CliRun;

/** The run's CLI bundle: `build()` in `before`. */
function cliBundle() {
  const tool = new CliUnderTest();
  /**
   * Runs the CLI with `extra` environment variables, colour-neutral (stdout is a pipe, not a TTY).
   * The locale is neutral (`LANG=C.UTF-8`, no `LC_ALL` / `LC_MESSAGES` / `LANGUAGE`) unless
   * `extra` sets it, so English tests pass on a Chinese desktop.
   */
  const runWithEnv = (cwd: string, extra: Readonly<Record<string, string>>, ...args: string[]): Promise<Run> => {
    const env: NodeJS.ProcessEnv = { ...process.env, LANG: 'C.UTF-8', ...extra };
    delete env['NO_COLOR'];
    delete env['FORCE_COLOR'];
    for (const k of ['LC_ALL', 'LC_MESSAGES', 'LANGUAGE']) if (!(k in extra)) delete env[k];
    return tool.run(cwd, args, env, 120_000); // a hang guard: a loaded CI machine took over 60 s for `lint samples`
  };
  return {
    bin: tool.bin,
    build: () => tool.build(),
    /** Runs the CLI in `cwd` in English (see `runWithEnv`). */
    run: (cwd: string, ...args: string[]): Promise<Run> => runWithEnv(cwd, {}, ...args),
    /** Runs the CLI in English with a longer time limit (many files on a loaded machine). */
    runLong: (cwd: string, timeoutMs: number, ...args: string[]): Promise<Run> => tool.run(cwd, args, { ...process.env, LANG: 'C.UTF-8' }, timeoutMs),
    runWithEnv,
  };
}

/** The run's language server bundle: `build()` in `before`, then start `path` with `--stdio`. */
export function serverBundle() {
  return { path: SERVER_PATH, build: ensureBundles };
}

/** Temporary folders holding files, named after `tag`; `dispose()` removes them all. */
export function scratchFolders(tag = 'test') {
  const dirs: string[] = [];
  return {
    /** A temporary folder holding `files` (relative path → content). */
    workspace(files: Record<string, string>): string {
      const dir = mkdtempSync(join(tmpdir(), `agents-md-${tag}-`));
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

/**
 * The CLI bundle and temporary folders of one test file (or one `describe`): the bundle is built
 * in `before` unless the run has it (not when `skip` says why the tests cannot run); the folders
 * are removed in `after`.
 */
export function useCliBundle(tag: string, options: { readonly skip?: string | false } = {}) {
  const bundle = cliBundle();
  const scratch = scratchFolders(tag);
  before(() => {
    if (!options.skip) bundle.build();
  });
  after(() => {
    scratch.dispose();
  });
  return { bundle, scratch };
}
