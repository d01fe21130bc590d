import { LSPErrorCodes, ResponseError, type CancellationToken, type Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { parseContract, readSnapshot, type ContractDiagnostic, type FileSystem } from '../service/index.ts';
import { decodeText, format, localiseDiagnostic } from '../service/host.ts';
import { fileUri, uriToPath } from '../node/nodeFileSystem.ts';
import { contractForSnapshot } from '../node/dryRunHost.ts';
import { toDiagnostic } from './convert.ts';
import { documentReports } from './documentReports.ts';
import { withPreset, type DocumentStates } from './documentState.ts';
import { SNAPSHOT_FILE, type ServerContext } from './serverContext.ts';
import { runSteps } from './steps.ts';
import { exceedsBytes } from './textSize.ts';
import type { VersionAdvice } from './versionAdvice.ts';
import { registerWorkspaceDiagnostics } from './workspaceDiagnostics.ts';
import { diagnoseInWorkers } from './workspacePool.ts';

export interface Diagnostics {
  /** Every document's diagnostics again (settings, folders or files they read changed). */
  refreshAll(): void;
  /** One document's diagnostics again (pull: the client re-pulls every open document). */
  refreshOne(uri: string): void;
  /** Facts of these documents are stale (a ReDoS verdict they waited for): their diagnostics again. */
  refreshSome(uris: ReadonlySet<string>): void;
  /** An open document changed. */
  edited(doc: TextDocument): void;
  closed(uri: string): void;
  /** Whether a workspace pass is running (its index is not complete yet). */
  workspacePassRunning(): boolean;
}

/** A snapshot's diagnostics, checked against its contract (the open document, else the file) when it names one. */
async function snapshotDiagnostics(fs: FileSystem, uri: string, text: string): Promise<readonly ContractDiagnostic[]> {
  const syntax = /\.json$/i.test(uri) ? 'json' : 'yaml';
  const first = readSnapshot(text, { lang: syntax });
  const path = uriToPath(uri);
  const contractPath = path && first.snapshot ? contractForSnapshot(path, first.snapshot) : undefined;
  if (!contractPath) return first.diagnostics;
  // The overlay reads the open document's text, else the file.
  const bytes = await fs.readFile(fileUri(contractPath)).catch(() => undefined);
  const contractText = bytes ? decodeText(bytes).text : undefined;
  return contractText === undefined ? first.diagnostics : readSnapshot(text, { lang: syntax, contract: parseContract(contractText) }).diagnostics;
}

/** Contracts that are not open (docs/workspace.md, "In the editor"): read from disk, linted as the CLI does. */
function openElsewhere(ctx: ServerContext, docs: DocumentStates) {
  const { session, settings: resourceSettings, fs } = ctx;
  return registerWorkspaceDiagnostics(ctx.connection, ctx.pending, {
    contractUris: async () => (session.service ? session.service.workspace.contractUris() : []),
    isOpen: (uri) => ctx.documents.get(uri) !== undefined,
    diagnose: async (uri) => {
      const settings = await resourceSettings.of(uri);
      const bytes = settings.enable && session.service ? await fs.readFile(uri).catch(() => undefined) : undefined;
      if (!bytes || !session.service) return [];
      // Tokens counted in the token process, as for an open contract: the tokenizer never loads in the server.
      const service = session.service;
      const r = await docs.tokens.withCounts((countTokens) => service.lintBytes(uri, bytes, bytes.length, { preset: settings.preset, maxBytes: settings.maxFileBytes, countTokens }));
      return r.diagnostics.map((d) => toDiagnostic(localiseDiagnostic(d, session.lang), uri, session.docsBase));
    },
    diagnoseInWorkers: async (uris, found, stopped) => {
      if (!session.service) return;
      const host = { roots: session.roots, service: session.service, isOpen: (uri: string) => ctx.documents.get(uri) !== undefined, settingsOf: (uri: string) => resourceSettings.of(uri), trace: (m: string) => ctx.connection.tracer.log(m) };
      await diagnoseInWorkers(host, uris, (uri, items) => found(uri, items.map((d) => toDiagnostic(localiseDiagnostic(d, session.lang), uri, session.docsBase))), stopped);
    },
  });
}

/**
 * A diagnostic as the client gets it, kept per service diagnostic (most are the objects of the
 * last validation: a keystroke converts only what changed, and the report compares equal objects).
 */
const converted = new WeakMap<ContractDiagnostic, { readonly key: string; readonly diagnostic: Diagnostic }>();
function clientDiagnostic(d: ContractDiagnostic, lang: string, uri: string, docsBase: string): Diagnostic {
  const key = `${lang}\u0000${uri}\u0000${docsBase}`;
  const hit = converted.get(d);
  if (hit?.key === key) return hit.diagnostic;
  const diagnostic = toDiagnostic(localiseDiagnostic(d, lang), uri, docsBase);
  converted.set(d, { key, diagnostic });
  return diagnostic;
}

/** Diagnostics of a document's current version, or undefined when the document changed meanwhile. */
async function diagnoseOpen(ctx: ServerContext, docs: DocumentStates, advice: VersionAdvice, whenRead: (uri: string, full: Promise<unknown>) => void, doc: TextDocument, token?: CancellationToken): Promise<Diagnostic[] | undefined> {
  const { connection, documents, session, settings: resourceSettings, docsFolder, fs } = ctx;
  const version = doc.version;
  const settings = await resourceSettings.of(doc.uri);
  // Coalescing: let queued edits and cancellations in first; work for a stale version is dropped, not queued.
  await new Promise((r) => setImmediate(r));
  if (token?.isCancellationRequested || documents.get(doc.uri)?.version !== version) return undefined;
  if (!settings.enable) return [];
  const { lang, docsBase } = session;
  const text = doc.getText();
  const size = exceedsBytes(text, settings.maxFileBytes);
  if (size !== undefined) {
    const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const d = session.service!.validate(parseContract(''), undefined, [{ code: 'file-too-large', range: zero, args: { size, limit: settings.maxFileBytes } }]);
    return d.map((x) => toDiagnostic(localiseDiagnostic(x, lang), doc.uri, docsBase));
  }
  if (SNAPSHOT_FILE.test(doc.uri)) return (await snapshotDiagnostics(fs, doc.uri, text)).map((d) => toDiagnostic(localiseDiagnostic(d, lang), doc.uri, `${docsFolder}/dry-run.md`));
  // Parsing and validating yield to edits and requests: the first analysis of a large document
  // takes seconds, and work for a version edited meanwhile is dropped (docs/performance.md).
  const stale = () => !!token?.isCancellationRequested || documents.get(doc.uri)?.version !== version;
  // The trace shows where an analysis was dropped: `analysing`, then `validated` or `dropped … (stage)`.
  const dropped = (stage: string) => (connection.tracer.log(`dropped ${doc.uri} version ${version} (${stage})`), undefined);
  connection.tracer.log(`analysing ${doc.uri} version ${version}`);
  const started = performance.now();
  const state = await docs.stateSteps(doc);
  const parsed = performance.now();
  if (!state || stale()) return dropped('parse');
  // In a large workspace read for the first time, the other contracts do not hold up these diagnostics.
  const { facts, full } = await docs.firstFacts(doc, state);
  if (full) whenRead(doc.uri, full);
  if (stale()) return dropped('facts');
  const validating = performance.now();
  const diagnostics = await runSteps(session.service!.validateSteps(state.model, withPreset(facts, settings)), stale);
  if (!diagnostics || stale()) return dropped('validate');
  // One line per validation in the protocol trace (`$/setTrace`; VS Code: `agentsMd.trace.server`), so that
  // coalescing can be seen: a burst of edits shows one validation, of the last version (docs/performance.md).
  const ms = (x: number) => x.toFixed(1);
  connection.tracer.log(`validated ${doc.uri} version ${version}`, `parse ${ms(parsed - started)} ms, validate ${ms(performance.now() - validating)} ms, ${diagnostics.length} diagnostics`);
  if (settings.versionAdvice) advice.schedule(doc.uri, version);
  const adviceItems = settings.versionAdvice ? advice.items(doc.uri) : [];
  return [
    ...diagnostics.map((d) => clientDiagnostic(d, session.lang, doc.uri, session.docsBase)),
    // Advice for the next commit, not a problem of the text: information, so that an edit (a
    // quick fix) that changes the contract does not add a warning (docs/vscode.md, "Version advice").
    ...adviceItems.map((d) => toDiagnostic(localiseDiagnostic({ ...d, severity: 'info' }, session.lang), doc.uri, `${docsFolder}/semantic-diff.md`)),
  ];
}

/**
 * Diagnostics of open documents, pulled when the client supports it (VS Code) and pushed
 * otherwise (Neovim, Helix), and of the workspace's other contracts. A result computed for a
 * version that is no longer current is never delivered.
 */
export function registerDiagnostics(ctx: ServerContext, docs: DocumentStates, advice: VersionAdvice): Diagnostics {
  const { connection, documents, session } = ctx;
  const reports = documentReports();

  /** Documents diagnosed before the other contracts were read: diagnosed again once they are, each once. */
  const awaitingWorkspace = new Set<string>();
  const whenRead = (uri: string, full: Promise<unknown>) => {
    if (awaitingWorkspace.has(uri)) return;
    awaitingWorkspace.add(uri);
    void ctx.pending.track(
      full.then(
        () => (awaitingWorkspace.delete(uri), refreshOne(uri)),
        () => awaitingWorkspace.delete(uri),
      ),
    );
  };
  const diagnose = (doc: TextDocument, token?: CancellationToken) => diagnoseOpen(ctx, docs, advice, whenRead, doc, token);

  // Each timer and the validation it starts count as pending work until the notification is sent or dropped.
  const pushTimers = new Map<string, { timer: ReturnType<typeof setTimeout>; end: () => void }>();
  const schedulePush = (doc: TextDocument) => {
    if (session.pull) return;
    const previous = pushTimers.get(doc.uri);
    clearTimeout(previous?.timer);
    previous?.end();
    const end = ctx.pending.begin();
    const timer = setTimeout(() => {
      pushTimers.delete(doc.uri);
      const current = documents.get(doc.uri);
      if (!current) return end();
      // The document object is updated in place on change: keep the version diagnosed.
      const version = current.version;
      void diagnose(current)
        .then((items) => {
          if (items && documents.get(current.uri)?.version === version) void connection.sendDiagnostics({ uri: current.uri, version, diagnostics: items });
        })
        .finally(end);
    }, 30);
    pushTimers.set(doc.uri, { timer, end });
  };

  const workspaceDiagnostics = openElsewhere(ctx, docs);

  connection.languages.diagnostics.on(async (params, token) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return { kind: 'full', items: [] };
    const items = await diagnose(doc, token);
    if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, format('lsp.requestCancelled', {}, session.lang));
    if (!items) throw new ResponseError(LSPErrorCodes.ServerCancelled, format('lsp.documentChanged', {}, session.lang), { retriggerRequest: true });
    return reports.report(doc.uri, items, params.previousResultId);
  });

  const refreshOne = (uri: string) => {
    const doc = documents.get(uri);
    if (session.pull) void connection.languages.diagnostics.refresh();
    else if (doc) schedulePush(doc);
  };
  return {
    refreshAll() {
      workspaceDiagnostics.edited();
      docs.dropFacts();
      if (session.pull) void connection.languages.diagnostics.refresh();
      else for (const d of documents.all()) schedulePush(d);
    },
    refreshOne,
    refreshSome(uris) {
      const open = [...uris].map((u) => documents.get(u)).filter((d): d is TextDocument => d !== undefined);
      docs.dropFacts(open.map((d) => d.uri));
      if (session.pull && open.length > 0) void connection.languages.diagnostics.refresh();
      else for (const d of open) schedulePush(d);
    },
    edited(doc) {
      workspaceDiagnostics.edited();
      schedulePush(doc);
    },
    workspacePassRunning: () => workspaceDiagnostics.running(),
    closed(uri) {
      workspaceDiagnostics.closed(uri);
      reports.forget(uri);
      if (!session.pull) void connection.sendDiagnostics({ uri, diagnostics: [] });
    },
  };
}
