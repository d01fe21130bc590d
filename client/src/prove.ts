/**
 * **Prove this contract** (docs/prove.md, "In the editor"): the command and a code lens on every
 * contract ask the server to prove the open contract, with a progress notification; the findings
 * go to the Problems panel under their own source (`agents-md prove`), each witness as related
 * information. A contract proved once is proved again on save (progress in the status bar), never
 * per keystroke; while the user types, the server moves the kept findings with their clauses.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node.js';
import { PROVE, type ProveViewResult } from '../../server/src/lsp/customRequests.ts';
import { keptResults } from './keptResults.ts';

export function registerProve(context: vscode.ExtensionContext, client: () => Promise<LanguageClient>, isContract: (doc: vscode.TextDocument) => Promise<boolean>): void {
  const kept = keptResults<ProveViewResult>(context, 'agents-md prove', (c, uri) => c.sendRequest<ProveViewResult | null>(PROVE, { uri }));

  /** Proves `uri`; `quiet` (on save) shows its progress in the status bar and no message. */
  const prove = async (uri: vscode.Uri, quiet: boolean) => {
    const c = (kept.client = await client());
    const title = vscode.l10n.t('Proving {0}…', vscode.workspace.asRelativePath(uri));
    try {
      const location = quiet ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification;
      const r = await vscode.window.withProgress({ location, title, cancellable: !quiet }, (_, token) => c.sendRequest<ProveViewResult | null>(PROVE, { uri: uri.toString(), run: true }, token));
      kept.show(uri, r);
      if (r && !quiet) void vscode.window.showInformationMessage(r.summary);
    } catch (e) {
      if (!(e instanceof vscode.CancellationError)) void vscode.window.showErrorMessage((e as Error).message);
    }
  };
  const command = async (resource?: vscode.Uri) => {
    const uri = resource instanceof vscode.Uri ? resource : vscode.window.activeTextEditor?.document.uri;
    if (!uri) return;
    // The server proves what it has open: the text as the editor shows it.
    await vscode.workspace.openTextDocument(uri);
    await prove(uri, false);
  };

  const lenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: kept.changed,
    provideCodeLenses: async (doc) => {
      if (!(await isContract(doc))) return [];
      const r = kept.get(doc.uri);
      // The summary is a sentence: its full stop does not belong inside the lens's parentheses.
      const title = r ? vscode.l10n.t('Prove again ({0})', r.summary.replace(/[.。]$/u, '')) : vscode.l10n.t('Prove this contract');
      return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title, tooltip: vscode.l10n.t('Search for inputs that get past a gate or a guard (docs/prove.md)'), command: 'agentsMd.prove', arguments: [doc.uri] })];
    },
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('agentsMd.prove', command),
    vscode.languages.registerCodeLensProvider({ language: 'markdown' }, lenses),
    vscode.workspace.onDidSaveTextDocument((d) => (kept.get(d.uri) ? void prove(d.uri, true) : undefined)),
  );
}
