/**
 * Paths and the one bounded reader for every file a user (or a cloned repository) names: scans,
 * configuration `extends`, snapshot contracts, resources, traces (docs/robustness.md).
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import { isAbsolute, parse, relative, resolve, sep } from 'node:path';

/**
 * `target` as a user reads it, with `/` separators: relative to `from` (`AGENTS.md`, `../a/x.md`)
 * when the two share a folder below the file system's root, else absolute (`/dev/zero`, not
 * `../../dev/zero`; another drive).
 */
export function displayPath(from: string, target: string): string {
  const abs = resolve(from, target);
  const rel = relative(from, abs);
  const top = (p: string) => p.slice(parse(p).root.length).split(sep)[0];
  if (isAbsolute(rel) || (rel.startsWith('..') && (parse(from).root !== parse(abs).root || top(resolve(from)) !== top(abs)))) return abs.split(sep).join('/');
  return (rel === '' ? '.' : rel).split(sep).join('/');
}

/** True when `path` is `dir` or inside it (both absolute, compared as written). */
export function isWithin(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Where a bounded read may go: a path inside one of `roots` must also resolve (links followed) inside that root. */
export interface ReadLimits {
  readonly maxBytes: number;
  /** Workspace folders (absolute). A path inside one whose real path lies outside it is refused (`EOUTSIDE`). */
  readonly roots?: readonly string[];
  /** Read only the first `maxBytes` bytes of a larger file instead of refusing it (`EFBIG`). */
  readonly start?: boolean;
}

const fail = (code: string): Error => Object.assign(new Error(code), { code });
// O_NONBLOCK: opening a FIFO must not wait for a writer; it changes nothing for regular files.
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** The bytes to read: the file's size, at most `readBytes`; `EFBIG` over `maxBytes`. */
function checkStats(st: Stats, maxBytes: number, readBytes = maxBytes): number {
  if (!st.isFile()) throw fail('ENOTREG');
  if (st.size > maxBytes) throw fail('EFBIG');
  return Math.min(st.size, readBytes);
}

function checkContained(path: string, real: string, roots: readonly string[] | undefined, realRoot: (root: string) => string): void {
  for (const root of roots ?? []) {
    if (isWithin(root, path) && !isWithin(realRoot(root), real)) throw fail('EOUTSIDE');
  }
}

/** `p` with its links resolved; `p` itself when it cannot be (missing, no access). */
export const realOr = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/**
 * The bytes of a regular file of at most `maxBytes` bytes. Throws an error whose `code` is
 * `ENOTREG` for anything else (a directory, a FIFO, `/dev/zero`: reading those would block or never
 * end), `EFBIG` for a larger file (checked before reading), `EOUTSIDE` for a link out of its
 * workspace folder, or the file system's own code (`ENOENT`…). A file that grows while read is cut at
 * the size it had. With `start`, a larger file gives its first `maxBytes` bytes.
 */
export function readRegularFile(path: string, limits: number | ReadLimits): Buffer {
  const { maxBytes, roots, start } = typeof limits === 'number' ? { maxBytes: limits, roots: undefined, start: false } : limits;
  if (roots?.length) checkContained(resolve(path), realpathSync(path), roots, realOr);
  const fd = openSync(path, FLAGS);
  try {
    const size = checkStats(fstatSync(fd), start ? Infinity : maxBytes, maxBytes);
    const buf = Buffer.alloc(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, buf, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return got === size ? buf : buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** True when two paths name the same file (links resolved; compared as written when one does not exist). */
export function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}
