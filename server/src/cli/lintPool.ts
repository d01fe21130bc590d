/**
 * `agents-md lint` over many files on every core (docs/cli.md, docs/performance.md): worker
 * threads (lintWorker.ts) each with its own language service, fed from a bounded queue (a few
 * files in flight per worker), in two rounds: each contract summarised once by some worker, every
 * summary handed to every worker, then the files linted. Reports are put back in the order of the
 * files, so the output is the single-threaded path's, byte for byte.
 */
import { InvalidArgumentError, Option } from 'commander';
import { type ContractSummary, type Lang } from '../service/index.ts';
import { fileUri } from '../node/nodeFileSystem.ts';
import type { DiskSummaryStore } from '../node/summaryStore.ts';
import { format } from '../service/host.ts';
import { round, startPool, startWorker, workerCount, type SummaryAnswer, type SummaryJob } from '../node/workerPool.ts';
import { collectRun, type LintOne, type LintRun } from './lintFiles.ts';

export { workerCount };

/** What every worker is started with; `boundToRoot` keeps links inside `root` (lintFiles' `root`). */
export interface LintWorkerData {
  readonly root: string;
  readonly cwd: string;
  readonly lang: string;
  readonly boundToRoot: boolean;
  /** Send each contract's model back too (`report` builds on it; `lint` prints text and diagnostics only). */
  readonly withModel: boolean;
}

/** What a worker is sent: a summary job (node/workerPool.ts), or lint the file `path` (answered with `i`). */
export type WorkerJob = SummaryJob | { readonly kind: 'lint'; readonly i: number; readonly path: string };

/** `-j, --jobs <n>` of `lint` and `report`: a whole number from 1 to 64. */
export function jobsOption(lang: Lang): Option {
  return new Option('-j, --jobs <n>', format('cli.option.jobs', {}, lang)).argParser((value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > 64) throw new InvalidArgumentError(format('cli.error.jobs', { value }, lang));
    return n;
  });
}

/**
 * Lints `paths` in `workers` worker threads. Resolves undefined when no worker can be started or
 * one fails, and the caller lints on its own thread instead.
 */
export async function lintInWorkers(paths: readonly string[], workers: number, options: LintWorkerData, store?: DiskSummaryStore): Promise<LintRun | undefined> {
  if (workers < 2) return undefined;
  const pool = startPool(workers, () => startWorker(import.meta.url, 'lintWorker', options));
  if (!pool) return undefined;
  try {
    // Every lint reads every other contract's summary: made once here, not once per worker, and
    // not at all when an earlier run kept it (asked here first, so that what is made is kept).
    const kept: (readonly [string, ContractSummary])[] = [];
    const missing: string[] = [];
    for (const path of paths) {
      const summary = store?.get(fileUri(path));
      if (summary) kept.push([fileUri(path), summary]);
      else missing.push(path);
    }
    const made = await round<SummaryAnswer>(pool, missing.map((path) => ({ kind: 'summarise', path })));
    for (const [uri, summary] of made.map((m) => m.summary)) store?.set(uri, summary);
    const seed: WorkerJob = { kind: 'seed', summaries: [...kept, ...made.map((m) => m.summary)] };
    for (const w of pool) w.postMessage(seed);
    const outcomes = await round<LintOne & { i: number }>(pool, paths.map((path) => ({ kind: 'lint', path })));
    return collectRun(outcomes.map((o) => ({ slot: o.slot, configProblems: o.configProblems })));
  } catch {
    return undefined;
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}
