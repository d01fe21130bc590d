import { type RegexAnalyzer } from '../service/index.ts';
import { askChild, type ChildOptions } from './childProcess.ts';

type Verdict = Awaited<ReturnType<RegexAnalyzer>>;

/**
 * A RegexAnalyzer that runs recheck in a child process (`workerFile`, the bundled
 * regexWorker.cjs) with a heap limit, ends it after `idleMs` without work, and gives `unknown`
 * when the worker is missing, fails or takes longer than `timeoutMs`. Not memoised: the server's
 * backgroundAnalyzer keeps the verdicts, and asks again after an `unknown`.
 */
export function workerAnalyzer(workerFile: string, options: ChildOptions = {}): RegexAnalyzer {
  const ask = askChild<string, Verdict>(workerFile, options);
  return async (pattern) => (await ask(pattern)) ?? { status: 'unknown' };
}
