/**
 * The folder of what the CLI keeps between runs (docs/performance.md, "Start-up"): the ReDoS
 * verdicts and the contract summaries, and how its files are read and replaced.
 * bin/agents-md.cjs follows the same rule for its compiled code (it runs before any bundle is
 * loaded, so it cannot import this).
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { readRegularFile } from './paths.ts';

/**
 * `$AGENTS_MD_CACHE_DIR`, else `$XDG_CACHE_HOME/agents-md` (an absolute path; a relative one is
 * ignored, as the XDG specification says), else `~/.cache/agents-md`. `AGENTS_MD_CACHE_DIR=`
 * (empty) keeps nothing: undefined.
 */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const explicit = env['AGENTS_MD_CACHE_DIR'];
  if (explicit !== undefined) return explicit === '' ? undefined : explicit;
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'agents-md');
}

/**
 * The text of a cache file, or undefined when there is none, it is not a regular file (a FIFO
 * or a device would block or never end) or it is larger than `maxBytes`.
 */
export function readCacheFile(file: string, maxBytes: number): string | undefined {
  try {
    return readRegularFile(file, maxBytes).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * Replaces a cache file with `text`: written beside it and renamed over it (a link in its place
 * is replaced, never written through). False when that failed (a read-only or full disk); no
 * temporary file is left behind.
 */
export function replaceCacheFile(file: string, text: string): boolean {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temp, text);
    renameSync(temp, file);
    return true;
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // Its folder is no folder, or not ours to change: nothing was written there either.
    }
    return false;
  }
}
