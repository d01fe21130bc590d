/**
 * The server's workspace pass in worker threads (docs/workspace.md, "In the editor"), on the
 * CLI's pool (node/workerPool.ts). Round one: every contract not summarised yet is summarised by
 * some worker, and each summary is kept here as it comes, so that a symbol search answers from it
 * while the pass runs. Every worker then gets every summary (an open document's from its text in
 * memory). Round two: the contracts are linted, their diagnostics handed over as they come. This
 * thread parses no closed contract (an open document's facts wait for the workers' summaries) and
 * keeps its summary only; the workers end with the pass.
 */
import type { RulePreset, ContractDiagnostic, LanguageService } from '../service/index.ts';
import { uriToPath } from '../node/nodeFileSystem.ts';
import { round, startPool, startWorker, workerCount, type SummaryAnswer } from '../node/workerPool.ts';
import type { ServerSettings } from './settings.ts';

/** What every worker is started with: the workspace folders (URIs). */
export interface WorkspaceWorkerData {
  readonly roots: readonly string[];
}

/** Lint the contract `uri` with its resource's preset and size limit. */
export interface WorkspaceLintJob {
  readonly kind: 'lint';
  readonly i: number;
  readonly uri: string;
  readonly preset: RulePreset;
  readonly maxBytes: number;
}

export interface WorkspacePoolHost {
  readonly roots: readonly string[];
  readonly service: LanguageService;
  isOpen(uri: string): boolean;
  settingsOf(uri: string): Promise<ServerSettings>;
}

/** How often a running pass checks whether it was stopped between two answers (ms). */
const STOP_CHECK_MS = 100;

/**
 * Diagnoses `uris` (contracts not open) in worker threads, handing each contract's diagnostics to
 * `found` as they come, until `stopped()`. Does nothing when there are too few contracts to pay
 * for the workers or they cannot be started; ends early when a worker fails: the caller diagnoses
 * what it was not handed.
 */
export async function diagnoseInWorkers(host: WorkspacePoolHost, uris: readonly string[], found: (uri: string, diagnostics: readonly ContractDiagnostic[]) => void, stopped: () => boolean): Promise<void> {
  const count = workerCount(uris.length);
  const pool = count >= 2 ? startPool(count, () => startWorker(import.meta.url, 'workspaceWorker', { roots: host.roots } satisfies WorkspaceWorkerData)) : undefined;
  if (!pool) return;
  // Ending the workers rejects the round that is running: an edit ends the pass within STOP_CHECK_MS.
  const watch = setInterval(() => stopped() && pool.forEach((w) => void w.terminate()), STOP_CHECK_MS);
  const { workspace } = host.service;
  let expected: { settle(): void } | undefined;
  try {
    const all = await workspace.contractUris();
    const toMake = all.filter((uri) => !host.isOpen(uri) && !workspace.indexedSummary(uri) && uriToPath(uri) !== undefined);
    // An open document's facts wait for these rather than parsing them here a second time.
    expected = workspace.expectSummaries(toMake);
    await round<SummaryAnswer>(
      pool,
      toMake.map((uri) => ({ kind: 'summarise', path: uriToPath(uri)! })),
      (a) => stopped() || workspace.seedSummaries([[toMake[a.i]!, a.summary[1]]]),
    );
    if (stopped()) return;
    const summaries = await Promise.all(all.map(async (uri) => [uri, workspace.indexedSummary(uri) ?? (await workspace.summaryOf(uri))] as const));
    for (const w of pool) w.postMessage({ kind: 'seed', summaries });
    const settings = await Promise.all(uris.map((uri) => host.settingsOf(uri)));
    const jobs: Omit<WorkspaceLintJob, 'i'>[] = [];
    uris.forEach((uri, k) => {
      const s = settings[k]!;
      if (s.enable) jobs.push({ kind: 'lint', uri, preset: s.preset, maxBytes: s.maxFileBytes });
      else found(uri, []);
    });
    await round<{ i: number; diagnostics: readonly ContractDiagnostic[] }>(pool, jobs, (a) => stopped() || found(jobs[a.i]!.uri, a.diagnostics));
  } catch {
    // A worker failed, or the pass was stopped and the workers ended: the caller goes on with what is left.
  } finally {
    expected?.settle();
    clearInterval(watch);
    await Promise.all(pool.map((w) => w.terminate()));
  }
}
