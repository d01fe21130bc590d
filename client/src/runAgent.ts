/**
 * The **▶ Run agent** command behind the server's code lens: pick a snapshot (and a query), run the
 * dry run in the server off the typing path with a cancellable progress notification, show the
 * trace tree as it grows, and answer HUMAN_IN_THE_LOOP pauses with Approve / Reject.
 */
import { userInfo } from 'node:os';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node.js';
import {
  HUMAN_DECISION, LIST_SNAPSHOTS, RUN_AGENT, RUN_PROGRESS,
  type HumanDecisionParams, type HumanDecisionResult, type ListSnapshotsResult, type RunAgentParams, type RunAgentResult, type RunProgressParams,
} from '../../server/src/lsp/customRequests.ts';
import { NodeTreeProvider, revealLocation } from './views/nodeTree.ts';
import { RunView } from './views/runView.ts';
import { tickStep } from './walkthrough.ts';
import { contractFor } from './contractFor.ts';

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
  const picture = new RunView(client);
  /** The traces of the last run, for **Show the Run as a Picture**. */
  let lastTraces: readonly string[] = [];
  let runs = 0;

  const run = async (uriArg?: unknown) => {
    // The lens passes its contract; from the walkthrough or the palette with no contract editor
    // active, the contract is found as New Snapshot finds it (one shown or in the workspace, else asked).
    const given = typeof uriArg === 'string' ? vscode.Uri.parse(uriArg) : uriArg instanceof vscode.Uri ? uriArg : undefined;
    const contract = await contractFor(
      given,
      { title: vscode.l10n.t('Run Agent'), placeHolder: vscode.l10n.t('Which contract to run?') },
      vscode.l10n.t('No contract in this workspace yet: write one with New AGENTS.md Contract, then make its snapshot.'),
    );
    if (!contract) return;
    const uri = contract.toString();
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
      // The separator above names the snapshot: the row does not repeat it.
      picks.push({ label: vscode.l10n.t('$(run-all) All queries'), snapshotUri: s.uri });
      // The id first: lenses, traces and the Agent Run view name a query by it.
      for (const q of s.queries) picks.push({ label: `$(play) ${q.id}`, detail: q.about, snapshotUri: s.uri, queryId: q.id });
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
    // Ticked here, not by `onCommand:`: the ▶ Run agent lens runs this command under another id.
    void tickStep('runAgent');
    lastTraces = result.traceUris;
    if (lastTraces[0]) void picture.show(lastTraces[0]).catch((e: Error) => vscode.window.showErrorMessage(e.message));
    const show = result.ok ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    void show(result.summary);
  };

  const showPicture = async (traceUri?: string) => {
    const label = (uri: string) => vscode.workspace.asRelativePath(vscode.Uri.parse(uri));
    const uri = traceUri ?? (lastTraces.length > 1 ? (await vscode.window.showQuickPick(lastTraces.map((u) => ({ label: label(u), uri: u }))))?.uri : lastTraces[0]);
    if (uri) await picture.show(uri);
    else void vscode.window.showInformationMessage(vscode.l10n.t('Run the agent first: the picture shows its last run.'));
  };

  context.subscriptions.push(
    tree,
    view,
    picture,
    vscode.commands.registerCommand('agentsMd.runAgent', run),
    vscode.commands.registerCommand('agentsMd.showRunPicture', showPicture),
    vscode.commands.registerCommand('agentsMd.setModelApiKey', async () => {
      const key = await vscode.window.showInputBox({ password: true, prompt: vscode.l10n.t('API key of the model endpoint used by dry runs (kept in VS Code secret storage)') });
      if (key) await context.secrets.store(API_KEY_SECRET, key);
    }),
    vscode.commands.registerCommand('agentsMd.clearModelApiKey', () => context.secrets.delete(API_KEY_SECRET)),
  );
}

/** The OS user's name; undefined where the OS has none for this process. */
function userName(): string | undefined {
  try {
    return userInfo().username || undefined;
  } catch {
    return undefined;
  }
}

/** The decision the run waits for, while it waits. */
interface Pending {
  readonly params: HumanDecisionParams;
  readonly answer: (decision: HumanDecisionResult['decision']) => void;
}

/**
 * Answers the server's HUMAN_IN_THE_LOOP pauses (docs/vscode.md, "Human decisions"): the question
 * stays in front of the user as a modal dialog; dismissing it decides nothing, the run stays
 * paused, and Approve / Reject / Let It Time Out stay offered in the Agent Run view's title and on its paused row
 * until answered. The answer names who decided, for the trace.
 */
export function registerHumanDecisions(c: LanguageClient): vscode.Disposable {
  const by = userName() ?? vscode.l10n.t('the VS Code user');
  let pending: Pending | undefined;
  const setWaiting = (waiting: boolean) => void vscode.commands.executeCommand('setContext', 'agentsMd.awaitingDecision', waiting);
  const decide = (decision: HumanDecisionResult['decision']) => pending?.answer(decision);
  const ask = async () => {
    const p = pending?.params;
    if (!p) return;
    if (p.location) await revealLocation(p.location);
    const approve = vscode.l10n.t('Approve');
    const reject = vscode.l10n.t('Reject');
    // What a query expecting HUMAN_TIMEOUT needs: nobody answers within the scenario's SLA.
    const timeout = vscode.l10n.t('Let It Time Out');
    const detail = vscode.l10n.t('The dry run waits for your decision. Closing this dialog decides nothing: Approve, Reject and Let It Time Out stay in the Agent Run view.');
    // The first button is the dialog's default (Enter): the safe answer, as VS Code does for a
    // destructive confirmation, so that a key pressed out of habit never approves a safety gate.
    const choice = await vscode.window.showWarningMessage(p.message, { modal: true, detail }, reject, approve, timeout);
    if (choice) decide(choice === approve ? 'approve' : choice === reject ? 'reject' : 'timeout');
  };
  return vscode.Disposable.from(
    c.onRequest(HUMAN_DECISION, (params: HumanDecisionParams, token: vscode.CancellationToken) =>
      new Promise<HumanDecisionResult>((resolve) => {
        const done = () => ((pending = undefined), setWaiting(false));
        pending = { params, answer: (decision) => (done(), resolve({ decision, decidedBy: by })) };
        // A cancelled run no longer waits; its answer is not used.
        token.onCancellationRequested(() => (done(), resolve({ decision: 'reject', decidedBy: by })));
        setWaiting(true);
        void ask();
      }),
    ),
    vscode.commands.registerCommand('agentsMd.approveDecision', () => decide('approve')),
    vscode.commands.registerCommand('agentsMd.rejectDecision', () => decide('reject')),
    vscode.commands.registerCommand('agentsMd.timeoutDecision', () => decide('timeout')),
    vscode.commands.registerCommand('agentsMd.showDecision', ask),
    { dispose: () => setWaiting(false) },
  );
}
