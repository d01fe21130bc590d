/**
 * Contract summaries kept on disk between runs of the CLI (docs/performance.md, "Start-up"):
 * `agents-md lint FILE` reads what every other contract under the root declares, and a repeated
 * run takes each from the file instead of parsing the contract again, as long as the contract's
 * size and times are those it had when its summary was made (the rule of the compiled-code
 * cache) and the bundle is the one that made it. One JSON file per workspace root.
 */
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { ContractSummary, SummaryStore } from '../service/index.ts';
import { cacheFolder, readCacheFile, replaceCacheFile } from './cacheFolder.ts';
import { uriToPath } from './nodeFileSystem.ts';
import { isContractSummary } from './summaryShape.ts';

/** A store file larger than this is ignored (and replaced). */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
/** Contracts kept per root (a walk lists at most 10,000); the oldest go first. */
const MAX_ENTRIES = 10_000;
/** Roots kept; the files least recently written go first. */
const MAX_ROOTS = 32;

interface Entry {
  /** The contract's size, times and inode when its summary was asked for. */
  readonly file: string;
  /** The summary's own checksum: an entry damaged or written by hand is not taken. */
  readonly sum: string;
  readonly summary: ContractSummary;
}

const checksum = (summary: ContractSummary): string => createHash('sha256').update(JSON.stringify(summary)).digest('hex').slice(0, 32);

interface StoreFile {
  readonly build: string;
  readonly entries: Record<string, Entry>;
}

/** A store that also writes what was added this run (`save`, once, at the end). */
export interface DiskSummaryStore extends SummaryStore {
  save(): void;
}

/** The running bundle: the size and times of dist/cli.cjs beside it; none from the TypeScript sources (tests through tsx). */
function buildOf(from: string): string | undefined {
  if (!from.endsWith('.cjs')) return undefined;
  try {
    const st = statSync(fileURLToPath(new URL('./cli.cjs', from)));
    return `${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return undefined;
  }
}

function fileKey(path: string): string | undefined {
  try {
    const st = statSync(path);
    return st.isFile() ? `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

function readEntries(file: string, build: string): Map<string, Entry> {
  try {
    const text = readCacheFile(file, MAX_FILE_BYTES);
    const data = (text === undefined ? undefined : JSON.parse(text)) as Partial<StoreFile> | undefined;
    if (data?.build !== build || typeof data.entries !== 'object' || data.entries === null) return new Map();
    return new Map(Object.entries(data.entries).filter(([, e]) => typeof e?.file === 'string' && typeof e.sum === 'string' && typeof e.summary === 'object' && e.summary !== null));
  } catch {
    return new Map(); // none yet, unreadable or not ours: start afresh
  }
}

/** Removes the store files of the roots least recently linted, beyond `MAX_ROOTS`. */
function pruneRoots(folder: string): void {
  const files = readdirSync(folder)
    .filter((n) => n.endsWith('.json'))
    .map((n) => ({ path: join(folder, n), time: statSync(join(folder, n), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.time - a.time);
  for (const f of files.slice(MAX_ROOTS)) unlinkSync(f.path);
}

/** Merges `added` into the file (another run may have written it meanwhile), written whole and renamed into place. */
function writeEntries(folder: string, file: string, build: string, added: ReadonlyMap<string, Entry>): void {
  const all = readEntries(file, build);
  for (const [uri, e] of added) {
    all.delete(uri);
    all.set(uri, e);
  }
  const body: StoreFile = { build, entries: Object.fromEntries([...all].slice(-MAX_ENTRIES)) };
  const text = JSON.stringify(body);
  // Too large, a file the next run would ignore; not written (a read-only or full disk), made again next run.
  if (text.length > MAX_FILE_BYTES || !replaceCacheFile(file, text)) return;
  try {
    pruneRoots(folder);
  } catch {
    // Another run pruned meanwhile.
  }
}

/**
 * The summaries kept for the workspace `root` (an absolute folder), read on the first `get`.
 * Undefined when the cache is off (`AGENTS_MD_CACHE_DIR=`) or the code does not run from a bundle.
 */
export function diskSummaryStore(root: string, env: NodeJS.ProcessEnv = process.env, from: string = import.meta.url): DiskSummaryStore | undefined {
  const base = cacheFolder(env);
  const build = buildOf(from);
  if (base === undefined || build === undefined) return undefined;
  const folder = join(base, 'summaries');
  const file = join(folder, `${createHash('sha256').update(root).digest('hex').slice(0, 32)}.json`);
  let kept: Map<string, Entry> | undefined;
  /** The file key each contract had when it was asked for: a summary made after is kept under it. */
  const seen = new Map<string, string>();
  const added = new Map<string, Entry>();
  return {
    get(uri) {
      const path = uriToPath(uri);
      const key = path === undefined ? undefined : fileKey(path);
      if (key === undefined) return undefined;
      seen.set(uri, key);
      kept ??= readEntries(file, build);
      const entry = kept.get(uri);
      return entry?.file === key && entry.sum === checksum(entry.summary) && isContractSummary(entry.summary) ? entry.summary : undefined;
    },
    set(uri, summary) {
      const key = seen.get(uri);
      if (key !== undefined) added.set(uri, { file: key, sum: checksum(summary), summary });
    },
    save() {
      if (added.size > 0) writeEntries(folder, file, build, added);
      added.clear();
    },
  };
}
