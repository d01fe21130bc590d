/**
 * Turns the `lint` command's path arguments into the list of files to lint:
 * - an existing file is linted whatever its name;
 * - a directory is searched with the `contracts.include` / `contracts.exclude` globs of the
 *   configuration that applies to it (default `**\/AGENTS.md`, `**\/*.agents.md`, without
 *   node_modules and .git). The globs are relative to the workspace root, as the configuration
 *   schema says: a directory inside the root gets the root's matches that lie in it; a directory
 *   outside the root is searched with the globs relative to itself;
 * - anything else that looks like a glob is expanded (relative to the working directory), with
 *   the same excludes.
 * An argument that matches nothing is a problem (the CLI exits 2), except the implicit `.` used
 * when no path is given, which only earns a note. A search cut at the walk's limits
 * (`WALK_LIMITS`, docs/robustness.md) earns a note saying how to narrow it.
 */
import { stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { isDynamicPattern } from 'tinyglobby';
import { URI, Utils } from 'vscode-uri';
import { type ConfigProblem, type Workspace } from '../service/index.ts';
import { fileErrorReason, format } from '../service/host.ts';
import { unreadableFolders, walkFiles, WALK_LIMITS, type FileWalk } from '../node/nodeFileSystem.ts';
import { isWithin, realOr } from '../node/paths.ts';
import './messages.ts';

export interface CollectedFiles {
  /** Absolute paths, deduplicated, sorted. */
  readonly files: string[];
  /** Arguments that could not be used: the CLI prints them and exits 2. */
  readonly problems: string[];
  /** Informational messages for stderr. */
  readonly notes: string[];
  /** Problems in the configuration files consulted to search directories. */
  readonly configProblems: ConfigProblem[];
  /** Arguments whose search was cut at the walk's limits (a note says so; the report too). */
  readonly cut: string[];
}

export interface CollectOptions {
  readonly cwd: string;
  /** The workspace root (absolute path). */
  readonly root: string;
  readonly workspace: Workspace;
  /** True when the paths were not given by the user (the default `.`). */
  readonly implicit?: boolean;
  /** Language of the problems and notes (`en` by default). */
  readonly lang?: string;
}

/** The `contracts` globs of the configuration that applies to documents directly inside `dir`. */
async function globsOfFolder(workspace: Workspace, dir: string): Promise<{ include: string[]; exclude: string[]; problems: ConfigProblem[] }> {
  // configFor() takes a document URI and looks from its folder up; any name inside `dir` will do.
  const { config, problems } = await workspace.configFor(Utils.joinPath(URI.file(dir), 'AGENTS.md').toString());
  // An invalid configuration is reported (exit 2); meanwhile search with what is usable.
  const strings = (v: unknown, fallback: string[]) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : fallback);
  return { include: strings(config.contracts?.include, ['**/AGENTS.md', '**/*.agents.md']), exclude: strings(config.contracts?.exclude, ['**/node_modules/**', '**/.git/**']), problems };
}

/**
 * A file named through a link into the root (`/tmp/link/a/AGENTS.md`, `link-to-a/AGENTS.md` for
 * `a/AGENTS.md`), by the path the root's walk lists it under: otherwise it is read as another
 * contract besides itself (its agent "also declared" by itself).
 */
function inRoot(abs: string, root: string, realRoot: string): string {
  const real = realOr(abs);
  return isWithin(realRoot, real) ? join(root, relative(realRoot, real)) : abs;
}

export async function collectFiles(args: readonly string[], options: CollectOptions): Promise<CollectedFiles> {
  const files = new Set<string>();
  const realRoot = realOr(options.root);
  const problems: string[] = [];
  const notes: string[] = [];
  const configProblems: ConfigProblem[] = [];
  const cut: string[] = [];
  const t = (id: string, a: Readonly<Record<string, string | number>>) => format(id, a, options.lang);
  // A search cut at the walk's limits finds fewer contracts than there are: say so, and how to narrow it.
  const found = (arg: string, walk: FileWalk) => {
    if (walk.cut) {
      cut.push(arg);
      notes.push(t(walk.cut === 'entries' ? 'cli.files.walkCutEntries' : 'cli.files.walkCutFiles', { arg, entries: WALK_LIMITS.entries, files: WALK_LIMITS.files }));
    }
    return walk.files;
  };

  for (const arg of args) {
    const abs = resolve(options.cwd, arg);
    let kind: 'file' | 'directory' | 'other' | 'missing';
    let error = '';
    try {
      const st = await stat(abs);
      kind = st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other';
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      kind = code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'other';
      error = code ?? String(e);
    }

    if (kind === 'file') {
      files.add(inRoot(abs, options.root, realRoot));
    } else if (kind === 'directory') {
      const globs = await globsOfFolder(options.workspace, abs);
      configProblems.push(...globs.problems);
      const matches = isWithin(options.root, abs)
        ? found(arg, await walkFiles(options.root, globs.include, globs.exclude)).filter((f) => isWithin(abs, f))
        : found(arg, await walkFiles(abs, globs.include, globs.exclude));
      // A folder the scan could not enter may hold contracts: say so rather than lint less in silence.
      for (const u of await unreadableFolders(abs, globs.exclude)) problems.push(t('cli.files.unreadable', { arg: join(arg, u.path), error: fileErrorReason(u.error, options.lang ?? 'en') }));
      if (matches.length === 0) {
        const msg = t('cli.files.noContracts', { arg, globs: globs.include.join(', ') });
        (options.implicit ? notes : problems).push(msg);
      }
      for (const f of matches) files.add(inRoot(f, options.root, realRoot));
    } else if (kind === 'missing' && isDynamicPattern(arg)) {
      const globs = await globsOfFolder(options.workspace, options.cwd);
      configProblems.push(...globs.problems);
      const matches = found(arg, await walkFiles(options.cwd, [arg], globs.exclude));
      if (matches.length === 0) problems.push(t('cli.files.noMatch', { arg }));
      for (const f of matches) files.add(inRoot(f, options.root, realRoot));
    } else if (kind === 'missing') {
      problems.push(t('cli.files.missing', { arg }));
    } else {
      problems.push(error ? t('cli.files.unreadable', { arg, error: fileErrorReason(error, options.lang ?? 'en') }) : t('cli.files.notRegular', { arg }));
    }
  }
  return { files: [...files].sort(), problems, notes, configProblems, cut };
}
