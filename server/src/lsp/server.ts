import type { Connection } from 'vscode-languageserver';
import { analysedPatterns, diffPolicyOf } from '../service/host.ts';
import { backgroundAnalyzer, type AskVerdict } from './backgroundAnalyzer.ts';
import { backgroundTokens } from './backgroundTokens.ts';
import { registerCodeActions } from './codeActions.ts';
import { registerConformance } from './conformance.ts';
import { registerContractsOverview } from './contractsOverview.ts';
import { registerDiagnostics } from './diagnostics.ts';
import { documentStates } from './documentState.ts';
import { registerDocumentEvents, registerInitialize } from './lifecycle.ts';
import { registerNavigation } from './navigation.ts';
import { registerOutline } from './outline.ts';
import { registerProve } from './prove.ts';
import { registerRunAgent } from './runAgent.ts';
import { runAgentHost } from './runAgentHost.ts';
import { registerRunPage } from './runPage.ts';
import { registerScaffold } from './scaffold.ts';
import { registerSemanticDiff } from './semanticDiff.ts';
import { serverContext } from './serverContext.ts';
import { registerSettled } from './settled.ts';
import { versionAdvice } from './versionAdvice.ts';
import { registerWorkspaceSymbols } from './workspaceSymbols.ts';

/**
 * Starts the AGENTS.md contract language server on a connection (stdio or IPC). A thin adapter:
 * every answer is computed by the language service from the cached model of the document's
 * current version (documentState.ts). Diagnostics are pulled when the client supports it (VS Code)
 * and pushed otherwise (Neovim, Helix); a result computed for a version that is no longer current
 * is never delivered (diagnostics.ts). Texts are in the client's locale (LSP `initialize` `locale`;
 * VS Code sends `vscode.env.language`) when it is a shipped language, else English. `docsFolder` is
 * the `file:` URL of the folder holding rules.md (and zh-cn/rules.md), which diagnostics link to;
 * `analyzeRegex` and `countTokens` run the ReDoS analysis and the tokenizer (child processes; undefined: no answer).
 *
 * Each feature is one `register*` module taking the shared context; a new feature adds one line here.
 */
export function startServer(connection: Connection, docsFolder: string, analyzeRegex: AskVerdict, countTokens: (texts: readonly string[]) => Promise<readonly number[] | undefined>): void {
  const ctx = serverContext(connection, docsFolder);
  const { documents, session } = ctx;
  // The ReDoS analysis never holds up diagnostics: a pattern not analysed yet counts as unknown
  // until its verdict arrives, which refreshes the diagnostics of the documents that use it (docs/performance.md).
  const regexFor = backgroundAnalyzer((pattern) => ctx.pending.track(analyzeRegex(pattern)), (uris) => diagnostics.refreshSome(uris), {
    trace: (m) => connection.tracer.log(m),
    // A retry is for a pattern an open document still has (its current text).
    inUse: (pattern, askedBy) => [...askedBy].some((uri) => {
      const model = docs.openModel(uri);
      return model !== undefined && analysedPatterns(model).includes(pattern);
    }),
  });
  // The tokenizer runs in a process of its own too: its tables never sit in the server's heap.
  // Counts that arrive check the documents that asked again, and the cost lens is asked for again.
  const tokens = backgroundTokens(countTokens, (uris) => (diagnostics.refreshSome(uris), runHost.refreshLenses()), ctx.pending);
  const docs = documentStates(ctx, regexFor, tokens);
  const semanticDiff = registerSemanticDiff(connection, documents, () => session.lang, async (uri) => diffPolicyOf((await session.service!.workspace.configFor(uri)).config.diff));
  const advice = versionAdvice(ctx, docs, (uri, model) => semanticDiff.headAdvice(uri, model), (uri) => diagnostics.refreshOne(uri));
  const diagnostics = registerDiagnostics(ctx, docs, advice);
  const runHost = runAgentHost(ctx, docs);

  registerInitialize(ctx, docs, diagnostics);
  registerDocumentEvents(ctx, docs, diagnostics, advice);
  registerRunPage(connection, { lang: () => session.lang, model: (uri) => docs.openModel(uri) });
  registerRunAgent(connection, documents, runHost);
  registerNavigation(ctx, docs);
  registerWorkspaceSymbols(connection, () => session.service, () => diagnostics.workspacePassRunning());
  registerContractsOverview(connection, { lang: () => session.lang, service: () => session.service, roots: ctx.rootPaths, read: (uri) => ctx.fs.readFile(uri) });
  registerScaffold(connection, documents, { service: () => session.service, lang: () => session.lang });
  registerConformance(connection, { lang: () => session.lang, model: (uri) => docs.openModel(uri), roots: ctx.rootPaths });
  registerProve(connection, documents, { lang: () => session.lang, model: (uri) => docs.openModel(uri), docsFolder: ctx.docsFolder });
  registerOutline(ctx, docs);
  registerCodeActions(ctx, docs);
  registerSettled(connection, ctx.pending);

  documents.listen(connection);
  connection.listen();
}
