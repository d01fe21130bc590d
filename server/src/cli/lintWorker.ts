/**
 * A worker thread of `agents-md lint` and `report` (lintPool.ts): its own language service over
 * the same workspace, linting the files it is sent, one answer per file. The model stays here
 * unless `report` asks for it: lint's formatters need the text and diagnostics only.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createLanguageService, recheckAnalyzer } from '../service/index.ts';
import { createNodeFileSystem, fileUri } from '../node/nodeFileSystem.ts';
import { lintOne } from './lintFiles.ts';
import { displayPath } from './report.ts';
import type { LintWorkerData } from './lintPool.ts';

const { root, cwd, lang, boundToRoot, withModel } = workerData as LintWorkerData;
const service = createLanguageService({ fs: createNodeFileSystem(() => [root]), roots: [fileUri(root)], analyzeRegex: recheckAnalyzer });

parentPort!.on('message', async ({ i, path }: { i: number; path: string }) => {
  const { slot, configProblems } = await lintOne(service, path, (p) => displayPath(cwd, p), lang, boundToRoot ? root : undefined);
  const report = typeof slot === 'string' || withModel ? slot : { path: slot.path, uri: slot.uri, text: slot.text, diagnostics: slot.diagnostics };
  parentPort!.postMessage({ i, slot: report, configProblems });
});
