/**
 * Run agent in the language server (docs/dry-run.md "In VS Code"; the dry run executes in the server):
 * the **▶ Run agent** code lens on a contract, the snapshots found for it, the run itself off the
 * typing path (cancellable, its trace written under `.agents-md/runs/` as the CLI writes it, its
 * tree streamed to the client after every event), HUMAN_IN_THE_LOOP pauses answered by the user,
 * and code lenses on the clauses the last runs exercised.
 */
import { dirname, relative } from 'node:path';
import { ErrorCodes, LSPErrorCodes, ResponseError, type CancellationToken, type CodeLens, type Connection, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { checkExpectation, createScriptedModel, locate, ModelError, parseContract, runMessage, traceSpans, traceTree, type HumanAnswer, type HumanDecision, type LensEntry, type ModelProvider, type ModelSettings, type ParsedContract, type Snapshot, type TraceEvent, type TraceRun } from '../service/index.ts';
import { sha256Hex } from '../service/host.ts';
import {
  contractForSnapshot, executeQuery, InputError, loadSnapshot, resourceReader, type LoadedContract, createRunFolder,
} from '../node/dryRunHost.ts';
import { fileUri, uriToPath } from '../node/nodeFileSystem.ts';
import type { SpanOrigin } from '../node/otlpExport.ts';
import { rootOf as rootIn, snapshotFiles } from './snapshotRefs.ts';
import { samePath } from '../node/paths.ts';
import { createModelProvider } from '../node/llmConfig.ts';
import {
  HUMAN_DECISION, LIST_SNAPSHOTS, RUN_AGENT, RUN_PROGRESS,
  type HumanDecisionResult, type ListSnapshotsParams, type ListSnapshotsResult, type RunAgentParams, type RunAgentResult, type SnapshotChoice,
} from './customRequests.ts';

/** At most one progress notification per this many ms (the last one is always sent). */
const PROGRESS_EVERY_MS = 100;

/** What the module needs from the server. */
export interface RunAgentHost {
  readonly lang: () => string;
  /** Workspace folders as file paths (snapshots are searched there and beside the contract). */
  readonly roots: () => readonly string[];
  /** The cached model of an open document's current version. */
  readonly model: (uri: string) => ParsedContract | undefined;
  /** The model settings for a document as layers: its configuration file's `model`, then the editor's `agentsMd.model`. */
  readonly modelSettings: (uri: string) => Promise<readonly (ModelSettings | undefined)[]>;
  /** The service's own lenses of an open contract (what the tools cost). */
  readonly lenses: (uri: string, token: CancellationToken) => Promise<readonly LensEntry[]>;
  /** The editor's `agentsMd.otlpEndpoint` for a document: where runs are sent as OpenTelemetry spans ('' for nowhere). */
  readonly otlpEndpoint: (uri: string) => Promise<string>;
  /** The server's name and version, for the spans' resource. */
  readonly origin: SpanOrigin;
  /** Asks the client to request code lenses again, if it can. */
  readonly refreshLenses: () => void;
}


export function registerRunAgent(connection: Connection, documents: TextDocuments<TextDocument>, host: RunAgentHost): void {
  /** Per contract URI: clause pointer → the query ids whose runs named it. */
  const exercised = new Map<string, Map<string, Set<string>>>();

  connection.onRequest(LIST_SNAPSHOTS, async (p: ListSnapshotsParams): Promise<ListSnapshotsResult> => {
    const path = uriToPath(p.uri);
    return { snapshots: path ? await snapshotChoices(path, host) : [] };
  });

  connection.onRequest(RUN_AGENT, async (p: RunAgentParams, token: CancellationToken): Promise<RunAgentResult> => {
    const lang = host.lang();
    const setup = await prepareRun(p, documents, host);
    const controller = new AbortController();
    token.onCancellationRequested(() => controller.abort());
    const run = newRun(connection, p, { contract: setup.model, contractUri: p.uri, lang });
    for (const query of setup.queries) {
      if (controller.signal.aborted) break;
      await runQuery(connection, host, p, setup, run, query, controller.signal, token);
    }
    exercised.set(p.uri, run.clauses);
    host.refreshLenses(); // the "exercised by" lenses changed, the text did not
    // The trace so far stays in the view (sent as progress) and on disk; the request itself is cancelled.
    if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, runMessage('view.cancelled', {}, lang));
    return {
      runId: p.runId,
      ok: run.passed === run.runs.length && !controller.signal.aborted,
      summary: runMessage('view.summary', { passed: run.passed, total: run.runs.length }, lang),
      traceUris: run.traceUris,
      tree: traceTree(run.runs, run.options),
    };
  });

  connection.onCodeLens((p, token): Promise<CodeLens[]> => codeLenses(documents.get(p.textDocument.uri), host, exercised, token));
}

