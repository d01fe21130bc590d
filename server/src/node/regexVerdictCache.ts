/**
 * ReDoS verdicts kept on disk between runs of the CLI (docs/performance.md, "Start-up"): a repeated
 * `agents-md lint` judges the intent patterns it has judged before from the file, without starting
 * recheck (a native process or a JVM). One JSON file per user, for one analyser: a verdict made
 * under another (recheck's version, its time limit) is not reused. Only "safe" and "vulnerable"
 * are kept: "unknown" may be a time-out of a loaded machine, worth trying again.
 */
import { join } from 'node:path';
import { cacheFolder, readCacheFile, replaceCacheFile } from './cacheFolder.ts';
import { type RegexAnalyzer } from '../service/index.ts';
import { recheckAnalyzer, RECHECK_ANALYZER_ID } from '../service/host.ts';

type Verdict = Awaited<ReturnType<RegexAnalyzer>>;

/** At most this many patterns are kept; the oldest go first. */
const MAX_VERDICTS = 5000;
/** A cache file larger than this is ignored (and replaced). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

interface CacheFile {
  readonly analyzer: string;
  readonly verdicts: Record<string, Verdict>;
}

/** The cache file: `regex-verdicts.json` in the cache folder (`cacheFolder`); none when it is off. */
export function regexVerdictCacheFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const folder = cacheFolder(env);
  return folder === undefined ? undefined : join(folder, 'regex-verdicts.json');
}

function readVerdicts(file: string, analyzer: string): Map<string, Verdict> {
  try {
    const text = readCacheFile(file, MAX_FILE_BYTES);
    if (text === undefined) return new Map();
    const data = JSON.parse(text) as Partial<CacheFile>;
    if (data.analyzer !== analyzer || typeof data.verdicts !== 'object' || data.verdicts === null) return new Map();
    return new Map(Object.entries(data.verdicts).filter(([, v]) => isKept(v)));
  } catch {
    return new Map(); // none yet, unreadable or not ours: start afresh
  }
}

const isKept = (v: unknown): v is Verdict => typeof v === 'object' && v !== null && ((v as Verdict).status === 'safe' || (v as Verdict).status === 'vulnerable');

/** Merges `added` into the file (another process may have written it meanwhile), written whole and renamed into place. */
function writeVerdicts(file: string, analyzer: string, added: ReadonlyMap<string, Verdict>): void {
  const all = readVerdicts(file, analyzer);
  for (const [p, v] of added) {
    all.delete(p);
    all.set(p, v);
  }
  const kept = [...all].slice(-MAX_VERDICTS);
  const body: CacheFile = { analyzer, verdicts: Object.fromEntries(kept) };
  // Not written (a read-only home, a full disk): the next run analyses again.
  replaceCacheFile(file, JSON.stringify(body));
}

/**
 * `analyze` with the verdicts of earlier runs from `file` (read once, on the first pattern); each
 * new verdict worth keeping is written back as soon as it is known. Without a file, `analyze` itself.
 */
export function diskCachedAnalyzer(analyze: RegexAnalyzer, analyzer: string, file: string | undefined): RegexAnalyzer {
  if (!file) return analyze;
  let known: Map<string, Verdict> | undefined;
  return async (pattern) => {
    known ??= readVerdicts(file, analyzer);
    const hit = known.get(pattern);
    if (hit) return hit;
    const verdict = await analyze(pattern);
    if (isKept(verdict)) {
      known.set(pattern, verdict);
      writeVerdicts(file, analyzer, new Map([[pattern, verdict]]));
    }
    return verdict;
  };
}

/** recheck (memoised in this process) behind the verdicts kept on disk: the analyser of the CLI's commands. */
export function cachedRecheckAnalyzer(env: NodeJS.ProcessEnv = process.env): RegexAnalyzer {
  return diskCachedAnalyzer(recheckAnalyzer, RECHECK_ANALYZER_ID, regexVerdictCacheFile(env));
}
