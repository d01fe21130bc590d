/**
 * A small pool of worker threads for work that splits into independent items (linting files):
 * `runInWorkers` gives each worker a share of the items and collects one result per worker;
 * `serveShare` is the worker's side. One worker per core by default (docs/performance.md). Kept
 * generic so that every command that fans out over files can use it.
 */
import { availableParallelism } from 'node:os';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { format } from '../service/index.ts';

export interface PoolOptions {
  /** Workers to start (default: one per core, never more than items). */
  readonly workers?: number;
  /** Heap limit of each worker in MB (default 1024). */
  readonly heapMb?: number;
}

interface Share<I, D> {
  readonly items: readonly I[];
  readonly data: D;
}

/**
 * Runs the worker script `file` on shares of `items` (item i goes to worker i mod n, so that slow
 * and fast items spread evenly) with `data` for all; resolves with each worker's result, rejects
 * when a worker fails or exits without answering.
 */
export async function runInWorkers<I, D, R>(file: string | URL, items: readonly I[], data: D, options: PoolOptions = {}): Promise<R[]> {
  const n = Math.max(1, Math.min(options.workers ?? availableParallelism(), items.length));
  const shares = Array.from({ length: n }, (_, w) => items.filter((_, i) => i % n === w));
  return Promise.all(
    shares.map(
      (share) =>
        new Promise<R>((resolve, reject) => {
          const worker = new Worker(file, { workerData: { items: share, data } satisfies Share<I, D>, resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? 1024 } });
          let answered = false;
          worker.once('message', (r: R) => {
            answered = true;
            resolve(r);
            void worker.terminate();
          });
          worker.once('error', reject);
          worker.once('exit', (code) => {
            if (!answered) reject(new Error(format('worker.exited', { code })));
          });
        }),
    ),
  );
}

/** In a worker started by `runInWorkers`: computes the result of its share and posts it. */
export function serveShare<I, D, R>(handler: (items: readonly I[], data: D) => Promise<R>): void {
  const { items, data } = workerData as Share<I, D>;
  void handler(items, data).then((r) => parentPort?.postMessage(r));
}
