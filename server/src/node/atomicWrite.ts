/**
 * The one way we change a file (docs/robustness.md, "Writes: all or nothing"): the new bytes go to
 * a temporary file in the same folder, are flushed to the disk, and the temporary file is renamed
 * over the target. A full disk, a quota or a killed process leaves either the old file or the new
 * one, never a truncated mix; the temporary file is removed when anything fails. With `expected`
 * (the bytes the command read), a file that changed since is not written at all.
 */
import { closeSync, fsyncSync, lstatSync, openSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { InputError } from './inputError.ts';

export interface AtomicWriteOptions {
  /** The file's bytes when it was read: if it holds anything else now, nothing is written (`ECHANGED`). */
  readonly expected?: Uint8Array;
}

/** The Node I/O calls the writer makes: tests inject one that fails as a full disk does. */
export interface WriteCalls {
  writeSync: (fd: number, data: Uint8Array, offset: number, length: number) => number;
  fsyncSync: (fd: number) => void;
}

const NODE_CALLS: WriteCalls = { writeSync: (fd, data, offset, length) => writeSync(fd, data, offset, length), fsyncSync };

/** The code of a failed write: `ENOSPC`, `EACCES`…, `ECHANGED` (changed since read) or the message. */
function errorCode(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
}

/** Where the bytes go: a link is written through (its target changes, the link stays a link). */
function targetOf(path: string): string {
  try {
    return lstatSync(path).isSymbolicLink() ? realpathSync(path) : path;
  } catch {
    return path;
  }
}

function sameBytes(path: string, expected: Uint8Array): boolean {
  try {
    return Buffer.from(expected).equals(readFileSync(path));
  } catch {
    return false;
  }
}

/**
 * Replaces `path` with `data`, all or nothing. Throws an `InputError` (`file.write.failed`, the
 * reason in words: "no space left on the device") that the CLI prints with exit 2; `display` is the
 * name the message shows (the path as the user gave it).
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}, display = path, calls: WriteCalls = NODE_CALLS): void {
  const target = targetOf(path);
  if (options.expected && !sameBytes(target, options.expected)) throw new InputError('file.write.failed', { file: display, error: 'ECHANGED' });
  let mode = 0o644;
  try {
    mode = statSync(target).mode & 0o7777;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new InputError('file.write.failed', { file: display, error: errorCode(e) });
  }
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', mode);
    for (let offset = 0; offset < bytes.length; ) offset += calls.writeSync(fd, bytes, offset, bytes.length - offset);
    calls.fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, target);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // Never created, or already renamed.
    }
    throw new InputError('file.write.failed', { file: display, error: errorCode(e) });
  }
  syncFolder(dirname(target));
}

/** Flushes the folder's entry for the renamed file (best effort: not every platform can open a folder). */
function syncFolder(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // The rename itself has happened; only its durability across a power failure is at stake.
  }
}
