import {
  CodeActionKind, CodeLensRefreshRequest, DidChangeWatchedFilesNotification, SemanticTokensBuilder, FileChangeType, LSPErrorCodes, ResponseError, TextDocuments, TextDocumentSyncKind,
  type CodeAction, type Connection, type TextEdit, type Diagnostic, type InitializeParams, type InitializeResult, type CancellationToken,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  createLanguageService, diffPolicyOf, NOT_CANCELLED, type ContractDocument, nameAt, highlights, HIGHLIGHT_TYPES,
  format, localiseDiagnostic, resolveLang, type Lang, type LanguageService, type ParsedContract, type WorkspaceFacts, type RulePreset, type ContractDiagnostic, type RegexAnalyzer, type ModelSettings, readSnapshot, parseContract, decodeText, ruleMarkdown,
} from '../service/index.ts';
import { toCompletionItem, toDiagnostic, toDocumentSymbol, toFoldingRange, toRenamePlace } from './convert.ts';
import { overlayFileSystem } from './overlayFileSystem.ts';
import { createNodeFileSystem, fileUri, uriToPath } from '../node/nodeFileSystem.ts';
import { contractForSnapshot } from '../node/dryRunHost.ts';
import { registerSemanticDiff } from './semanticDiff.ts';
import { registerRunAgent } from './runAgent.ts';
import { registerRunPage } from './runPage.ts';
import { placesElsewhere } from './snapshotRefs.ts';
import { DOCUMENT_KIND, RULE_DOC, type DocumentKindParams, type DocumentKindResult, type RuleDocParams, type RuleDocResult } from './customRequests.ts';
import { backgroundAnalyzer } from './backgroundAnalyzer.ts';
import { exceedsBytes } from './textSize.ts';
import pkg from '../../../package.json' with { type: 'json' };
import { registerWorkspaceSymbols } from './workspaceSymbols.ts';
import { registerContractsOverview } from './contractsOverview.ts';
import { registerScaffold } from './scaffold.ts';
import { registerConformance } from './conformance.ts';
import { registerWorkspaceDiagnostics } from './workspaceDiagnostics.ts';
import { documentReports } from './documentReports.ts';
import { warmUp } from './warmUp.ts';
import { relevantChanges, WATCHERS } from './fileEvents.ts';
import { settingsStore, type ServerSettings } from './settings.ts';

