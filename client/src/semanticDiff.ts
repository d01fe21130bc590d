/**
 * **Show semantic diff**: the contract against HEAD, the index, another git ref or another file,
 * computed by the server; the changes grouped by section and impact in a tree view, each linking
 * to both sides, and VS Code's text diff one click away.
 */
import * as vscode from 'vscode';
import { contractFor } from './contractFor.ts';
import { tickStep } from './walkthrough.ts';
import type { LanguageClient } from 'vscode-languageclient/node.js';
import { REVISION_TEXT, SEMANTIC_DIFF, type DiffAgainst, type RevisionTextResult, type SemanticDiffResult, type ViewNode } from '../../server/src/lsp/customRequests.ts';
import { NodeTreeProvider, revealLocation } from './views/nodeTree.ts';

/** The scheme of a contract's text at a git ref or in the index, served by the language server. */
export const REVISION_SCHEME = 'agents-md-rev';

interface AgainstPick extends vscode.QuickPickItem {
  readonly choose: () => Promise<DiffAgainst | undefined>;
}

/** The argument of a command run from the editor title, the explorer or the source control view. */
type Resource = vscode.Uri | { readonly resourceUri: vscode.Uri } | undefined;

export function registerSemanticDiff(context: vscode.ExtensionContext, client: () => Promise<LanguageClient>): void {
  const tree = new NodeTreeProvider();
  const view = vscode.window.createTreeView('agentsMd.diff', { treeDataProvider: tree, showCollapseAll: true });
  let last: { before: vscode.Uri; after: vscode.Uri } | undefined;
  let summary = '';
  // A row is cut at side-bar width: the selected row's whole sentence shows, wrapped, under the summary.
  const selected = view.onDidChangeSelection(({ selection: [node] }) => {
    view.message = node ? `${summary}\n\n${node.label}${node.description ? ` (${node.description})` : ''}` : summary;
  });

  const pickFile = async (): Promise<DiffAgainst | undefined> => {
    const [file] = (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { Markdown: ['md'] } })) ?? [];
    return file ? { kind: 'file', uri: file.toString() } : undefined;
  };

  const pickAgainst = async (): Promise<DiffAgainst | undefined> => {
    const picks: AgainstPick[] = [
      { label: 'HEAD', description: vscode.l10n.t('the last commit'), choose: async () => ({ kind: 'ref', ref: 'HEAD' }) },
      { label: vscode.l10n.t('Staged version'), description: vscode.l10n.t('the git index'), choose: async () => ({ kind: 'index' }) },
      {
        label: vscode.l10n.t('Another git ref…'),
        description: vscode.l10n.t('a branch, tag or commit'),
        choose: async () => {
          const ref = await vscode.window.showInputBox({ prompt: vscode.l10n.t('Compare with which git ref?'), value: 'HEAD~1' });
          return ref ? { kind: 'ref', ref } : undefined;
        },
      },
      { label: vscode.l10n.t('Another file…'), choose: pickFile },
    ];
    const picked = await vscode.window.showQuickPick(picks, { placeHolder: vscode.l10n.t('Compare the contract with…') });
    return picked?.choose();
  };

  // VS Code passes menus' own second argument on (the editor group from the editor title, the
  // selected files from the Explorer): only a comparison this extension made is taken as one.
  const show = async (resource?: Resource, second?: unknown) => {
    const againstArg = isDiffAgainst(second) ? second : undefined;
    // From a view, the walkthrough or the palette with no contract editor active, the contract is
    // found as New Snapshot finds it (one shown or in the workspace, else asked).
    const uri = await contractFor(
      resource instanceof vscode.Uri ? resource : resource?.resourceUri,
      { title: vscode.l10n.t('Show Semantic Diff'), placeHolder: vscode.l10n.t('Which contract to compare?') },
      vscode.l10n.t('No contract in this workspace yet: write one with New AGENTS.md Contract, then compare its versions.'),
    );
    if (!uri) return;
    const against = againstArg ?? (await pickAgainst());
    if (!against) return;
    const c = await client();
    let result: SemanticDiffResult;
    try {
      result = await c.sendRequest<SemanticDiffResult>(SEMANTIC_DIFF, { uri: uri.toString(), against });
    } catch (e) {
      // The server says why (not a git repository, an unknown ref, an unreadable file); a file
      // needs no git, so it is offered right there.
      const another = vscode.l10n.t('Another file…');
      const choice = await vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e), another);
      const file = choice === another ? await pickFile() : undefined;
      if (file) await show(uri, file);
      return;
    }
    tree.set(result.tree);
    summary = result.summary;
    view.message = summary;
    // Ticked when the view is filled, not by `onCommand:` (it ticked when the picker opened, even if the diff then failed).
    void tickStep('semanticDiff');
    last = { before: vscode.Uri.parse(result.beforeUri), after: uri };
    await vscode.commands.executeCommand('agentsMd.diff.focus');
  };

  context.subscriptions.push(
    tree,
    view,
    selected,
    vscode.workspace.registerTextDocumentContentProvider(REVISION_SCHEME, {
      provideTextDocumentContent: async (uri) => (await (await client()).sendRequest<RevisionTextResult>(REVISION_TEXT, { uri: uri.toString() })).text,
    }),
    vscode.commands.registerCommand('agentsMd.showSemanticDiff', show),
    vscode.commands.registerCommand('agentsMd.openTextDiff', async () => {
      if (!last) return;
      const title = vscode.l10n.t('{0} (before ↔ after)', last.after.path.split('/').pop() ?? '');
      await vscode.commands.executeCommand('vscode.diff', last.before, last.after, title);
    }),
    vscode.commands.registerCommand('agentsMd.revealBefore', (node: ViewNode) => revealLocation(node.otherLocation)),
  );
}

/** A comparison as `show` passes it to itself (Another file… after an error), not a menu's argument. */
function isDiffAgainst(x: unknown): x is DiffAgainst {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
  const a = x as Record<string, unknown>;
  return (a['kind'] === 'ref' && typeof a['ref'] === 'string') || (a['kind'] === 'file' && typeof a['uri'] === 'string') || a['kind'] === 'index';
}
