import { CodeActionKind, DidChangeWatchedFilesNotification, FileChangeType, TextDocumentSyncKind, type FileEvent, type InitializeParams, type InitializeResult } from 'vscode-languageserver';
import { HIGHLIGHT_TYPES } from '../service/index.ts';
import { resolveLang } from '../service/host.ts';
import pkg from '../../../package.json' with { type: 'json' };
import { FIX_ALL_KIND } from './codeActions.ts';
import type { Diagnostics } from './diagnostics.ts';
import type { DocumentStates } from './documentState.ts';
import { relevantChanges, WATCHERS } from './fileEvents.ts';
import type { ServerContext } from './serverContext.ts';
import type { VersionAdvice } from './versionAdvice.ts';
import { warmUp } from './warmUp.ts';

/** `initialize` (the client's capabilities, language and folders; the server's capabilities) and `initialized`. */
export function registerInitialize(ctx: ServerContext, docs: DocumentStates, diagnostics: Diagnostics): void {
  const { connection, session, docsFolder } = ctx;
  connection.onInitialize((params: InitializeParams): InitializeResult => {
    session.roots = (params.workspaceFolders ?? []).map((f) => f.uri);
    if (session.roots.length === 0 && params.rootUri) session.roots = [params.rootUri];
    session.lang = resolveLang(params.locale) ?? 'en';
    session.docsBase = `${docsFolder}/${session.lang === 'zh-cn' ? 'zh-cn/' : ''}rules.md`;
    session.pull = !!params.capabilities.textDocument?.diagnostic;
    ctx.settings.supported = !!params.capabilities.workspace?.configuration;
    session.watchRegistration = !!params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration;
    session.lensRefresh = !!params.capabilities.workspace?.codeLens?.refreshSupport;
    session.codeActionResolve = params.capabilities.textDocument?.codeAction?.resolveSupport?.properties.includes('edit') ?? false;
    session.service = ctx.makeService();
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        completionProvider: { triggerCharacters: ['#', '*', '{', '`', ':', '-', ' '], resolveProvider: false },
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        documentSymbolProvider: true,
        workspaceSymbolProvider: true,
        foldingRangeProvider: true,
        semanticTokensProvider: { legend: { tokenTypes: [...HIGHLIGHT_TYPES], tokenModifiers: [] }, full: true },
        codeLensProvider: { resolveProvider: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND], resolveProvider: session.codeActionResolve },
        ...(session.pull ? { diagnosticProvider: { interFileDependencies: true, workspaceDiagnostics: true } } : {}),
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'agents-md', version: pkg.version },
    };
  });

  connection.onInitialized(() => {
    warmUp(() => ctx.documents.all().length > 0);
    if (session.watchRegistration) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: WATCHERS });
    }
    if (session.roots.length > 0) {
      connection.workspace.onDidChangeWorkspaceFolders((e) => {
        session.roots = [...session.roots.filter((r) => !e.removed.some((x) => x.uri === r)), ...e.added.map((x) => x.uri)];
        session.service = ctx.makeService();
        docs.clear();
        diagnostics.refreshAll();
      });
    }
  });
}

/** Settings and watched files that change diagnostics; open documents edited and closed. */
export function registerDocumentEvents(ctx: ServerContext, docs: DocumentStates, diagnostics: Diagnostics, advice: VersionAdvice): void {
  const { connection, documents, session } = ctx;
  connection.onDidChangeConfiguration(() => {
    // Clients send this once right after `initialized` too: refresh only when a setting of a
    // document already diagnosed really changed, so the first diagnostics are not cancelled.
    void ctx.pending.track(ctx.settings.reload().then((changed) => changed && diagnostics.refreshAll()));
  });

  // Reading a file event is pending work (`agentsMd/settled`): it may refresh diagnostics.
  connection.onDidChangeWatchedFiles((params) => void ctx.pending.track(watchedFilesChanged(params.changes)));
  const watchedFilesChanged = async (events: readonly FileEvent[]) => {
    // Saving an open document writes what the server already has (its changes came as didChange):
    // not a change of a dependency. Refreshing on it made the client drop every file's
    // diagnostics until they were computed again, on each (auto)save.
    const changes = await relevantChanges(events, {
      contracts: session.service?.workspace.lastListed() ?? [],
      isOpen: (uri) => !!documents.get(uri),
      isFolder: async (uri) => (await ctx.fs.stat(uri).catch(() => undefined))?.type === 'directory',
    });
    if (changes.length === 0) return;
    for (const c of changes) session.service?.workspace.invalidate(c.uri, c.type === FileChangeType.Changed ? 'changed' : 'structure');
    diagnostics.refreshAll();
  };

  documents.onDidChangeContent((e) => {
    // Other contracts read this document's declarations; only its summary is stale.
    session.service?.workspace.invalidate(e.document.uri, 'changed');
    diagnostics.edited(e.document);
  });
  documents.onDidClose((e) => {
    const uri = e.document.uri;
    diagnostics.closed(uri);
    docs.forget(uri);
    advice.forget(uri);
    session.service?.forget(uri);
    ctx.settings.forget(uri);
  });
}