/** The code action kind of "fix all" (docs/rules.md, "Fixes"): `editor.codeActionsOnSave` selects it. */
const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.agentsMd`;

/** How long typing must pause before the version advice against HEAD is computed again (ms). */
const ADVICE_DELAY_MS = 400;

/** Dry-run snapshots (docs/dry-run.md, "Naming"): checked by the server, not only by a schema. */
const SNAPSHOT_FILE = /\.snapshot\.(?:ya?ml|json)$/i;

/** What the server keeps per open document: the model of one version, and its facts once gathered. */
interface DocState {
  readonly version: number;
  readonly model: ParsedContract;
  facts?: Promise<WorkspaceFacts>;
}

/**
 * Starts the AGENTS.md contract language server on a connection (stdio or IPC). A thin adapter:
 * every answer is computed by the language service from the cached model of the document's
 * current version. Diagnostics are pulled when the client supports it (VS Code) and pushed
 * otherwise (Neovim, Helix); a result computed for a version that is no longer current is never
 * delivered. Texts are in the client's locale (LSP `initialize` `locale`; VS Code sends
 * `vscode.env.language`) when it is a shipped language, else English. `docsFolder` is the `file:`
 * URL of the folder holding rules.md (and zh-cn/rules.md), which diagnostics link to.
 */
export function startServer(connection: Connection, docsFolder: string, analyzeRegex: RegexAnalyzer): void {
  const documents = new TextDocuments(TextDocument);
  const states = new Map<string, DocState>();
  const reports = documentReports();
  const resourceSettings = settingsStore(connection);
  let service: LanguageService | undefined;
  let roots: string[] = [];
  let pull = false;
  let watchRegistration = false;
  let lensRefresh = false;
  let lang: Lang = 'en';
  let docsBase = `${docsFolder}/rules.md`;

  const rootPaths = () => roots.map(uriToPath).filter((p): p is string => p !== undefined);
  const nodeFs = createNodeFileSystem(rootPaths);
  const fs = overlayFileSystem(nodeFs, (uri) => documents.get(uri)?.getText());
  const makeService = () => createLanguageService({ fs, roots });
  // The ReDoS analysis never holds up diagnostics: a pattern not analysed yet counts as unknown
  // until its verdict arrives, which refreshes the diagnostics of the documents that use it (docs/performance.md).
  const regexFor = backgroundAnalyzer(analyzeRegex, (uris) => refreshSome(uris));

  const stateOf = (doc: TextDocument): DocState => {
    const cached = states.get(doc.uri);
    if (cached && cached.version === doc.version) return cached;
    const text = doc.getText();
    // Over the size limit no feature parses the document (hover, outline…: docs/robustness.md), as diagnostics do not.
    const tooLarge = exceedsBytes(text, resourceSettings.sizeLimit(doc.uri)) !== undefined;
    const state: DocState = { version: doc.version, model: tooLarge ? parseContract('') : service!.parse(doc.uri, text) };
    states.set(doc.uri, state);
    return state;
  };

  /** The facts with the rule preset: a config file's `extends` wins over the editor setting (docs/rules.md, "Presets"). */
  const withPreset = (facts: WorkspaceFacts, settings: ServerSettings): WorkspaceFacts => {
    const preset: RulePreset = facts.config.preset ?? (settings.preset === 'strict' ? 'strict' : 'recommended');
    return { ...facts, config: { ...facts.config, preset } };
  };
  const factsOf = async (doc: TextDocument, state: DocState): Promise<WorkspaceFacts> => {
    const settings = await resourceSettings.of(doc.uri);
    state.facts ??= service!.facts(doc.uri, state.model, settings.checkRegexBacktracking ? regexFor(doc.uri) : false);
    return state.facts;
  };

  /**
   * The version advice against HEAD (a git read, a parse of HEAD and a diff) is off the typing
   * path: diagnostics carry the advice last computed for the document, and a new one is computed
   * once typing pauses; when it differs, the client is asked to pull again.
   */
  const advice = new Map<string, { version: number; items: readonly ContractDiagnostic[] }>();
  const adviceTimers = new Map<string, { version: number; timer: ReturnType<typeof setTimeout> }>();
  const scheduleAdvice = (uri: string, version: number) => {
    // Computed for this version already, or waiting for typing to pause at this version.
    if (advice.get(uri)?.version === version || adviceTimers.get(uri)?.version === version) return;
    clearTimeout(adviceTimers.get(uri)?.timer);
    const timer = setTimeout(() => {
      adviceTimers.delete(uri);
      const doc = documents.get(uri);
      if (!doc || doc.version !== version) return;
      void semanticDiff.headAdvice(uri, stateOf(doc).model).then((items) => {
        if (documents.get(uri)?.version !== version) return;
        const before = advice.get(uri)?.items ?? [];
        advice.set(uri, { version, items });
        if (JSON.stringify(before) !== JSON.stringify(items)) refreshOne(doc);
      });
    }, ADVICE_DELAY_MS);
    adviceTimers.set(uri, { version, timer });
  };

  /** Diagnostics of a document's current version, or undefined when the document changed meanwhile. */
  const diagnose = async (doc: TextDocument, token?: CancellationToken): Promise<Diagnostic[] | undefined> => {
    const version = doc.version;
    const settings = await resourceSettings.of(doc.uri);
    // Coalescing: let queued edits and cancellations in first; work for a stale version is dropped, not queued.
    await new Promise((r) => setImmediate(r));
    if (token?.isCancellationRequested || documents.get(doc.uri)?.version !== version) return undefined;
    if (!settings.enable) return [];
    const text = doc.getText();
    const size = exceedsBytes(text, settings.maxFileBytes);
    if (size !== undefined) {
      const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
      const d = service!.validate(parseContract(''), undefined, [{ code: 'file-too-large', range: zero, args: { size, limit: settings.maxFileBytes } }]);
      return d.map((x) => toDiagnostic(localiseDiagnostic(x, lang), doc.uri, docsBase));
    }
    if (SNAPSHOT_FILE.test(doc.uri)) return (await snapshotDiagnostics(doc.uri, text)).map((d) => toDiagnostic(localiseDiagnostic(d, lang), doc.uri, `${docsFolder}/dry-run.md`));
    const started = performance.now();
    const state = stateOf(doc);
    const parsed = performance.now();
    const facts = await factsOf(doc, state);
    if (token?.isCancellationRequested || documents.get(doc.uri)?.version !== version) return undefined;
    const validating = performance.now();
    const diagnostics: ContractDiagnostic[] = service!.validate(state.model, withPreset(facts, settings));
    // One line per validation in the protocol trace (`$/setTrace`; VS Code: `agentsMd.trace.server`), so that
    // coalescing can be seen: a burst of edits shows one validation, of the last version (docs/performance.md).
    const ms = (x: number) => x.toFixed(1);
    connection.tracer.log(`validated ${doc.uri} version ${version}`, `parse ${ms(parsed - started)} ms, validate ${ms(performance.now() - validating)} ms, ${diagnostics.length} diagnostics`);
    if (settings.versionAdvice) scheduleAdvice(doc.uri, version);
    const adviceItems = settings.versionAdvice ? (advice.get(doc.uri)?.items ?? []) : [];
    return [
      ...diagnostics.map((d) => toDiagnostic(localiseDiagnostic(d, lang), doc.uri, docsBase)),
      // Advice for the next commit, not a problem of the text: information, so that an edit (a
      // quick fix) that changes the contract does not add a warning (docs/vscode.md, "Version advice").
      ...adviceItems.map((d) => toDiagnostic(localiseDiagnostic({ ...d, severity: 'info' }, lang), doc.uri, `${docsFolder}/semantic-diff.md`)),
    ];
  };

  /** A snapshot's diagnostics, checked against its contract (the open document, else the file) when it names one. */
  const snapshotDiagnostics = async (uri: string, text: string): Promise<readonly ContractDiagnostic[]> => {
    const syntax = /\.json$/i.test(uri) ? 'json' : 'yaml';
    const first = readSnapshot(text, { lang: syntax });
    const path = uriToPath(uri);
    const contractPath = path && first.snapshot ? contractForSnapshot(path, first.snapshot) : undefined;
    if (!contractPath) return first.diagnostics;
    // The overlay reads the open document's text, else the file.
    const bytes = await fs.readFile(fileUri(contractPath)).catch(() => undefined);
    const contractText = bytes ? decodeText(bytes).text : undefined;
    return contractText === undefined ? first.diagnostics : readSnapshot(text, { lang: syntax, contract: parseContract(contractText) }).diagnostics;
  };

  const semanticDiff = registerSemanticDiff(connection, documents, () => lang, async (uri) => diffPolicyOf((await service!.workspace.configFor(uri)).config.diff));
  const openModel = (uri: string) => {
    const doc = documents.get(uri);
    return doc && service && !SNAPSHOT_FILE.test(uri) ? stateOf(doc).model : undefined;
  };
  registerRunPage(connection, { lang: () => lang, model: openModel });
  registerRunAgent(connection, documents, {
    lang: () => lang,
    refreshLenses: () => (lensRefresh ? void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined) : undefined),
    roots: rootPaths,
    model: openModel,
    lenses: (uri, token) => {
      const doc = documents.get(uri);
      return doc && openModel(uri) ? service!.codeLenses(contract(doc, stateOf(doc)), { lang }, token) : [];
    },
    modelSettings: async (uri) => {
      // The configuration file's `model`, then the editor's settings over it (docs/model-providers.md).
      const fromConfig = service ? (await service.workspace.configFor(uri)).config.model : undefined;
      if (!resourceSettings.supported) return [fromConfig];
      const v = (await connection.workspace.getConfiguration({ scopeUri: uri, section: 'agentsMd.model' }).catch(() => null)) as Record<string, unknown> | null;
      // Unset editor settings are empty strings: they must not override the defaults.
      return [fromConfig, v ? (Object.fromEntries(Object.entries(v).filter(([, x]) => x !== '' && x !== null && x !== undefined)) as ModelSettings) : undefined];
    },
    otlpEndpoint: async (uri) => {
      const endpoint = (await resourceSettings.of(uri)).otlpEndpoint;
      return typeof endpoint === 'string' ? endpoint : '';
    },
    origin: { name: 'agents-md', version: pkg.version },
  });

  const pushTimers = new Map<string, ReturnType<typeof setTimeout>>();
  const schedulePush = (doc: TextDocument) => {
    if (pull) return;
    clearTimeout(pushTimers.get(doc.uri));
    pushTimers.set(
      doc.uri,
      setTimeout(() => {
        pushTimers.delete(doc.uri);
        const current = documents.get(doc.uri);
        if (!current) return;
        // The document object is updated in place on change: keep the version diagnosed.
        const version = current.version;
        void diagnose(current).then((items) => {
          if (items && documents.get(current.uri)?.version === version) void connection.sendDiagnostics({ uri: current.uri, version, diagnostics: items });
        });
      }, 30),
    );
  };

  // Contracts that are not open (docs/workspace.md, "In the editor"): read from disk, linted as the CLI does.
  const workspaceDiagnostics = registerWorkspaceDiagnostics(connection, {
    contractUris: async () => (service ? service.workspace.contractUris() : []),
    isOpen: (uri) => documents.get(uri) !== undefined,
    diagnose: async (uri) => {
      const settings = await resourceSettings.of(uri);
      const bytes = settings.enable && service ? await fs.readFile(uri).catch(() => undefined) : undefined;
      if (!bytes || !service) return [];
      const r = await service.lintBytes(uri, bytes, bytes.length, { preset: settings.preset, maxBytes: settings.maxFileBytes });
      return r.diagnostics.map((d) => toDiagnostic(localiseDiagnostic(d, lang), uri, docsBase));
    },
  });

  const refreshAll = () => {
    workspaceDiagnostics.edited();
    for (const s of states.values()) s.facts = undefined;
    if (pull) void connection.languages.diagnostics.refresh();
    else for (const d of documents.all()) schedulePush(d);
  };
  /** Asks for one document's diagnostics again (pull: the client re-pulls every open document). */
  const refreshOne = (doc: TextDocument) => {
    if (pull) void connection.languages.diagnostics.refresh();
    else schedulePush(doc);
  };
  /** Facts of these documents are stale (a ReDoS verdict they waited for): their diagnostics again. */
  const refreshSome = (uris: ReadonlySet<string>) => {
    const open = [...uris].map((u) => documents.get(u)).filter((d): d is TextDocument => d !== undefined);
    for (const d of open) {
      const state = states.get(d.uri);
      if (state) state.facts = undefined;
    }
    if (pull && open.length > 0) void connection.languages.diagnostics.refresh();
    else for (const d of open) schedulePush(d);
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    roots = (params.workspaceFolders ?? []).map((f) => f.uri);
    if (roots.length === 0 && params.rootUri) roots = [params.rootUri];
    lang = resolveLang(params.locale) ?? 'en';
    docsBase = `${docsFolder}/${lang === 'zh-cn' ? 'zh-cn/' : ''}rules.md`;
    pull = !!params.capabilities.textDocument?.diagnostic;
    resourceSettings.supported = !!params.capabilities.workspace?.configuration;
    watchRegistration = !!params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration;
    lensRefresh = !!params.capabilities.workspace?.codeLens?.refreshSupport;
    service = makeService();
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
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
        ...(pull ? { diagnosticProvider: { interFileDependencies: true, workspaceDiagnostics: true } } : {}),
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'agents-md', version: pkg.version },
    };
  });

  connection.onInitialized(() => {
    warmUp(() => documents.all().length > 0);
    if (watchRegistration) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: WATCHERS });
    }
    if (roots.length > 0) {
      connection.workspace.onDidChangeWorkspaceFolders((e) => {
        roots = [...roots.filter((r) => !e.removed.some((x) => x.uri === r)), ...e.added.map((x) => x.uri)];
        service = makeService();
        states.clear();
        refreshAll();
      });
    }
  });

  connection.onDidChangeConfiguration(async () => {
    // Clients send this once right after `initialized` too: refresh only when a setting of a
    // document already diagnosed really changed, so the first diagnostics are not cancelled.
    if (await resourceSettings.reload()) refreshAll();
  });

  connection.onDidChangeWatchedFiles(async (params) => {
    // Saving an open document writes what the server already has (its changes came as didChange):
    // not a change of a dependency. Refreshing on it made the client drop every file's
    // diagnostics until they were computed again, on each (auto)save.
    const changes = await relevantChanges(params.changes, {
      contracts: service?.workspace.lastListed() ?? [],
      isOpen: (uri) => !!documents.get(uri),
      isFolder: async (uri) => (await fs.stat(uri).catch(() => undefined))?.type === 'directory',
    });
    if (changes.length === 0) return;
    for (const c of changes) service?.workspace.invalidate(c.uri, c.type === FileChangeType.Changed ? 'changed' : 'structure');
    refreshAll();
  });

  documents.onDidChangeContent((e) => {
    // Other contracts read this document's declarations; only its summary is stale.
    service?.workspace.invalidate(e.document.uri, 'changed');
    workspaceDiagnostics.edited();
    schedulePush(e.document);
  });
  documents.onDidClose((e) => {
    workspaceDiagnostics.closed(e.document.uri);
    reports.forget(e.document.uri);
    states.delete(e.document.uri);
    advice.delete(e.document.uri);
    clearTimeout(adviceTimers.get(e.document.uri)?.timer);
    adviceTimers.delete(e.document.uri);
    service?.forget(e.document.uri);
    resourceSettings.forget(e.document.uri);
    if (!pull) void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.languages.diagnostics.on(async (params, token) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return { kind: 'full', items: [] };
    const items = await diagnose(doc, token);
    if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, format('lsp.requestCancelled', {}, lang));
    if (!items) throw new ResponseError(LSPErrorCodes.ServerCancelled, format('lsp.documentChanged', {}, lang), { retriggerRequest: true });
    return reports.report(doc.uri, items, params.previousResultId);
  });

  const withDoc = <T>(uri: string, fallback: T, f: (doc: TextDocument, state: DocState) => T): T => {
    const doc = documents.get(uri);
    if (!doc || !service || SNAPSHOT_FILE.test(uri)) return fallback;
    return f(doc, stateOf(doc));
  };
  const lastFacts = async (doc: TextDocument, state: DocState) => (await Promise.race([factsOf(doc, state), new Promise<undefined>((r) => setTimeout(r, 200, undefined))])) ?? undefined;

  const contract = (doc: TextDocument, state: DocState, facts?: WorkspaceFacts): ContractDocument => ({ uri: doc.uri, model: state.model, ...(facts ? { facts } : {}) });

  connection.onHover(async (p, token) => {
    const doc = documents.get(p.textDocument.uri);
    if (!doc || !service || SNAPSHOT_FILE.test(doc.uri)) return null;
    const state = stateOf(doc);
    const h = service.hover(contract(doc, state, await lastFacts(doc, state)), p.position, { lang }, token);
    return h ? { contents: { kind: 'markdown', value: h.contents }, range: h.range } : null;
  });
  connection.onCompletion((p, token) => withDoc(p.textDocument.uri, [], (doc, s) => service!.completion(contract(doc, s), p.position, { lang }, token).map(toCompletionItem)));
  connection.onDefinition(async (p, token) => {
    const doc = documents.get(p.textDocument.uri);
    if (!doc || !service || SNAPSHOT_FILE.test(doc.uri)) return [];
    const state = stateOf(doc);
    return service.definition(contract(doc, state, await lastFacts(doc, state)), p.position, { lang }, token);
  });
  /** Where the contract's snapshots, and for a shared pool or resource the other contracts, name what is under the cursor (docs/workspace.md). */
  const elsewhere = (uri: string, model: ParsedContract, position: { line: number; character: number }) => {
    const n = nameAt(model, position);
    return n ? placesElsewhere(service!.workspace, uri, n, rootPaths(), fs) : Promise.resolve([]);
  };
  connection.onReferences((p, token) =>
    withDoc(p.textDocument.uri, Promise.resolve([]), async (doc, s) => [
      ...service!.references(contract(doc, s), p.position, { includeDeclaration: p.context.includeDeclaration }, token),
      ...(await elsewhere(doc.uri, s.model, p.position)),
    ]),
  );
  connection.onPrepareRename((p, token) => withDoc(p.textDocument.uri, Promise.resolve(null), async (doc, s) => toRenamePlace(service!.prepareRename(contract(doc, s, await lastFacts(doc, s)), p.position, { lang }, token))));
  connection.onRenameRequest((p, token) =>
    withDoc(p.textDocument.uri, Promise.resolve(null), async (doc, s) => {
      const edits = service!.rename(contract(doc, s, await lastFacts(doc, s)), p.position, { newName: p.newName }, token);
      if (edits.length === 0) return null;
      const changes: Record<string, TextEdit[]> = { [doc.uri]: [...edits] };
      for (const place of await elsewhere(doc.uri, s.model, p.position)) (changes[place.uri] ??= []).push({ range: place.range, newText: p.newName });
      return { changes };
    }),
  );
  registerWorkspaceSymbols(connection, () => service);
  registerContractsOverview(connection, { lang: () => lang, service: () => service, roots: rootPaths, read: (uri) => fs.readFile(uri) });
  registerScaffold(connection, documents);
  registerConformance(connection, { lang: () => lang, model: openModel, roots: rootPaths });
  connection.onDocumentSymbol((p, token) => withDoc(p.textDocument.uri, [], (doc, s) => service!.documentSymbols(contract(doc, s), { lang }, token).map(toDocumentSymbol)));
  connection.languages.semanticTokens.on((p) =>
    withDoc(p.textDocument.uri, { data: [] }, (_, s) => {
      const b = new SemanticTokensBuilder();
      for (const h of highlights(s.model)) b.push(h.line, h.character, h.length, HIGHLIGHT_TYPES.indexOf(h.type), 0);
      return b.build();
    }),
  );
  connection.onRequest(DOCUMENT_KIND, (p: DocumentKindParams): DocumentKindResult => withDoc(p.uri, { kind: 'freeform' }, (_, s) => ({ kind: s.model.kind })));
  connection.onRequest(RULE_DOC, (p: RuleDocParams): RuleDocResult => ({ markdown: ruleMarkdown(String(p?.code), lang) ?? null }));
  connection.onFoldingRanges((p, token) => withDoc(p.textDocument.uri, [], (doc, s) => service!.foldingRanges(contract(doc, s), {}, token).map(toFoldingRange)));
  connection.onCodeAction(async (p, token) => {
    // Fix-on-save (`editor.codeActionsOnSave: { "source.fixAll.agentsMd": "explicit" }`): the rules' safe fixes.
    const wantsFixAll = p.context.only?.some((k) => FIX_ALL_KIND === k || FIX_ALL_KIND.startsWith(`${k}.`)) ?? false;
    const doc = documents.get(p.textDocument.uri);
    if (wantsFixAll && doc && service && !SNAPSHOT_FILE.test(doc.uri)) {
      const state = stateOf(doc);
      const facts = withPreset(await factsOf(doc, state), await resourceSettings.of(doc.uri));
      const { edits } = service.fixAll(contract(doc, state, facts), { lang, diagnostics: service.validate(state.model, facts) }, token ?? NOT_CANCELLED);
      return edits.length === 0 ? [] : [{ title: format('action.fixAll', {}, lang), kind: FIX_ALL_KIND, edit: { changes: { [doc.uri]: edits } } }];
    }
    // The facts check a safe fix against its result (a rename into a second TOOLS is not offered as safe).
    const facts = doc && service && !SNAPSHOT_FILE.test(doc.uri) ? await lastFacts(doc, stateOf(doc)) : undefined;
    return withDoc(p.textDocument.uri, [], (doc, s) => {
      const ours = p.context.diagnostics.filter((d) => d.source === 'agents-md' && typeof d.code === 'string');
      const refs = ours.map((d) => ({ code: String(d.code), range: d.range, args: ((d.data as { args?: Record<string, string | number> } | undefined)?.args) ?? {} }));
      return service!.codeActions(contract(doc, s, facts), p.range, { lang, diagnostics: refs }, token).map((a): CodeAction => ({
        title: a.title,
        kind: a.kind === 'quickfix' ? CodeActionKind.QuickFix : a.kind === 'refactor' ? CodeActionKind.RefactorRewrite : CodeActionKind.Source,
        diagnostics: ours.filter((d) => a.fixes.includes(String(d.code))),
        edit: { changes: { [doc.uri]: [...a.edits] } },
        ...(a.isPreferred ? { isPreferred: true } : {}),
      }));
    });
  });

  documents.listen(connection);
  connection.listen();
}
