/**
 * `agents-md lint` over many files on every core (docs/cli.md, docs/performance.md): worker
 * threads (lintWorker.ts) each with its own language service, fed from a bounded queue (a few
 * files in flight per worker), in two rounds: each contract summarised once by some worker, every
 * summary handed to every worker, then the files linted. Reports are put back in the order of the
 * files, so the output is the single-threaded path's, byte for byte.
 */
import { Worker } from 'node:worker_threads';
import { InvalidArgumentError, Option } from 'commander';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type ContractSummary, type Lang } from '../service/index.ts';
import { format } from '../service/host.ts';
import { collectRun, type LintOne, type LintRun } from './lintFiles.ts';

/** Files in flight per worker: enough to overlap reading with linting, few enough to bound memory. */
const IN_FLIGHT = 4;
/** Fewer files per worker than this do not pay for starting it. */
const FILES_PER_WORKER = 8;

/** What every worker is started with; `boundToRoot` keeps links inside `root` (lintFiles' `root`). */
export interface LintWorkerData {
  readonly root: string;
  readonly cwd: string;
  readonly lang: string;
  readonly boundToRoot: boolean;
  /** Send each contract's model back too (`report` builds on it; `lint` prints text and diagnostics only). */
  readonly withModel: boolean;
}

/** What a worker is sent: summarise or lint the file `path` (answered with `i`), or take summaries. */
export type WorkerJob =
  | { readonly kind: 'summarise' | 'lint'; readonly i: number; readonly path: string }
  | { readonly kind: 'seed'; readonly summaries: readonly (readonly [string, ContractSummary])[] };

/** Starts a worker on the script beside this module: the bundle's lintWorker.cjs, or the source through tsx (tests). */
function startWorker(workerData: unknown): Worker | undefined {
  const here = import.meta.url;
  const fromSource = here.endsWith('.ts');
  const url = new URL(fromSource ? './lintWorker.ts' : './lintWorker.cjs', here);
  if (!existsSync(fileURLToPath(url))) return undefined;
  // A worker does not inherit tsx's loader: it registers it before importing the TypeScript source.
  if (fromSource) return new Worker(`import('tsx/esm/api').then((t) => (t.register(), import(${JSON.stringify(url.href)})))`, { eval: true, workerData });
  return new Worker(url, { workerData });
}

/**
 * How many workers lint `files` files: `jobs` when the user chose (never more than the files),
 * else one per core once each has enough files to pay for its start; 0 or 1: no workers.
 */
export function workerCount(files: number, jobs?: number): number {
  if (jobs !== undefined) return Math.min(jobs, files);
  return Math.min(availableParallelism(), Math.floor(files / FILES_PER_WORKER));
}

/** `-j, --jobs <n>` of `lint` and `report`: a whole number from 1 to 64. */
export function jobsOption(lang: Lang): Option {
  return new Option('-j, --jobs <n>', format('cli.option.jobs', {}, lang)).argParser((value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > 64) throw new InvalidArgumentError(format('cli.error.jobs', { value }, lang));
    return n;
  });
}

/**
 * Sends `kind` jobs for `paths` to the pool, a few in flight per worker; resolves with the
 * answers in the order of `paths`, rejects when a worker fails.
 */
function round<T>(pool: readonly Worker[], kind: 'summarise' | 'lint', paths: readonly string[]): Promise<T[]> {
  const answers: T[] = new Array(paths.length);
  let next = 0;
  let done = 0;
  return new Promise<T[]>((resolve, reject) => {
    if (paths.length === 0) return resolve(answers);
    const feed = (w: Worker) => {
      if (next < paths.length) {
        const i = next++;
        w.postMessage({ kind, i, path: paths[i]! } satisfies WorkerJob);
      }
    };
    for (const w of pool) {
      w.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
      w.on('message', (m: { i: number } & T) => {
        answers[m.i] = m;
        if (++done === paths.length) resolve(answers);
        else feed(w);
      });
      w.on('error', reject);
      w.on('exit', (code) => done < paths.length && reject(code));
      for (let k = 0; k < IN_FLIGHT; k++) feed(w);
    }
  });
}

/**
 * Lints `paths` in `workers` worker threads. Resolves undefined when no worker can be started or
 * one fails, and the caller lints on its own thread instead.
 */
export async function lintInWorkers(paths: readonly string[], workers: number, options: LintWorkerData): Promise<LintRun | undefined> {
  if (workers < 2) return undefined;
  const pool: Worker[] = [];
  try {
    for (let n = 0; n < workers; n++) {
      const w = startWorker(options);
      if (!w) return undefined;
      pool.push(w);
    }
    // Every lint reads every other contract's summary: made once here, not once per worker.
    const made = await round<{ summary: readonly [string, ContractSummary] }>(pool, 'summarise', paths);
    const seed: WorkerJob = { kind: 'seed', summaries: made.map((m) => m.summary) };
    for (const w of pool) w.postMessage(seed);
    const outcomes = await round<LintOne>(pool, 'lint', paths);
    return collectRun(outcomes.map((o) => ({ slot: o.slot, configProblems: o.configProblems })));
  } catch {
    return undefined;
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}
