/**
 * The VS Code client: starts the AGENTS.md contract language server when a contract is opened
 * and adds what only the editor can show (a status bar item and commands). Everything about
 * contracts is computed by the server.
 */
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions, type DocumentSelector } from 'vscode-languageclient/node.js';
import { SERVER_EXEC_ARGV } from '../../server/src/lsp/execArgv.ts';
import { StatusItem } from './statusItem.ts';
import { contractSelector, isContract } from './contractFiles.ts';
import { registerHumanDecisions, registerRunAgent } from './runAgent.ts';
import { registerSemanticDiff } from './semanticDiff.ts';
import { registerScaffold } from './scaffold.ts';
import { registerConformance } from './conformance.ts';
import { registerProve } from './prove.ts';
import { registerContractsOverview } from './views/contractsView.ts';
import { registerRuleDocs, type DocLinks } from './ruleDocs.ts';
import { REVEAL_COMMAND, revealLocation } from './views/nodeTree.ts';
import { DOCUMENT_KIND, type DocumentKindResult } from '../../server/src/lsp/customRequests.ts';

let client: LanguageClient | undefined;
let starting: Promise<void> | undefined;

/** The server's answer to "is this a contract?" per document version: a free-form AGENTS.md is not. */
const kinds = new Map<string, { version: number; kind: Promise<DocumentKindResult['kind']> }>();

/** Dry-run snapshots (docs/dry-run.md): the server checks them too. */
const SNAPSHOTS: DocumentSelector = [{ pattern: '**/*.snapshot.{yaml,yml,json}' }];

async function start(context: vscode.ExtensionContext, status: StatusItem, links: DocLinks): Promise<void> {
  const module = context.asAbsolutePath('dist/server.cjs');
  // Over stdio, where the server writes each diagnostic's bytes once (lsp/messageEncoding.ts):
  // over Node IPC every keystroke encoded the document's whole report again.
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.stdio, options: { execArgv: [...SERVER_EXEC_ARGV] } },
    debug: { module, transport: TransportKind.stdio, options: { execArgv: [...SERVER_EXEC_ARGV, '--nolazy', '--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [...contractSelector(), ...SNAPSHOTS],
    synchronize: { configurationSection: 'agentsMd' },
    // A save changes nothing the server has not seen already (docs/vscode.md, "Diagnostics").
    diagnosticPullOptions: { onChange: true, onSave: false },
    // VS Code's Markdown outline already lists the headings; a second group made the outline
    // and breadcrumbs show both and flip between them (docs/vscode.md, "Outline").
    middleware: {
      provideDocumentSymbols: () => [],
      // VS Code's Markdown extension lists the heading under the cursor as a reference of itself,
      // so our declaration on that heading made its line appear twice (docs/vscode.md, "References").
      provideReferences: async (document, position, options, token, next) => {
        const found = await next(document, position, options, token);
        if (!found || !options.includeDeclaration || !/^#{1,6}\s/.test(document.lineAt(position.line).text)) return found;
        return found.filter((l) => !(l.uri.toString() === document.uri.toString() && l.range.start.line === position.line));
      },
      // The language client answers a pull it cancelled itself (a newer edit came) with an empty
      // report and shows it until the next pull returns: the Problems panel blinked empty while
      // typing. A cancelled pull is reported as cancelled instead, so the client keeps what it
      // shows and pulls again (docs/vscode.md, "Diagnostics").
      provideDiagnostics: async (document, previousResultId, token, next) => {
        const report = await next(document, previousResultId, token);
        if (token.isCancellationRequested) throw new vscode.CancellationError();
        // A rule code opens that rule's text, rendered (docs/vscode.md, "Rule documentation").
        for (const d of (report as { items?: vscode.Diagnostic[] } | undefined)?.items ?? []) {
          if (typeof d.code === 'object' && d.source === 'agents-md') d.code = { value: d.code.value, target: links.rule(String(d.code.value)) };
        }
        return report;
      },
      provideHover: async (document, position, token, next) => {
        const hover = await next(document, position, token);
        if (!hover) return hover;
        return new vscode.Hover(hover.contents.map((c) => (c instanceof vscode.MarkdownString ? links.hover(c.value) : c)), hover.range);
      },
    },
  };
  client = new LanguageClient('agentsMd', vscode.l10n.t('AGENTS.md Contracts'), serverOptions, clientOptions);
  await client.start();
  context.subscriptions.push(registerHumanDecisions(client));
  status.setRunning(true);
}

export function activate(context: vscode.ExtensionContext): void {
  const status = new StatusItem();
  context.subscriptions.push(status);
  const startServer = () => {
    if (!client && !starting) starting = start(context, status, links).finally(() => (starting = undefined));
  };
  /** The running client; commands that need the server start it. */
  const running = async (): Promise<LanguageClient> => {
    startServer();
    await starting;
    return client!;
  };
  const links = registerRuleDocs(context, running);
  const contractKind = async (doc: vscode.TextDocument): Promise<boolean> => {
    if (!isContract(doc)) return false;
    const key = doc.uri.toString();
    let cached = kinds.get(key);
    if (cached?.version !== doc.version) {
      cached = { version: doc.version, kind: running().then((c) => c.sendRequest<DocumentKindResult>(DOCUMENT_KIND, { uri: key })).then((r) => r.kind) };
      kinds.set(key, cached);
    }
    return (await cached.kind) !== 'freeform';
  };
  const updateStatus = () => void status.update(vscode.window.activeTextEditor?.document, contractKind);
  // Start the server once a contract is open, or when the workspace holds one (the Problems view
  // lists every contract's problems, opened or not: docs/workspace.md); activation by any other
  // Markdown file costs nothing.
  const maybeStart = (doc: vscode.TextDocument | undefined) => {
    if (doc && (isContract(doc) || vscode.languages.match(SNAPSHOTS, doc) > 0)) startServer();
    updateStatus();
  };
  vscode.workspace.textDocuments.forEach(maybeStart);
  void vscode.workspace.findFiles('**/{AGENTS.md,*.agents.md}', '**/node_modules/**', 1).then((found) => (found.length > 0 ? startServer() : undefined));
  registerRunAgent(context, running);
  registerSemanticDiff(context, running);
  registerScaffold(context, running);
  registerConformance(context, running);
  registerProve(context, running, contractKind);
  registerContractsOverview(context, running, isContract);
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument(maybeStart),
    vscode.window.onDidChangeActiveTextEditor((e) => maybeStart(e?.document)),
    vscode.languages.onDidChangeDiagnostics(updateStatus),
    vscode.workspace.onDidCloseTextDocument((d) => kinds.delete(d.uri.toString())),
    vscode.commands.registerCommand('agentsMd.restartServer', async () => {
      if (client) await client.restart();
      else maybeStart(vscode.window.activeTextEditor?.document);
    }),
    // A click on a row of the Agent Run or Semantic Diff view.
    vscode.commands.registerCommand(REVEAL_COMMAND, revealLocation),
    vscode.commands.registerCommand('agentsMd.showOutput', () => client?.outputChannel.show()),
    vscode.commands.registerCommand('agentsMd.showProblems', () => vscode.commands.executeCommand('workbench.actions.view.problems')),
  );
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
