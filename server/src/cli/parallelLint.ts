/**
 * Lints many files on every core (docs/workspace.md, "Scale"): the files are shared among worker
 * threads (dist/lintWorker.cjs), each with its own language service, and the results are merged
 * in the order of the files. Each worker reads the other contracts' digests itself, so this pays
 * only when there are many files; below `PARALLEL_FROM`, or without the worker bundle (running
 * from source), the files are linted in this thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LanguageService } from '../service/index.ts';
import { runInWorkers } from '../node/workerPool.ts';
import { lintFiles, type LintRun } from './lintFiles.ts';
import { displayPath } from './report.ts';

/** Fewer files than this are linted in this thread unless workers are asked for. */
export const PARALLEL_FROM = 64;

export interface LintShareData {
  readonly root: string;
  readonly cwd: string;
  readonly lang: string;
  /** Run the ReDoS analysis of intent patterns. */
  readonly regex: boolean;
  /** Keep links inside the root (lintFiles' `root`). */
  readonly boundToRoot: boolean;
}

/** Where the worker bundle is: beside the CLI bundle (import.meta.url is the bundle's URL). */
function workerFile(): string | undefined {
  const file = fileURLToPath(new URL('./lintWorker.cjs', import.meta.url));
  return existsSync(file) ? file : undefined;
}

/**
 * `lintFiles` over `jobs` workers (undefined: one per core from `PARALLEL_FROM` files on; 1: this
 * thread). `service` lints in this thread when no workers are used.
 */
export async function lintParallel(service: LanguageService, paths: readonly string[], data: LintShareData, jobs?: number): Promise<LintRun> {
  const file = workerFile();
  const workers = jobs ?? (paths.length >= PARALLEL_FROM ? undefined : 1);
  const here = () => lintFiles(service, paths, (p) => displayPath(data.cwd, p), data.lang, data.boundToRoot ? data.root : undefined);
  if (!file || workers === 1 || paths.length < 2) return here();
  // A worker that fails (its heap limit on a huge workspace) costs the speed, not the report.
  const runs = await runInWorkers<string, LintShareData, LintRun>(file, paths, data, workers === undefined ? {} : { workers }).catch(() => undefined);
  if (!runs) return here();
  const order = new Map(paths.map((p, i) => [p, i]));
  const configProblems = new Map(runs.flatMap((r) => r.configProblems).map((p) => [`${p.uri}\0${p.message}`, p]));
  return {
    reports: runs.flatMap((r) => r.reports).sort((a, b) => order.get(a.path)! - order.get(b.path)!),
    readErrors: runs.flatMap((r) => r.readErrors),
    configProblems: [...configProblems.values()],
  };
}
