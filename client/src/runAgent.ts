/**
 * The **▶ Run agent** command behind the server's code lens: pick a snapshot (and a query), run the
 * dry run in the server off the typing path with a cancellable progress notification, show the
 * trace tree as it grows, and answer HUMAN_IN_THE_LOOP pauses with Approve / Reject.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node.js';
import {
  HUMAN_DECISION, LIST_SNAPSHOTS, RUN_AGENT, RUN_PROGRESS,
  type HumanDecisionParams, type HumanDecisionResult, type ListSnapshotsResult, type RunAgentParams, type RunAgentResult, type RunProgressParams,
} from '../../server/src/lsp/customRequests.ts';
import { NodeTreeProvider, revealLocation } from './views/nodeTree.ts';

/** Where the model endpoint's API key is kept (VS Code secret storage, never settings). */
export const API_KEY_SECRET = 'agentsMd.model.apiKey';

interface RunPick extends vscode.QuickPickItem {
  readonly snapshotUri: string;
  readonly queryId?: string;
}

/** The trace view and its commands. `client` starts the server when needed. */
export function registerRunAgent(context: vscode.ExtensionContext, client: () => Promise<LanguageClient>): void {
  const tree = new NodeTreeProvider();
  const view = vscode.window.createTreeView('agentsMd.trace', { treeDataProvider: tree, showCollapseAll: true });
  let runs = 0;

  const run = async (uriArg?: string) => {
    const uri = uriArg ?? vscode.window.activeTextEditor?.document.uri.toString();
    if (!uri) return;
    const c = await client();
    const { snapshots } = await c.sendRequest<ListSnapshotsResult>(LIST_SNAPSHOTS, { uri });
    if (snapshots.length === 0) {
      void vscode.window.showWarningMessage(vscode.l10n.t('No snapshot found for this contract. See docs/dry-run.md for where snapshots are looked for.'));
      return;
    }
    const picks: (RunPick | vscode.QuickPickItem)[] = [];
    for (const s of snapshots) {
      picks.push({ label: s.label, kind: vscode.QuickPickItemKind.Separator });
      if (s.problem) {
        picks.push({ label: `$(error) ${s.label}`, detail: s.problem, snapshotUri: s.uri });
        continue;
      }
      picks.push({ label: vscode.l10n.t('$(run-all) All queries'), description: s.label, snapshotUri: s.uri });
      for (const q of s.queries) picks.push({ label: `$(play) ${q.label}`, description: q.id, snapshotUri: s.uri, queryId: q.id });
    }
    const picked = (await vscode.window.showQuickPick(picks, { placeHolder: vscode.l10n.t('Run the agent on which snapshot query?'), matchOnDescription: true, matchOnDetail: true })) as RunPick | undefined;
    if (!picked?.snapshotUri) return;
    const trusted = vscode.workspace.isTrusted;
    const apiKey = trusted ? await context.secrets.get(API_KEY_SECRET) : undefined;
    const runId = `run-${Date.now()}-${++runs}`;
    const params: RunAgentParams = { uri, snapshotUri: picked.snapshotUri, runId, trusted, ...(picked.queryId ? { queryId: picked.queryId } : {}), ...(apiKey ? { apiKey } : {}) };
    await vscode.commands.executeCommand('agentsMd.trace.focus');
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Running the agent'), cancellable: true },
      async (progress, token) => {
        const sub = c.onNotification(RUN_PROGRESS, (p: RunProgressParams) => {
          if (p.runId !== runId) return;
          tree.set(p.tree);
          progress.report({ message: p.message });
        });
        try {
          return await c.sendRequest<RunAgentResult>(RUN_AGENT, params, token);
        } catch (e) {
          if (token.isCancellationRequested) return undefined;
          throw e;
        } finally {
          sub.dispose();
        }
      },
    );
    if (!result) {
      view.message = vscode.l10n.t('Run cancelled.');
      return;
    }
    tree.set(result.tree);
    view.message = result.summary;
    const show = result.ok ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    void show(result.summary);
  };

  context.subscriptions.push(
    tree,
    view,
    vscode.commands.registerCommand('agentsMd.runAgent', run),
    vscode.commands.registerCommand('agentsMd.setModelApiKey', async () => {
      const key = await vscode.window.showInputBox({ password: true, prompt: vscode.l10n.t('API key of the model endpoint used by dry runs (kept in VS Code secret storage)') });
      if (key) await context.secrets.store(API_KEY_SECRET, key);
    }),
    vscode.commands.registerCommand('agentsMd.clearModelApiKey', () => context.secrets.delete(API_KEY_SECRET)),
  );
}

/** Answers the server's HUMAN_IN_THE_LOOP pauses. A dismissed question counts as a rejection. */
export function registerHumanDecisions(c: LanguageClient): vscode.Disposable {
  return c.onRequest(HUMAN_DECISION, async (p: HumanDecisionParams): Promise<HumanDecisionResult> => {
    if (p.location) await revealLocation(p.location);
    const approve = vscode.l10n.t('Approve');
    const reject = vscode.l10n.t('Reject');
    const choice = await vscode.window.showWarningMessage(p.message, approve, reject);
    return { decision: choice === approve ? 'approve' : 'reject' };
  });
}
