/**
 * Worker threads over many contracts, shared by `agents-md lint`/`report` (cli/lintPool.ts) and
 * the language server's workspace pass (lsp/workspacePool.ts): start a pool of workers, feed
 * them jobs from a bounded queue (a few in flight per worker), take each answer as it comes. A
 * worker answers `summarise` and `seed` jobs the same way in both (`answerSummaryJob`); what a
 * `lint` job does is its own.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ContractSummary, LanguageService } from '../service/index.ts';
import { fileUri } from './nodeFileSystem.ts';

/** Jobs in flight per worker: enough to overlap reading with parsing, few enough to bound memory. */
const IN_FLIGHT = 4;
/** Fewer contracts per worker than this do not pay for starting it. */
const FILES_PER_WORKER = 8;

/** What every worker is sent: summarise the file `path` (answered with `i`), take summaries, or a `lint` job of its own. */
export type SummaryJob =
  | { readonly kind: 'summarise'; readonly i: number; readonly path: string }
  | { readonly kind: 'seed'; readonly summaries: readonly (readonly [string, ContractSummary])[] };

/** A `summarise` job's answer. */
export interface SummaryAnswer {
  readonly i: number;
  readonly summary: readonly [string, ContractSummary];
}

/**
 * How many workers go through `files` contracts: `jobs` when the user chose (never more than the
 * files), else one per core once each has enough contracts to pay for its start; 0 or 1: none.
 */
export function workerCount(files: number, jobs?: number): number {
  if (jobs !== undefined) return Math.min(jobs, files);
  return Math.min(availableParallelism(), Math.floor(files / FILES_PER_WORKER));
}

/**
 * Starts the worker script `name` beside the module at `from` (its `import.meta.url`): the
 * bundle's `name.cjs`, or the TypeScript source through tsx (tests). Undefined when it is missing.
 * `limits` bounds the bundled worker's heap; a worker that reaches it ends with
 * `ERR_WORKER_OUT_OF_MEMORY` and the process goes on. The TypeScript source is started without
 * them: tsx compiling every module in the worker is no measure of the bundle's needs.
 */
export function startWorker(from: string, name: string, workerData: unknown, limits?: ResourceLimits): Worker | undefined {
  const fromSource = from.endsWith('.ts');
  const url = new URL(`./${name}.${fromSource ? 'ts' : 'cjs'}`, from);
  if (!existsSync(fileURLToPath(url))) return undefined;
  // A worker does not inherit tsx's loader: it registers it before importing the TypeScript source.
  if (fromSource) return new Worker(`import('tsx/esm/api').then((t) => (t.register(), import(${JSON.stringify(url.href)})))`, { eval: true, workerData });
  return new Worker(url, { workerData, ...(limits ? { resourceLimits: limits } : {}) });
}

/** Starts `count` workers; undefined (none left running) when one cannot be started. */
export function startPool(count: number, start: () => Worker | undefined): Worker[] | undefined {
  const pool: Worker[] = [];
  for (let n = 0; n < count; n++) {
    const w = start();
    if (!w) {
      for (const p of pool) void p.terminate();
      return undefined;
    }
    pool.push(w);
  }
  return pool;
}

/** What a round does with each answer, and with a worker that fails. */
export interface RoundOptions<T> {
  /** Sees each answer as it comes. */
  readonly onAnswer?: (answer: T) => void;
  /**
   * A job whose worker failed (ran out of heap, crashed) or that no worker is left to take: the
   * caller does it another way. Without it, a failing worker rejects the round.
   */
  readonly onLost?: (i: number) => void;
  /** A worker to take a failed one's place in the pool (started, and seeded when the round needs it), or none; `why` the failure. */
  readonly replace?: (why: unknown) => Worker | undefined;
}

/**
 * Sends `jobs` to the pool, a few in flight per worker, each with its index `i`. Resolves with
 * the answers in the order of `jobs` once each is answered or lost (a lost job has no answer).
 * Without `onLost`, rejects when a worker fails or ends (a terminated pool ends a round early);
 * with it, the failed worker's jobs in flight are lost, `replace` puts another in its place in
 * `pool`, and the round goes on (with no worker left, the jobs not sent are lost too).
 */
export function round<T extends { i: number }>(pool: Worker[], jobs: readonly object[], options: RoundOptions<T> = {}): Promise<T[]> {
  const answers: T[] = new Array(jobs.length);
  let next = 0;
  let settled = 0;
  return new Promise<T[]>((resolve, reject) => {
    if (jobs.length === 0) return resolve(answers);
    const settle = () => ++settled === jobs.length && resolve(answers);
    const lose = (i: number) => (options.onLost!(i), settle());
    const join = (w: Worker) => {
      const inFlight = new Set<number>();
      const feed = () => {
        if (next >= jobs.length) return;
        const i = next++;
        inFlight.add(i);
        w.postMessage({ ...jobs[i], i });
      };
      let failed = false;
      const fail = (why: unknown) => {
        if (failed || settled === jobs.length) return;
        failed = true;
        if (!options.onLost) return reject(why);
        void w.terminate();
        for (const i of inFlight) lose(i);
        const fresh = settled < jobs.length ? options.replace?.(why) : undefined;
        pool.splice(pool.indexOf(w) >>> 0, 1, ...(fresh ? [fresh] : []));
        if (fresh) join(fresh);
        else if (pool.length === 0) while (next < jobs.length) lose(next++);
      };
      w.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
      w.on('message', (m: T) => {
        inFlight.delete(m.i);
        answers[m.i] = m;
        options.onAnswer?.(m);
        settle();
        feed();
      });
      w.on('error', fail);
      w.on('exit', fail);
      for (let k = 0; k < IN_FLIGHT; k++) feed();
    };
    if (pool.length === 0) {
      if (!options.onLost) return reject(new Error('no worker'));
      while (next < jobs.length) lose(next++);
    }
    for (const w of [...pool]) join(w);
  });
}

/**
 * A worker's answer to a `summarise` or `seed` job (its own language service over the same
 * workspace): the summary is made once per run, by one worker, and handed to the others.
 * Undefined for a job of another kind.
 */
export async function answerSummaryJob(service: LanguageService, job: SummaryJob | { readonly kind: string }): Promise<SummaryAnswer | 'seeded' | undefined> {
  if (job.kind === 'seed') {
    service.workspace.seedSummaries((job as Extract<SummaryJob, { kind: 'seed' }>).summaries);
    return 'seeded';
  }
  if (job.kind !== 'summarise') return undefined;
  const { i, path } = job as Extract<SummaryJob, { kind: 'summarise' }>;
  const uri = fileUri(path);
  return { i, summary: [uri, await service.workspace.summaryOf(uri)] };
}
