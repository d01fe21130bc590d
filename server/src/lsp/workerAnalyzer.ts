import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type RegexAnalyzer } from '../service/index.ts';
import { memoised } from '../service/host.ts';

type Verdict = Awaited<ReturnType<RegexAnalyzer>>;

/**
 * A RegexAnalyzer that runs recheck in a child process (`workerFile`, the bundled
 * regexWorker.cjs) with a heap limit, ends it after `idleMs` without work, and gives `unknown`
 * when the worker is missing, fails or takes longer than `timeoutMs`. Memoised.
 */
export function workerAnalyzer(workerFile: string, options: { idleMs?: number; timeoutMs?: number; heapMb?: number } = {}): RegexAnalyzer {
  const idleMs = options.idleMs ?? 5_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let worker: ChildProcess | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let next = 0;
  const pending = new Map<number, (v: Verdict) => void>();
  const settleAll = () => {
    for (const resolve of pending.values()) resolve({ status: 'unknown' });
    pending.clear();
  };
  const start = (): ChildProcess | undefined => {
    if (worker) return worker;
    if (!existsSync(workerFile)) return undefined;
    // process.execPath: node, or the editor's runtime that runs this server as node.
    const w = fork(workerFile, [], { execArgv: [`--max-old-space-size=${options.heapMb ?? 256}`], stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    w.unref();
    w.channel?.unref();
    w.on('message', (m: { id: number; verdict: Verdict }) => {
      pending.get(m.id)?.(m.verdict);
      pending.delete(m.id);
      touch(); // idle from the last answer: an analysis longer than idleMs must not keep it alive
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
      if (pending.size === 0) worker?.kill();
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
        w.send({ id, pattern });
        touch();
      }),
  );
}
