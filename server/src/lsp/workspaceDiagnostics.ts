/**
 * `workspace/diagnostic` (docs/workspace.md, "In the editor"): the problems of every contract of
 * the workspace that is not open, so that the Problems view lists them too. Computed only when the
 * client pulls: in worker threads when there are enough contracts (workspacePool.ts), else here one
 * contract at a time, yielding to the event loop between contracts (a hover or a
 * `workspace/symbol` sent meanwhile is answered between two contracts); an edit (the user typing, a
 * file event) ends the pass early with what it has, and the client pulls again. With a partial
 * result token (VS Code sends one) the reports are streamed as they are made, at most every
 * `PARTIAL_EVERY_MS`, and the final answer is empty: the Problems view fills while the pass runs
 * (docs/robustness.md, "Workspace scale"). Nothing of a contract is kept but its diagnostics.
 * Results are kept per contract in a bounded cache with a result id derived from the items, so an
 * unchanged contract is answered `unchanged`. When nothing changed since the last complete pass,
 * the request is held (a long poll) until something does.
 */
import { createHash } from 'node:crypto';
import type { CancellationToken, Connection, Diagnostic, ResultProgressReporter, WorkspaceDiagnosticReportPartialResult, WorkspaceDocumentDiagnosticReport } from 'vscode-languageserver';
import type { PendingWork } from './settled.ts';
import { Lru } from '../service/host.ts';

export interface WorkspaceDiagnosticsHost {
  /** Every contract of the workspace (the configuration's globs). */
  contractUris(): Promise<readonly string[]>;
  /** Open documents are diagnosed by the document pull, never here. */
  isOpen(uri: string): boolean;
  /** The diagnostics of a contract read from disk. */
  diagnose(uri: string): Promise<Diagnostic[]>;
  /**
   * Diagnoses `uris` (none open) off this thread, handing each contract's diagnostics to `found`
   * as they are made, until `stopped()`; the pass diagnoses what it did not hand over itself.
   */
  diagnoseInWorkers?(uris: readonly string[], found: (uri: string, items: Diagnostic[]) => void, stopped: () => boolean): Promise<void>;
}

/** Contracts whose last result is kept (each a small list of diagnostics). */
const CACHE_SIZE = 4096;
/** Quiet time after an edit before a held pull starts a new pass (ms). */
const QUIET_MS = 300;
/** With a partial result token: reports made are sent at most this often (ms), and when the pass ends. */
const PARTIAL_EVERY_MS = 100;

/**
 * Where a pass puts its reports: into the final answer, or, with a partial result token, streamed
 * in batches (the final answer is then empty, as LSP asks of streamed results).
 */
function reportSink(progress: ResultProgressReporter<WorkspaceDiagnosticReportPartialResult> | undefined) {
  const held: WorkspaceDocumentDiagnosticReport[] = [];
  let sentAt = Date.now();
  const flush = () => {
    if (!progress || held.length === 0) return;
    progress.report({ items: held.splice(0) });
    sentAt = Date.now();
  };
  return {
    push(report: WorkspaceDocumentDiagnosticReport) {
      held.push(report);
      if (Date.now() - sentAt >= PARTIAL_EVERY_MS) flush();
    },
    /** The pass's answer: what is left, or nothing once streamed. */
    end() {
      flush();
      return { items: progress ? [] : held };
    },
  };
}

type CacheEntry = { generation: number; resultId: string; items: Diagnostic[] };

/**
 * One pass's bookkeeping: `store` caches a contract's diagnostics under an id of their content,
 * `report` sends them (`unchanged` when the client already has that id) and remembers the contract.
 */
function passReports(start: number, previous: ReadonlyMap<string, string>, sink: ReturnType<typeof reportSink>, cache: Lru<string, CacheEntry>) {
  const reported = new Set<string>();
  const report = (uri: string, entry: { resultId: string; items: Diagnostic[] }) => {
    reported.add(uri);
    sink.push(
      previous.get(uri) === entry.resultId
        ? { kind: 'unchanged', uri, version: null, resultId: entry.resultId }
        : { kind: 'full', uri, version: null, resultId: entry.resultId, items: entry.items },
    );
  };
  const store = (uri: string, items: Diagnostic[]) => {
    const entry = { generation: start, resultId: createHash('sha256').update(JSON.stringify(items)).digest('hex').slice(0, 16), items };
    cache.set(uri, entry);
    return entry;
  };
  return { reported, report, store };
}

