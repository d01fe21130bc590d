/**
 * `agents-md lint` over many files on every core (docs/cli.md, docs/performance.md): worker
 * threads (lintWorker.ts) each with its own language service, fed from a bounded queue (a few
 * files in flight per worker); reports are put back in the order of the files, so the output is
 * the single-threaded path's, byte for byte.
 */
import { Worker } from 'node:worker_threads';
import { InvalidArgumentError, Option } from 'commander';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { format, type Lang } from '../service/index.ts';
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
 * Lints `paths` in `workers` worker threads. Resolves undefined when no worker can be started or
 * one fails, and the caller lints on its own thread instead.
 */
export async function lintInWorkers(paths: readonly string[], workers: number, options: LintWorkerData): Promise<LintRun | undefined> {
  if (workers < 2) return undefined;
  const outcomes: LintOne[] = new Array(paths.length);
  const pool: Worker[] = [];
  let next = 0;
  let done = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const feed = (w: Worker) => {
        if (next < paths.length) {
          const i = next++;
          w.postMessage({ i, path: paths[i] });
        }
      };
      for (let n = 0; n < workers; n++) {
        const w = startWorker(options);
        if (!w) return reject(n);
        pool.push(w);
        w.on('message', (m: { i: number } & LintOne) => {
          outcomes[m.i] = { slot: m.slot, configProblems: m.configProblems };
          if (++done === paths.length) resolve();
          else feed(w);
        });
        w.on('error', reject);
        w.on('exit', (code) => done < paths.length && reject(code));
        for (let k = 0; k < IN_FLIGHT; k++) feed(w);
      }
    });
  } catch {
    return undefined;
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
  return collectRun(outcomes);
}
