/**
 * Worker threads over many contracts, shared by `agents-md lint`/`report` (cli/lintPool.ts) and
 * the language server's workspace pass (lsp/workspacePool.ts): start a pool of workers, feed
 * them jobs from a bounded queue (a few in flight per worker), take each answer as it comes. A
 * worker answers `summarise` and `seed` jobs the same way in both (`answerSummaryJob`); what a
 * `lint` job does is its own.
 */
import { Worker } from 'node:worker_threads';
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
 */
export function startWorker(from: string, name: string, workerData: unknown): Worker | undefined {
  const fromSource = from.endsWith('.ts');
  const url = new URL(`./${name}.${fromSource ? 'ts' : 'cjs'}`, from);
  if (!existsSync(fileURLToPath(url))) return undefined;
  // A worker does not inherit tsx's loader: it registers it before importing the TypeScript source.
  if (fromSource) return new Worker(`import('tsx/esm/api').then((t) => (t.register(), import(${JSON.stringify(url.href)})))`, { eval: true, workerData });
  return new Worker(url, { workerData });
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

/**
 * Sends `jobs` to the pool, a few in flight per worker, each with its index `i`; `onAnswer` sees
 * each answer as it comes. Resolves with the answers in the order of `jobs`; rejects when a
 * worker fails or ends (a terminated pool ends a round early).
 */
export function round<T extends { i: number }>(pool: readonly Worker[], jobs: readonly object[], onAnswer?: (answer: T) => void): Promise<T[]> {
  const answers: T[] = new Array(jobs.length);
  let next = 0;
  let done = 0;
  return new Promise<T[]>((resolve, reject) => {
    if (jobs.length === 0) return resolve(answers);
    const feed = (w: Worker) => {
      if (next < jobs.length) {
        const i = next++;
        w.postMessage({ ...jobs[i], i });
      }
    };
    for (const w of pool) {
      w.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
      w.on('message', (m: T) => {
        answers[m.i] = m;
        onAnswer?.(m);
        if (++done === jobs.length) resolve(answers);
        else feed(w);
      });
      w.on('error', reject);
      w.on('exit', (code) => done < jobs.length && reject(code));
      for (let k = 0; k < IN_FLIGHT; k++) feed(w);
    }
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