/** The snapshots found for a contract that name it, each with its queries or why it cannot run. */
async function snapshotChoices(contractPath: string, host: RunAgentHost): Promise<SnapshotChoice[]> {
  const choices: SnapshotChoice[] = [];
  for (const file of await snapshotFiles(contractPath, host.roots())) {
    try {
      const { read } = await loadSnapshot(file, dirname(contractPath));
      const named = contractForSnapshot(file, read.snapshot ?? {});
      if (!named || !samePath(named, contractPath)) continue;
      const label = relative(dirname(contractPath), file).split('\\').join('/');
      const error = read.diagnostics.find((d) => d.severity === 'error');
      choices.push({
        uri: fileUri(file), label,
        queries: (read.snapshot?.queries ?? []).map((q) => ({ id: q.id, about: q.description ?? q.query })),
        ...(error || !read.snapshot ? { problem: error?.message ?? runMessage('view.snapshotUnusable', {}, host.lang()) } : {}),
      });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
    }
  }
  return choices;
}

/** What a run request needs before any query runs: the open contract, its snapshot, the queries, files, settings and the OTLP endpoint. */
async function prepareRun(p: RunAgentParams, documents: TextDocuments<TextDocument>, host: RunAgentHost) {
  const lang = host.lang();
  const contractPath = uriToPath(p.uri);
  const snapshotPath = uriToPath(p.snapshotUri);
  if (!contractPath || !snapshotPath) throw new ResponseError(ErrorCodes.InvalidParams, p.uri);
  const text = documents.get(p.uri)?.getText();
  if (text === undefined) throw new ResponseError(ErrorCodes.InvalidParams, runMessage('view.contractNotOpen', { uri: p.uri }, lang));
  const model = parseContract(text);
  const contract: LoadedContract = { path: contractPath, text, model, sha256: await sha256Hex(new TextEncoder().encode(text)) };
  const root = rootIn(host.roots(), contractPath);
  const snapshot = await loadSnapshot(snapshotPath, root, model).catch((e: Error) => {
    throw new ResponseError(ErrorCodes.InvalidParams, e.message);
  });
  const snap: Snapshot | undefined = snapshot.read.snapshot;
  if (!snap) throw new ResponseError(ErrorCodes.InvalidParams, snapshot.read.diagnostics.find((d) => d.severity === 'error')?.message ?? snapshotPath);
  return {
    model, contract, root,
    snapshot: { ...snapshot, read: { ...snapshot.read, snapshot: snap } },
    queries: p.queryId === undefined ? snap.queries : snap.queries.filter((q) => q.id === p.queryId),
    file: await resourceReader(root, contract),
    settings: await host.modelSettings(p.uri),
    // Runs leave the machine only from a trusted workspace (docs/tracing.md, "From VS Code").
    otlp: p.trusted ? (await host.otlpEndpoint(p.uri)).trim() : '',
  };
}

type RunSetup = Awaited<ReturnType<typeof prepareRun>>;
type Query = RunSetup['queries'][number];

/** A run request's state across its queries, and its progress notifications (at most one per `PROGRESS_EVERY_MS`, unless forced). */
function newRun(connection: Connection, p: RunAgentParams, options: { contract: ParsedContract; contractUri: string; lang: string }) {
  const runs: TraceRun[] = [];
  let lastSent = 0;
  return {
    runs, options,
    passed: 0,
    traceUris: [] as string[],
    /** Clause pointer → the query ids whose runs named it. */
    clauses: new Map<string, Set<string>>(),
    progress(message: string, force = false) {
      if (!force && Date.now() - lastSent < PROGRESS_EVERY_MS) return;
      lastSent = Date.now();
      void connection.sendNotification(RUN_PROGRESS, { runId: p.runId, message, tree: traceTree(runs, options) });
    },
  };
}

type Run = ReturnType<typeof newRun>;
type HumanRequest = Parameters<NonNullable<Parameters<typeof executeQuery>[0]['decide']>>[0];