export interface WorkspaceDiagnostics {
  /** Something that diagnostics depend on changed (an edit, a file event, settings). */
  edited(): void;
  /** A document was closed: its problems are this pull's again (or cleared, if its file went). */
  closed(uri: string): void;
  /** Whether a pass is running. */
  running(): boolean;
}

/**
 * `pending` counts a pass and a held pull woken by an edit as work under way (`agentsMd/settled`);
 * a pull held because nothing changed is not.
 */
export function registerWorkspaceDiagnostics(connection: Connection, pending: PendingWork, host: WorkspaceDiagnosticsHost): WorkspaceDiagnostics {
  const cache = new Lru<string, CacheEntry>(CACHE_SIZE);
  let generation = 0;
  let completedAt = -1;
  let lastEdit = 0;
  const wakers = new Set<() => void>();
  /** Documents closed since the last complete pass: the client shows their document pull's problems. */
  const closedSince = new Set<string>();

  /** Resolves once an edit came and then `QUIET_MS` passed without another, or the request is cancelled. */
  const nextChange = (token: CancellationToken) =>
    new Promise<void>((resolve) => {
      const since = generation;
      let woken: (() => void) | undefined;
      const settle = () => {
        if (token.isCancellationRequested) return done();
        if (generation === since) return;
        woken ??= pending.begin();
        const wait = lastEdit + QUIET_MS - Date.now();
        if (wait <= 0) return done();
        setTimeout(settle, wait);
      };
      const done = () => (wakers.delete(settle), sub.dispose(), woken?.(), resolve());
      const sub = token.onCancellationRequested(settle);
      wakers.add(settle);
    });

  /** Passes running (a symbol search answers from what is indexed while one runs). */
  let running = 0;

  const pass = async (start: number, previous: Map<string, string>, sink: ReturnType<typeof reportSink>, token: CancellationToken) => {
    const stopped = () => token.isCancellationRequested || generation !== start;
    const { reported, report, store } = passReports(start, previous, sink, cache);
    const contracts = await host.contractUris();
    const todo = contracts.filter((uri) => !host.isOpen(uri) && cache.get(uri)?.generation !== start);
    // Worker threads where there are enough contracts: reports come in the order they are made.
    if (host.diagnoseInWorkers && todo.length > 0) await host.diagnoseInWorkers(todo, (uri, items) => stopped() || report(uri, store(uri, items)), stopped);
    for (const uri of contracts) {
      // Typing wins: the pass stops at the first edit and returns what it has.
      if (stopped()) return false;
      if (host.isOpen(uri) || reported.has(uri)) continue;
      let entry = cache.get(uri);
      if (!entry || entry.generation !== start) {
        await new Promise((r) => setImmediate(r));
        if (stopped()) return false;
        entry = store(uri, await host.diagnose(uri).catch((): Diagnostic[] => []));
      }
      report(uri, entry);
    }
    if (generation !== start) return false;
    // A contract that went (deleted, moved, excluded), or a document closed whose file went: an
    // empty report clears what the client shows.
    const listed = new Set(contracts);
    const gone = [...[...previous.keys()].filter((uri) => cache.get(uri)), ...closedSince].filter((uri) => !listed.has(uri) && !host.isOpen(uri));
    for (const uri of new Set(gone)) {
      cache.delete(uri);
      sink.push({ kind: 'full', uri, version: null, items: [] });
    }
    return true;
  };

  connection.languages.diagnostics.onWorkspace(async (params, token, _work, progress) => {
    const previous = new Map(params.previousResultIds.map((p) => [p.uri, p.value]));
    if (completedAt === generation && previous.size > 0) await nextChange(token);
    const start = generation;
    const sink = reportSink(progress);
    running++;
    const end = pending.begin();
    try {
      if (await pass(start, previous, sink, token)) {
        closedSince.clear();
        completedAt = start;
      }
    } finally {
      running--;
      end();
    }
    return sink.end();
  });

  const edited = () => {
    generation++;
    lastEdit = Date.now();
    for (const w of [...wakers]) w();
  };
  return {
    edited,
    running: () => running > 0,
    closed(uri) {
      // Bounded: a client that never pulls the workspace never empties it.
      if (closedSince.size >= CACHE_SIZE) closedSince.clear();
      closedSince.add(uri);
      edited();
    },
  };
}
