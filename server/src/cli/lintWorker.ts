/**
 * A worker thread of `agents-md lint` and `report` (lintPool.ts): its own language service over
 * the same workspace. It answers two kinds of job, one answer each: summarise a contract (what
 * the others' cross-contract checks read), and lint a file; between them it takes the summaries
 * every worker made (`seed`), so that no contract is summarised twice in a run. The model stays
 * here unless `report` asks for it: lint's formatters need the text and diagnostics only.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { diskSummaryStore } from '../node/summaryStore.ts';
import { answerSummaryJob } from '../node/workerPool.ts';
import { lintOne, lintService } from './lintFiles.ts';
import { displayPath } from './report.ts';
import type { LintWorkerData, WorkerJob } from './lintPool.ts';

const { root, cwd, lang, boundToRoot, withModel } = workerData as LintWorkerData;
// The summaries of earlier runs, read only: what this run makes is kept by the main thread (lintPool.ts).
const service = lintService(root, boundToRoot, diskSummaryStore(root));

parentPort!.on('message', async (job: WorkerJob) => {
  const summarised = await answerSummaryJob(service, job);
  if (summarised === 'seeded') return;
  if (summarised) return parentPort!.postMessage(summarised);
  const { i, path } = job as Extract<WorkerJob, { kind: 'lint' }>;
  const { slot, configProblems } = await lintOne(service, path, (p) => displayPath(cwd, p), lang, boundToRoot ? root : undefined);
  const report = typeof slot === 'string' || withModel ? slot : { path: slot.path, uri: slot.uri, text: slot.text, diagnostics: slot.diagnostics };
  parentPort!.postMessage({ i, slot: report, configProblems });
});
