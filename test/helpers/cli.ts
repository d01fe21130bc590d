/**
 * Runs the real `agents-md` CLI in tests: the esbuild bundle, built once per test file into
 * test-results/ (git-ignored) rather than dist/, so that test files cannot race with each other or
 * with a developer's `npm run build`, and started by the real launcher (bin/agents-md.cjs, copied
 * next to it so that `../dist/cli.cjs` resolves as in the package). Also: temporary workspaces.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { after, before } from 'node:test';
import { CliUnderTest, type CliRun } from './cliProcess.ts';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export type Run = CliRun;

/**
 * A CLI bundle for one test file: `build()` in `before`, `dispose()` in `after`. `shared`: one
 * bundle for all the files of a `node --test` run that ask for the same shared tag (the attack
 * suite's files), built by the first.
 */
function cliBundle(tag: string, shared = false) {
  const tool = new CliUnderTest(tag, shared);
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
    return tool.run(cwd, args, env, 60_000);
  };
  return {
    bin: tool.bin,
    build: () => tool.build(),
    dispose: () => tool.remove(),
    /** Runs the CLI in `cwd` in English (see `runWithEnv`). */
    run: (cwd: string, ...args: string[]): Promise<Run> => runWithEnv(cwd, {}, ...args),
    /** Runs the CLI in English with a longer time limit (many files on a loaded machine). */
    runLong: (cwd: string, timeoutMs: number, ...args: string[]): Promise<Run> => tool.run(cwd, args, { ...process.env, LANG: 'C.UTF-8' }, timeoutMs),
    runWithEnv,
  };
}

/**
 * The language server's bundle shared by the files of one `node --test` run (the attack suite):
 * `build()` in `before` (the first file builds it), then start `path` with `--stdio`.
 */
export function sharedServerBundle(tag: string) {
  const tool = new CliUnderTest(tag, true, 'server');
  return { path: tool.serverPath, build: () => tool.build() };
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

/**
 * The CLI bundle and temporary folders of one test file (or one `describe`): the bundle is built
 * in `before` (not when `skip` says why the tests cannot run) and, with the folders, removed in
 * `after`. `shared`: see `cliBundle`.
 */
export function useCliBundle(tag: string, options: { readonly shared?: boolean; readonly skip?: string | false } = {}) {
  const bundle = cliBundle(tag, options.shared);
  const scratch = scratchFolders();
  before(() => {
    if (!options.skip) bundle.build();
  });
  after(() => {
    scratch.dispose();
    bundle.dispose();
  });
  return { bundle, scratch };
}
