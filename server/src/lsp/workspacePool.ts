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
import { availableParallelism } from 'node:os';
import type { ResourceLimits } from 'node:worker_threads';
import { round, startPool, startWorker, workerCount, type SummaryAnswer, type SummaryJob } from '../node/workerPool.ts';
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
  /** Writes a line to the protocol trace (a worker that failed, and what was done instead). */
  trace(message: string): void;
}

/**
 * A worker's heap limit (old generation, MB): a worker holds the service, the workspace's digests
 * and one contract's model at a time (1,000 contracts: about 40 MB live). One that reaches it
 * ends and its contracts are done on the server's thread (docs/robustness.md, "Workspace scale").
 */
export const WORKER_HEAP_MB = 96;

/** The limit in effect: `AGENTS_MD_WORKER_HEAP_MB` when it is a number of at least 16, else `WORKER_HEAP_MB`. */
export function workerHeapMb(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env['AGENTS_MD_WORKER_HEAP_MB']);
  return Number.isFinite(n) && n >= 16 ? n : WORKER_HEAP_MB;
}
/** Young generation per worker (MB): V8's default lets garbage grow the process by tens of MB per thread. */
const WORKER_YOUNG_MB = 16;
/** Workers started in place of failed ones per pass: past it, what is left is done on the server's thread. */
const MAX_REPLACEMENTS = 4;

/**
 * Workers for `contracts`: one core is left to the server's own thread (it answers requests and
 * takes the workers' answers), so two cores get one worker; none for too few contracts.
 */
export function poolSize(contracts: number): number {
  return Math.min(workerCount(contracts), Math.max(1, availableParallelism() - 1));
}

/** How often a running pass checks whether it was stopped between two answers (ms). */
const STOP_CHECK_MS = 100;

/**
 * Diagnoses `uris` (contracts not open) in worker threads with a bounded heap, handing each
 * contract's diagnostics to `found` as they come, until `stopped()`. Does nothing when there are
 * too few contracts to pay for the workers or they cannot be started. A worker that runs out of
 * heap (or fails) is replaced and the pass goes on; the contracts it had in hand are not handed
 * over, and the caller diagnoses them (and anything else it was not handed) on its own thread.
 */
export async function diagnoseInWorkers(host: WorkspacePoolHost, uris: readonly string[], found: (uri: string, diagnostics: readonly ContractDiagnostic[]) => void, stopped: () => boolean): Promise<void> {
  const limits: ResourceLimits = { maxOldGenerationSizeMb: workerHeapMb(), maxYoungGenerationSizeMb: WORKER_YOUNG_MB };
  const start = () => startWorker(import.meta.url, 'workspaceWorker', { roots: host.roots } satisfies WorkspaceWorkerData, limits);
  const count = workerCount(uris.length) >= 2 ? poolSize(uris.length) : 0;
  const pool = count > 0 ? startPool(count, start) : undefined;
  if (!pool) return;
  // Ending the workers ends the round that is running: an edit ends the pass within STOP_CHECK_MS.
  const watch = setInterval(() => stopped() && pool.forEach((w) => void w.terminate()), STOP_CHECK_MS);
  const { workspace } = host.service;
  let seed: SummaryJob | undefined;
  let replacements = 0;
  // A worker that ran out of heap or failed gives way to a new one (seeded once the seed is made).
  const replace = (why: unknown) => {
    if (stopped()) return undefined;
    const code = (why as { code?: string } | undefined)?.code ?? String(why);
    host.trace(`workspace-worker-lost code=${code} contracts-in-hand=server-thread`);
    if (replacements++ >= MAX_REPLACEMENTS) return undefined;
    const w = start();
    if (w && seed) w.postMessage(seed);
    return w;
  };
  let expected: { settle(): void } | undefined;
  try {
    const all = await workspace.contractUris();
    const toMake = all.filter((uri) => !host.isOpen(uri) && !workspace.indexedSummary(uri) && uriToPath(uri) !== undefined);
    // An open document's facts wait for these rather than parsing them here a second time.
    expected = workspace.expectSummaries(toMake);
    await round<SummaryAnswer>(
      pool,
      toMake.map((uri) => ({ kind: 'summarise', path: uriToPath(uri)! })),
      { onAnswer: (a) => stopped() || workspace.seedSummaries([[toMake[a.i]!, a.summary[1]]]), onLost: () => undefined, replace },
    );
    if (stopped()) return;
    // A summary lost with a worker is made on this thread.
    expected.settle();
    const summaries = await Promise.all(all.map(async (uri) => [uri, workspace.indexedSummary(uri) ?? (await workspace.summaryOf(uri))] as const));
    seed = { kind: 'seed', summaries };
    for (const w of pool) w.postMessage(seed);
    const settings = await Promise.all(uris.map((uri) => host.settingsOf(uri)));
    const jobs: Omit<WorkspaceLintJob, 'i'>[] = [];
    uris.forEach((uri, k) => {
      const s = settings[k]!;
      if (s.enable) jobs.push({ kind: 'lint', uri, preset: s.preset, maxBytes: s.maxFileBytes });
      else found(uri, []);
    });
    // A contract lost with a worker is not handed over: the caller diagnoses it on its own thread.
    await round<{ i: number; diagnostics: readonly ContractDiagnostic[] }>(pool, jobs, { onAnswer: (a) => stopped() || found(jobs[a.i]!.uri, a.diagnostics), onLost: () => undefined, replace });
  } catch {
    // A worker could not be fed, or the pass was stopped: the caller goes on with what is left.
  } finally {
    expected?.settle();
    clearInterval(watch);
    await Promise.all(pool.map((w) => w.terminate()));
  }
}
