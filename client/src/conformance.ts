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
import { keptResults } from './keptResults.ts';

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
  // Placing the kept grades on the new text reads no trace: only the command reads them again.
  const kept = keptResults<ConformanceViewResult>(context, 'agents-md conformance', (c, uri) => c.sendRequest<ConformanceViewResult | null>(CONFORMANCE, { uri }));
  const check = async (resource?: vscode.Uri) => {
    const uri = resource instanceof vscode.Uri ? resource : vscode.window.activeTextEditor?.document.uri;
    if (!uri) return;
    const traces = configuredTraces(uri) ?? (await pickTraces());
    if (!traces) return;
    const c = (kept.client = await client());
    const title = vscode.l10n.t('Grading the contract against {0}…', vscode.workspace.asRelativePath(traces));
    try {
      const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_, token) =>
        c.sendRequest<ConformanceViewResult | null>(CONFORMANCE, { uri: uri.toString(), traces: traces.toString() }, token),
      );
      kept.show(uri, r);
      if (r) void vscode.window.showInformationMessage(r.summary);
    } catch (e) {
      if (!(e instanceof vscode.CancellationError)) void vscode.window.showErrorMessage((e as Error).message);
    }
  };

  const lenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: kept.changed,
    provideCodeLenses: (doc) =>
      (kept.get(doc.uri)?.clauses ?? []).map(
        (c) =>
          new vscode.CodeLens(kept.client!.protocol2CodeConverter.asRange(c.range), {
            title: c.lens,
            tooltip: c.detail ? `${c.label}: ${c.detail}` : c.label,
            command: c.grade === 'violated' ? 'workbench.actions.view.problems' : '',
          }),
      ),
  };

  context.subscriptions.push(vscode.commands.registerCommand('agentsMd.checkConformance', check), vscode.languages.registerCodeLensProvider({ language: 'markdown' }, lenses));
}
