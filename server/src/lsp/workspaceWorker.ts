/**
 * A worker thread of the server's workspace pass (workspacePool.ts): its own language service
 * over the workspace folders, read from disk (the contracts it is sent are not open). It answers
 * the summary jobs as the CLI's workers do (node/workerPool.ts) and lints a contract with the
 * resource's preset and size limit; only the diagnostics go back, never the model.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createLanguageService, type ContractDiagnostic } from '../service/index.ts';
import { createNodeFileSystem, uriToPath } from '../node/nodeFileSystem.ts';
import { answerSummaryJob } from '../node/workerPool.ts';
import { lowerPriority } from '../node/lowPriority.ts';
import type { WorkspaceLintJob, WorkspaceWorkerData } from './workspacePool.ts';

// Reading the workspace never delays a keystroke's diagnostics (docs/performance.md, "Background work gives way").
lowerPriority('thread');
const { roots } = workerData as WorkspaceWorkerData;
const rootPaths = roots.map(uriToPath).filter((p): p is string => p !== undefined);
const fs = createNodeFileSystem(() => rootPaths);
const service = createLanguageService({ fs, roots });

parentPort!.on('message', async (job: WorkspaceLintJob | { kind: 'summarise' | 'seed' }) => {
  const summarised = await answerSummaryJob(service, job);
  if (summarised === 'seeded') return;
  if (summarised) return parentPort!.postMessage(summarised);
  const { i, uri, preset, maxBytes } = job as WorkspaceLintJob;
  let diagnostics: readonly ContractDiagnostic[] = [];
  const bytes = await fs.readFile(uri);
  if (bytes) diagnostics = (await service.lintBytes(uri, bytes, bytes.length, { preset, maxBytes })).diagnostics;
  parentPort!.postMessage({ i, diagnostics });
});
