/**
 * Worker thread of the CLI (dist/lintWorker.cjs): lints its share of the files with its own
 * language service, as `lintFiles` does in the main thread (node/workerPool.ts).
 */
import { createLanguageService, recheckAnalyzer } from '../service/index.ts';
import { createNodeFileSystem, fileUri } from '../node/nodeFileSystem.ts';
import { serveShare } from '../node/workerPool.ts';
import { lintFiles, type LintRun } from './lintFiles.ts';
import { displayPath } from './report.ts';
import type { LintShareData } from './parallelLint.ts';

serveShare<string, LintShareData, LintRun>((paths, data) => {
  const service = createLanguageService({ fs: createNodeFileSystem(), roots: [fileUri(data.root)], ...(data.regex ? { analyzeRegex: recheckAnalyzer } : {}) });
  return lintFiles(service, paths, (p) => displayPath(data.cwd, p), data.lang, data.boundToRoot ? data.root : undefined);
});
