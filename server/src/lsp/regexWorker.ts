/**
 * Worker thread of the language server (dist/regexWorker.cjs): runs recheck's ReDoS analysis of
 * intent patterns off the main thread, under a memory limit, and is terminated when idle so that
 * the memory recheck's automata take is given back.
 */
import { parentPort } from 'node:worker_threads';
import { analyzeWithRecheck } from '../service/index.ts';

parentPort?.on('message', (m: { id: number; pattern: string }) => {
  void analyzeWithRecheck(m.pattern).then((verdict) => parentPort?.postMessage({ id: m.id, verdict }));
});
