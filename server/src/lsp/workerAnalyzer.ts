import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { memoised, type RegexAnalyzer } from '../service/index.ts';

type Verdict = Awaited<ReturnType<RegexAnalyzer>>;

/**
 * A RegexAnalyzer that runs recheck in a worker thread (`workerFile`, the bundled
 * regexWorker.cjs) with a heap limit, terminates it after `idleMs` without work, and gives
 * `unknown` when the worker is missing, fails or takes longer than `timeoutMs`. Memoised.
 */
export function workerAnalyzer(workerFile: string, options: { idleMs?: number; timeoutMs?: number; heapMb?: number } = {}): RegexAnalyzer {
  const idleMs = options.idleMs ?? 5_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let worker: Worker | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let next = 0;
  const pending = new Map<number, (v: Verdict) => void>();
  const settleAll = () => {
    for (const resolve of pending.values()) resolve({ status: 'unknown' });
    pending.clear();
  };
  const start = (): Worker | undefined => {
    if (worker) return worker;
    if (!existsSync(workerFile)) return undefined;
    const w = new Worker(workerFile, { resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? 256 } });
    w.unref();
    w.on('message', (m: { id: number; verdict: Verdict }) => {
      pending.get(m.id)?.(m.verdict);
      pending.delete(m.id);
    });
    const gone = () => {
      if (worker === w) worker = undefined;
      settleAll();
    };
    w.on('error', gone);
    w.on('exit', gone);
    worker = w;
    return w;
  };
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      if (pending.size === 0) void worker?.terminate();
    }, idleMs);
    idle.unref();
  };
  return memoised(
    (pattern) =>
      new Promise<Verdict>((resolve) => {
        const w = start();
        if (!w) return resolve({ status: 'unknown' });
        const id = next++;
        const timer = setTimeout(() => {
          pending.delete(id);
          resolve({ status: 'unknown' });
        }, timeoutMs);
        timer.unref();
        pending.set(id, (v) => {
          clearTimeout(timer);
          resolve(v);
        });
        w.postMessage({ id, pattern });
        touch();
      }),
  );
}