/** Runs one query: its trace streamed as progress, HITL pauses asked of the user, the result counted and sent over OTLP when set. */
async function runQuery(connection: Connection, host: RunAgentHost, p: RunAgentParams, setup: RunSetup, run: Run, query: Query, signal: AbortSignal, token: CancellationToken): Promise<void> {
  const lang = run.options.lang;
  const events: TraceEvent[] = [];
  const current = { queryId: query.id, events };
  run.runs.push(current);
  let provider: ModelProvider;
  try {
    provider = createModelProvider(setup.settings, { trusted: p.trusted, env: process.env, scripted: () => createScriptedModel(query.model), ...(p.apiKey ? { apiKey: p.apiKey } : {}) });
  } catch (e) {
    // Invalid settings or an endpoint in an untrusted workspace: said before anything runs.
    if (e instanceof ModelError) throw new ResponseError(ErrorCodes.InvalidParams, e.message);
    throw e;
  }
  const result = await executeQuery({
    root: setup.root, contract: setup.contract, snapshot: setup.snapshot, query, file: setup.file,
    folder: createRunFolder(setup.root, query.id), traceName: 'trace.jsonl', provider, signal,
    decide: humanDecider(connection, p, setup.model, run, token),
    onEvent: (e) => {
      events.push(e);
      const pointer = (e.payload as { pointer?: unknown }).pointer;
      if (typeof pointer === 'string') run.clauses.set(pointer, new Set([...(run.clauses.get(pointer) ?? []), query.id]));
      run.progress(runMessage('view.progress', { query: query.id, events: events.length }, lang));
    },
  });
  // A query with expectations passes when they are met (a rejection may be what it expects).
  const mismatches = checkExpectation(query.expect, result);
  run.runs[run.runs.length - 1] = { ...current, outcome: result.outcome, mismatches, ...(query.expect && mismatches.length === 0 ? { asExpected: true } : {}) };
  if (query.expect ? mismatches.length === 0 : result.outcome.status === 'success') run.passed++;
  run.traceUris.push(fileUri(result.tracePath));
  if (setup.otlp) {
    const { endpointLabel, sendOtlp } = await import('../node/otlpExport.ts'); // OpenTelemetry on demand
    // Not awaited: the run answers first, whatever the receiver does (docs/tracing.md).
    void sendOtlp(await traceSpans(result.events, { contract: setup.model }), setup.otlp, host.origin).catch((e: Error) => {
      void connection.window.showWarningMessage(runMessage('view.otlpFailed', { query: query.id, url: endpointLabel(setup.otlp), error: e.message || String(e) }, lang));
    });
  }
  run.progress(runMessage('view.progress', { query: query.id, events: events.length }, lang), true);
}

/** A HUMAN_IN_THE_LOOP pause asked of the user (`agentsMd/humanDecision`), at the clause that asks for it. */
function humanDecider(connection: Connection, p: RunAgentParams, model: ParsedContract, run: Run, token: CancellationToken) {
  const lang = run.options.lang;
  return async (request: HumanRequest): Promise<HumanDecision | HumanAnswer> => {
    run.progress(runMessage('view.waitingForHuman', {}, lang), true);
    const range = locate(model, request.pointer)?.value;
    const answer = await connection.sendRequest<HumanDecisionResult>(HUMAN_DECISION, {
      runId: p.runId,
      message: runMessage('view.humanQuestion', { subject: request.subject, reason: runMessage(request.reasonId, request.reasonArgs, lang) }, lang),
      ...(range ? { location: { uri: p.uri, range } } : {}),
    }, token);
    // Whatever the client answers (null, `APPROVE`, `maybe`) is judged by the run (docs/dry-run.md).
    if (typeof answer !== 'object' || answer === null) return answer as unknown as HumanDecision;
    return answer.decidedBy ? { decision: answer.decision, by: answer.decidedBy } : answer.decision;
  };
}

/** The Run agent lens, the service's lenses (text only) and one "exercised by" lens per clause the last runs named. */
async function codeLenses(doc: TextDocument | undefined, host: RunAgentHost, exercised: ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>, token: CancellationToken): Promise<CodeLens[]> {
  const model = doc && host.model(doc.uri);
  if (!doc || !model || model.kind !== 'contract') return [];
  const lang = host.lang();
  const lenses: CodeLens[] = [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, command: { title: runMessage('view.lens.run', {}, lang), command: 'agentsMd.runAgent', arguments: [doc.uri] } }];
  // A lens without a command is text only: VS Code shows it and does nothing on a click.
  for (const l of await host.lenses(doc.uri, token)) lenses.push({ range: l.range, command: { title: l.title, command: '' } });
  for (const [pointer, ids] of exercised.get(doc.uri) ?? []) {
    const range = locate(model, pointer)?.value;
    if (!range) continue;
    const title = runMessage('view.lens.exercised', { count: ids.size, queries: [...ids].join(', ') }, lang);
    lenses.push({ range: { start: range.start, end: range.start }, command: { title, command: 'agentsMd.runAgent', arguments: [doc.uri] } });
  }
  return lenses;
}
