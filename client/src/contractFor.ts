/**
 * The contract a command is for when it was not given one: the active contract editor, else the
 * one contract shown in an editor (focus may be in a view or a webview, such as the Agent Run view
 * or the walkthrough's page), else the workspace's contracts: the only one, or the one the user picks.
 */
import * as vscode from 'vscode';
import { contractGlobs, isContract } from './contractFiles.ts';

interface ContractPick extends vscode.QuickPickItem {
  readonly uri: vscode.Uri;
}

/** `ask`: the picker's title and question when several contracts qualify; `none`: said when none does. */
export async function contractFor(arg: vscode.Uri | undefined, ask: { title: string; placeHolder: string }, none: string): Promise<vscode.Uri | undefined> {
  if (arg) return arg;
  // A README.md or notes open are no contract: the command looks further.
  const active = vscode.window.activeTextEditor?.document;
  if (active && isContract(active)) return active.uri;
  const shown = [...new Set(vscode.window.visibleTextEditors.map((e) => e.document).filter(isContract).map((d) => d.uri.toString()))];
  if (shown.length === 1) return vscode.Uri.parse(shown[0]!);
  // One search per pattern: a user's pattern may hold braces of its own.
  const lists = await Promise.all(contractGlobs().map((g) => vscode.workspace.findFiles(g, '**/node_modules/**', 200)));
  const found = [...new Map(lists.flat().map((u) => [u.toString(), u])).values()].sort((a, b) => a.path.localeCompare(b.path));
  if (found.length === 0) {
    // The way out is a button: taking it closes the message, which otherwise stays after the contract is written.
    const write = vscode.l10n.t('New AGENTS.md Contract');
    void vscode.window.showWarningMessage(none, write).then((choice) => choice === write && vscode.commands.executeCommand('agentsMd.newContract'));
    return undefined;
  }
  if (found.length === 1) return found[0];
  const picks: ContractPick[] = found.map((uri) => ({ uri, label: vscode.workspace.asRelativePath(uri) }));
  return (await vscode.window.showQuickPick(picks, { title: ask.title, placeHolder: ask.placeHolder }))?.uri;
}
