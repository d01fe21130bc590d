import { readFileSync, realpathSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';

/** `target` relative to `from`, with `/` separators; absolute when it is on another drive. */
export function displayPath(from: string, target: string): string {
  const rel = relative(from, target);
  return (rel === '' ? '.' : rel).split(sep).join('/');
}

/**
 * The bytes of a regular file of at most `maxBytes` bytes. Throws an error whose `code` is
 * `ENOTREG` for anything else (a directory, a FIFO, `/dev/zero`: reading those would block or never
 * end), `EFBIG` for a larger file, or the file system's own code (`ENOENT`…).
 */
export function readRegularFile(path: string, maxBytes: number): Buffer {
  const st = statSync(path);
  const fail = (code: string) => Object.assign(new Error(code), { code });
  if (!st.isFile()) throw fail('ENOTREG');
  if (st.size > maxBytes) throw fail('EFBIG');
  return readFileSync(path);
}

/** True when two paths name the same file (links resolved; compared as written when one does not exist). */
export function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}
