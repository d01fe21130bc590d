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

/** Typing must pause this long before the kept findings are placed on the new text (ms). */
const PLACE_DELAY_MS = 300;

export function registerProve(context: vscode.ExtensionContext, client: () => Promise<LanguageClient>, isContract: (doc: vscode.TextDocument) => Promise<boolean>): void {
  const diagnostics = vscode.languages.createDiagnosticCollection('agents-md prove');
  const results = new Map<string, ProveViewResult>();
  const lensesChanged = new vscode.EventEmitter<void>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  let running: LanguageClient | undefined;

  const show = (uri: vscode.Uri, r: ProveViewResult | null) => {
    const key = uri.toString();
    if (!r) {
      results.delete(key);
      diagnostics.delete(uri);
    } else {
      results.set(key, r);
      diagnostics.set(uri, r.diagnostics.map((d) => running!.protocol2CodeConverter.asDiagnostic(d)));
    }
    lensesChanged.fire();
  };

  /** Proves `uri`; `quiet` (on save) shows its progress in the status bar and no message. */
  const prove = async (uri: vscode.Uri, quiet: boolean) => {
    const c = (running = await client());
    const title = vscode.l10n.t('Proving {0}…', vscode.workspace.asRelativePath(uri));
    try {
      const location = quiet ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification;
      const r = await vscode.window.withProgress({ location, title, cancellable: !quiet }, (_, token) => c.sendRequest<ProveViewResult | null>(PROVE, { uri: uri.toString(), run: true }, token));
      show(uri, r);
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

  /** After an edit, the kept findings placed on the new text (nothing proved). */
  const place = (doc: vscode.TextDocument) => {
    const key = doc.uri.toString();
    if (!results.has(key) || !running) return;
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        void running!.sendRequest<ProveViewResult | null>(PROVE, { uri: key }).then((r) => show(doc.uri, r), () => undefined);
      }, PLACE_DELAY_MS),
    );
  };

  const lenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: lensesChanged.event,
    provideCodeLenses: async (doc) => {
      if (!(await isContract(doc))) return [];
      const r = results.get(doc.uri.toString());
      // The summary is a sentence: its full stop does not belong inside the lens's parentheses.
      const title = r ? vscode.l10n.t('Prove again ({0})', r.summary.replace(/[.。]$/u, '')) : vscode.l10n.t('Prove this contract');
      return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title, tooltip: vscode.l10n.t('Search for inputs that get past a gate or a guard (docs/prove.md)'), command: 'agentsMd.prove', arguments: [doc.uri] })];
    },
  };

  context.subscriptions.push(
    diagnostics,
    lensesChanged,
    vscode.commands.registerCommand('agentsMd.prove', command),
    vscode.languages.registerCodeLensProvider({ language: 'markdown' }, lenses),
    vscode.workspace.onDidChangeTextDocument((e) => (e.contentChanges.length > 0 ? place(e.document) : undefined)),
    vscode.workspace.onDidSaveTextDocument((d) => (results.has(d.uri.toString()) ? void prove(d.uri, true) : undefined)),
    vscode.workspace.onDidCloseTextDocument((d) => (results.has(d.uri.toString()) ? show(d.uri, null) : undefined)),
  );
}
