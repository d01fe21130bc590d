/**
 * The service's `FileSystem` on the real disk. URIs are `file:` URIs (vscode-uri); anything
 * else, and every ordinary I/O error, reads as "not there": these methods never throw. Reads go
 * through the bounded reader (regular files only, size checked first, links kept inside their
 * workspace folder) and scans are bounded walks (docs/robustness.md).
 */
import { readdir as readdirCallback, type Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { glob } from 'tinyglobby';
import { URI } from 'vscode-uri';
import type { FileSystem } from '../service/index.ts';
import { isWithin, readRegularFile } from './paths.ts';

/** Largest file the service reads through the file system (resources are hashed up to this size). */
export const MAX_READ_BYTES = 64 * 1024 * 1024;
/**
 * Deepest folder a scan enters, most files it returns, and most folder entries it reads (files and
 * folders seen, whether they match or not): a workspace folder of `file:///` is a walk of the disk.
 */
export const WALK_LIMITS = { depth: 32, files: 10_000, entries: 100_000 } as const;

/** The `file:` URI of an absolute path. */
export function fileUri(path: string): string {
  return URI.file(path).toString();
}

/** The local path of a `file:` URI, or undefined for other schemes and malformed URIs. */
export function uriToPath(uri: string): string | undefined {
  try {
    const u = URI.parse(uri);
    return u.scheme === 'file' ? u.fsPath : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Absolute paths of the files under `folder` that match `include` and not `exclude` (globs
 * relative to the folder), sorted. Dot folders are searched only where a pattern names them
 * (`.github/**`), as shells and most linters do. A bounded walk: at most `WALK_LIMITS.depth`
 * folders deep and `WALK_LIMITS.files` files; symbolic links are followed, but a file whose real
 * path lies outside `folder` is left out, and each real file is listed once (a link loop or a
 * second link to it does not list it again). The walk itself stops once it has read `entries`
 * folder entries (`WALK_LIMITS.entries`): the cut applies while walking, not to what a whole walk found.
 */
export async function globFiles(folder: string, include: readonly string[], exclude: readonly string[], entries: number = WALK_LIMITS.entries): Promise<string[]> {
  return (await walkFiles(folder, include, exclude, entries)).files;
}

/** What a bounded walk found, and why it stopped early, if it did. */
export interface FileWalk {
  readonly files: string[];
  /** `entries`: it read its budget of folder entries; `files`: it found `WALK_LIMITS.files` files. Files beyond the cut were not found. */
  readonly cut?: 'entries' | 'files';
}

/** `globFiles`, saying whether the walk was cut: a caller that lints what was found says so (docs/robustness.md). */
export async function walkFiles(folder: string, include: readonly string[], exclude: readonly string[], entries: number = WALK_LIMITS.entries): Promise<FileWalk> {
  if (include.length === 0) return { files: [] };
  try {
    const top = await realpath(folder);
    const budget = entryBudget(entries);
    const found = await glob([...include], { cwd: folder, ignore: [...exclude], absolute: true, onlyFiles: true, expandDirectories: false, deep: WALK_LIMITS.depth, fs: budget.fs, signal: budget.signal });
    const seen = new Set<string>();
    const out: string[] = [];
    for (const f of found.sort()) {
      const real = await realpath(f).catch(() => undefined);
      if (real === undefined || seen.has(real) || !isWithin(top, real)) continue;
      if (out.length >= WALK_LIMITS.files) return { files: out, cut: 'files' };
      seen.add(real);
      out.push(f);
    }
    return budget.signal.aborted ? { files: out, cut: 'entries' } : { files: out };
  } catch {
    return { files: [] };
  }
}

/**
 * The glob's file system with a budget of folder entries: each folder read spends its entries; the
 * read that overspends is cut to what is left and stops the walk (no folder is read after it).
 */
function entryBudget(entries: number) {
  let left = entries;
  const stop = new AbortController();
  type Done = (error: NodeJS.ErrnoException | null, found: Dirent[]) => void;
  const read = (path: string, options: { withFileTypes: true }, done: Done) => {
    if (stop.signal.aborted) return done(null, []);
    readdirCallback(path, options, (error, found) => {
      if (error) return done(error, []);
      if (found.length >= left) stop.abort();
      const kept = found.slice(0, Math.max(0, left));
      left -= found.length;
      done(null, kept);
    });
  };
  return { fs: { readdir: read as never }, signal: stop.signal };
}

/**
 * The folders under `folder` that a scan could not read (permission denied…), relative to it,
 * with the error code: the glob skips them silently, the command line reports them (exit 2,
 * docs/cli.md). The same bounds as `globFiles`; dot folders and the folders an exclude glob
 * names at any depth (`node_modules`, `.git`) are not entered; each real folder is entered once.
 */
export async function unreadableFolders(folder: string, exclude: readonly string[]): Promise<{ readonly path: string; readonly error: string }[]> {
  const skipped = new Set(exclude.map((g) => /^\*\*\/([^/*]+)\/\*\*$/.exec(g)?.[1]).filter((n): n is string => n !== undefined));
  const out: { path: string; error: string }[] = [];
  const seen = new Set<string>();
  let entered = 0;
  const walk = async (dir: string, depth: number): Promise<void> => {
    const real = await realpath(dir).catch(() => undefined);
    if (real === undefined || seen.has(real) || depth > WALK_LIMITS.depth || ++entered > WALK_LIMITS.files) return;
    seen.add(real);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      out.push({ path: relative(folder, dir) || '.', error: (e as NodeJS.ErrnoException).code ?? String(e) });
      return;
    }
    for (const e of entries) if (e.isDirectory() && !e.name.startsWith('.') && !skipped.has(e.name)) await walk(join(dir, e.name), depth + 1);
  };
  await walk(folder, 0);
  return out;
}

/** Creates a `FileSystem` over node:fs; `roots` gives the workspace folders (paths) that links must not leave. */
export function createNodeFileSystem(roots: () => readonly string[] = () => []): FileSystem {
  return {
    async readFile(uri) {
      const path = uriToPath(uri);
      if (path === undefined) return undefined;
      try {
        return readRegularFile(path, { maxBytes: MAX_READ_BYTES, roots: roots() });
      } catch {
        return undefined;
      }
    },
    async stat(uri) {
      const path = uriToPath(uri);
      if (path === undefined) return undefined;
      try {
        const st = await stat(path);
        if (st.isFile()) return { type: 'file', size: st.size };
        if (st.isDirectory()) return { type: 'directory', size: st.size };
        return undefined;
      } catch {
        return undefined;
      }
    },
    async findFiles(folderUri, include, exclude) {
      const folder = uriToPath(folderUri);
      if (folder === undefined) return [];
      return (await globFiles(folder, include, exclude)).map(fileUri);
    },
  };
}
