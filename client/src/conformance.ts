/**
 * **Check against production traces** (docs/conformance.md, "In the editor"): the open contract
 * graded by the server against a trace file or folder (`agentsMd.conformance.traces`, else picked);
 * a code lens per clause with its grade and verdict, and the violated clauses in the Problems panel
 * under their own source, each run and span as related information. While the user edits, the
 * server places the kept grades on the new text; the traces are read again only on the command.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node.js';
import { CONFORMANCE, type ConformanceViewResult } from '../../server/src/lsp/customRequests.ts';

/** Typing must pause this long before the kept grades are placed on the new text (ms). */
const PLACE_DELAY_MS = 300;

/** The configured traces path, resolved against the contract's workspace folder. */
function configuredTraces(doc: vscode.Uri): vscode.Uri | undefined {
  const value = vscode.workspace.getConfiguration('agentsMd', doc).get<string>('conformance.traces')?.trim();
  if (!value) return undefined;
  const folder = vscode.workspace.getWorkspaceFolder(doc)?.uri;
  return /^(?:\/|[A-Za-z]:[\\/])/.test(value) || !folder ? vscode.Uri.file(value) : vscode.Uri.joinPath(folder, value);
}

async function pickTraces(): Promise<vscode.Uri | undefined> {
  const [picked] =
    (await vscode.window.showOpenDialog({ canSelectFiles: true, canSelectFolders: true, canSelectMany: false, openLabel: vscode.l10n.t('Check against these traces'), filters: { Traces: ['json', 'jsonl', 'ndjson'] } })) ?? [];
  return picked;
}

export function registerConformance(context: vscode.ExtensionContext, client: () => Promise<LanguageClient>): void {
  const diagnostics = vscode.languages.createDiagnosticCollection('agents-md conformance');
  const results = new Map<string, ConformanceViewResult>();
  const lensesChanged = new vscode.EventEmitter<void>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  let running: LanguageClient | undefined;

  const show = (uri: vscode.Uri, r: ConformanceViewResult | null) => {
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
  const check = async (resource?: vscode.Uri) => {
    const uri = resource instanceof vscode.Uri ? resource : vscode.window.activeTextEditor?.document.uri;
    if (!uri) return;
    const traces = configuredTraces(uri) ?? (await pickTraces());
    if (!traces) return;
    const c = (running = await client());
    const title = vscode.l10n.t('Grading the contract against {0}…', vscode.workspace.asRelativePath(traces));
    try {
      const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_, token) =>
        c.sendRequest<ConformanceViewResult | null>(CONFORMANCE, { uri: uri.toString(), traces: traces.toString() }, token),
      );
      show(uri, r);
      if (r) void vscode.window.showInformationMessage(r.summary);
    } catch (e) {
      if (!(e instanceof vscode.CancellationError)) void vscode.window.showErrorMessage((e as Error).message);
    }
  };

  /** After an edit, the kept grades placed on the new text (no traces read). */
  const place = (doc: vscode.TextDocument) => {
    const key = doc.uri.toString();
    if (!results.has(key) || !running) return;
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        void running!.sendRequest<ConformanceViewResult | null>(CONFORMANCE, { uri: key }).then((r) => show(doc.uri, r), () => undefined);
      }, PLACE_DELAY_MS),
    );
  };

  const lenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: lensesChanged.event,
    provideCodeLenses: (doc) =>
      (results.get(doc.uri.toString())?.clauses ?? []).map(
        (c) =>
          new vscode.CodeLens(running!.protocol2CodeConverter.asRange(c.range), {
            title: c.lens,
            tooltip: c.detail ? `${c.label}: ${c.detail}` : c.label,
            command: c.grade === 'violated' ? 'workbench.actions.view.problems' : '',
          }),
      ),
  };

  context.subscriptions.push(
    diagnostics,
    lensesChanged,
    vscode.commands.registerCommand('agentsMd.checkConformance', check),
    vscode.languages.registerCodeLensProvider({ language: 'markdown' }, lenses),
    vscode.workspace.onDidChangeTextDocument((e) => (e.contentChanges.length > 0 ? place(e.document) : undefined)),
    vscode.workspace.onDidCloseTextDocument((d) => (results.has(d.uri.toString()) ? show(d.uri, null) : undefined)),
  );
}
