/**
 * A way in (docs/vscode.md, "Getting started"): "New AGENTS.md contract" asks for the agent's name
 * and kind and writes the server's skeleton; "New snapshot for this contract" writes a snapshot
 * skeleton under `snapshots/` beside the contract. The server writes the texts; this writes files.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node.js';
import { tickStep as tick } from './walkthrough.ts';
import { contractFor } from './contractFor.ts';
import { NEW_CONTRACT, NEW_SNAPSHOT, type NewContractParams, type NewContractResult, type NewSnapshotParams, type NewSnapshotResult } from '../../server/src/lsp/customRequests.ts';

interface KindPick extends vscode.QuickPickItem {
  readonly agentKind: NewContractParams['kind'];
}

const exists = (uri: vscode.Uri) => vscode.workspace.fs.stat(uri).then(() => true, () => false);

/** The first of `candidates` that does not exist yet. */
async function freeUri(candidates: readonly vscode.Uri[]): Promise<vscode.Uri | undefined> {
  for (const c of candidates) if (!(await exists(c))) return c;
  return undefined;
}

/** Writes and opens the file as a normal (not preview) editor: the next file opened does not replace it. */
async function writeAndOpen(uri: vscode.Uri, text: string): Promise<void> {
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
}

/** The contract a new snapshot is for (the walkthrough's page is the active editor when its button is pressed). */
async function contractDocFor(arg: vscode.Uri | undefined): Promise<vscode.TextDocument | undefined> {
  const uri = await contractFor(
    arg,
    { title: vscode.l10n.t('New Snapshot for This Contract'), placeHolder: vscode.l10n.t('Which contract is the snapshot for?') },
    vscode.l10n.t('No contract in this workspace yet: write one with New AGENTS.md Contract, then make its snapshot.'),
  );
  return uri ? vscode.workspace.openTextDocument(uri) : undefined;
}

export function registerScaffold(context: vscode.ExtensionContext, client: () => Promise<LanguageClient>): void {
  const newContract = async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Open a folder first: the new contract is written into it.'));
      return;
    }
    const name = await vscode.window.showInputBox({
      title: vscode.l10n.t('New AGENTS.md contract'),
      prompt: vscode.l10n.t('The agent\'s name'),
      placeHolder: 'order_helper',
      // A two-step flow started from the walkthrough: a toast or the walkthrough taking focus must not close it.
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Give the agent a name.')),
    });
    if (!name) return;
    const kinds: KindPick[] = [
      { agentKind: 'read-only', label: vscode.l10n.t('Read-only'), detail: vscode.l10n.t('Answers from its memory and reads with tools; changes nothing.') },
      { agentKind: 'acting', label: vscode.l10n.t('Acting'), detail: vscode.l10n.t('Also changes something, after a human approved it.') },
    ];
    const kind = await vscode.window.showQuickPick(kinds, { title: vscode.l10n.t('New AGENTS.md contract'), placeHolder: vscode.l10n.t('What may the agent do?'), ignoreFocusOut: true });
    if (!kind) return;
    const r = await (await client()).sendRequest<NewContractResult>(NEW_CONTRACT, { name, kind: kind.agentKind } satisfies NewContractParams);
    const target = await freeUri([vscode.Uri.joinPath(folder.uri, 'AGENTS.md'), vscode.Uri.joinPath(folder.uri, r.name, 'AGENTS.md')]);
    if (!target) {
      void vscode.window.showWarningMessage(vscode.l10n.t('{0} exists already; nothing was written.', vscode.workspace.asRelativePath(vscode.Uri.joinPath(folder.uri, r.name, 'AGENTS.md'))));
      return;
    }
    await writeAndOpen(target, r.text);
    await tick('newContract');
  };

  const newSnapshot = async (arg?: vscode.Uri) => {
    const doc = await contractDocFor(arg);
    if (!doc) return;
    const r = await (await client()).sendRequest<NewSnapshotResult>(NEW_SNAPSHOT, { uri: doc.uri.toString(), text: doc.getText() } satisfies NewSnapshotParams);
    const dir = vscode.Uri.joinPath(doc.uri, '..', 'snapshots');
    const target = await freeUri(Array.from({ length: 50 }, (_, i) => vscode.Uri.joinPath(dir, `${i === 0 ? 'first' : `snapshot-${i + 1}`}.snapshot.yaml`)));
    if (!target) return;
    await writeAndOpen(target, r.text);
    await tick('newSnapshot');
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('agentsMd.newContract', newContract),
    vscode.commands.registerCommand('agentsMd.newSnapshot', newSnapshot),
  );
}
