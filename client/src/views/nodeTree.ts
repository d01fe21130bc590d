/**
 * One generic tree view over `ViewNode` trees computed by the language server (the trace view and
 * the semantic diff view). The client adds no contract logic: icons by node kind, a click reveals
 * the node's location, a context command reveals its other location.
 */
import * as vscode from 'vscode';
import type { ViewLocation, ViewNode, ViewNodeKind } from '../../../server/src/lsp/customRequests.ts';

const ICONS: Record<ViewNodeKind, [string, string | undefined]> = {
  group: ['folder', undefined],
  ok: ['pass', 'testing.iconPassed'],
  error: ['error', 'errorForeground'],
  warning: ['warning', 'editorWarning.foreground'],
  info: ['info', 'editorInfo.foreground'],
  pending: ['loading~spin', undefined],
  paused: ['debug-pause', 'editorWarning.foreground'],
  added: ['diff-added', 'gitDecoration.addedResourceForeground'],
  removed: ['diff-removed', 'gitDecoration.deletedResourceForeground'],
  changed: ['diff-modified', 'gitDecoration.modifiedResourceForeground'],
  renamed: ['diff-renamed', 'gitDecoration.renamedResourceForeground'],
};

/** The command a click runs: opens `location` and selects its range. */
export const REVEAL_COMMAND = 'agentsMd.revealLocation';

/**
 * Opens a document at a range (a `ViewLocation` from the server), selected with the cursor at its
 * start: the status bar then names the clause's own line, not the line after a multi-line clause.
 * `viewColumn` keeps a webview open beside the contract (the run view).
 */
export async function revealLocation(location: ViewLocation | undefined, viewColumn?: vscode.ViewColumn): Promise<void> {
  if (!location) return;
  const r = location.range;
  const range = new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
  const editor = await vscode.window.showTextDocument(vscode.Uri.parse(location.uri), { selection: range, preserveFocus: false, ...(viewColumn ? { viewColumn } : {}) });
  editor.selection = new vscode.Selection(range.end, range.start);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/** A tree data provider over a replaceable `ViewNode[]`. */
export class NodeTreeProvider implements vscode.TreeDataProvider<ViewNode>, vscode.Disposable {
  private roots: readonly ViewNode[] = [];
  private readonly parents = new Map<ViewNode, ViewNode>();
  private readonly changed = new vscode.EventEmitter<ViewNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  /** Replaces the whole tree. */
  set(roots: readonly ViewNode[]): void {
    this.roots = roots;
    this.parents.clear();
    const walk = (n: ViewNode) => n.children?.forEach((c) => (this.parents.set(c, n), walk(c)));
    roots.forEach(walk);
    this.changed.fire(undefined);
  }

  get nodes(): readonly ViewNode[] {
    return this.roots;
  }

  getChildren(node?: ViewNode): ViewNode[] {
    return [...(node ? (node.children ?? []) : this.roots)];
  }

  getParent(node: ViewNode): ViewNode | undefined {
    return this.parents.get(node);
  }

  getTreeItem(node: ViewNode): vscode.TreeItem {
    const state = !node.children?.length
      ? vscode.TreeItemCollapsibleState.None
      : node.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(node.label, state);
    item.id = node.id;
    if (node.description) item.description = node.description;
    if (node.tooltip) item.tooltip = new vscode.MarkdownString(node.tooltip);
    const [icon, color] = ICONS[node.kind];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    item.contextValue = node.otherLocation ? `agentsMd.${node.kind}.twoSided` : `agentsMd.${node.kind}`;
    if (node.location) item.command = { command: REVEAL_COMMAND, title: '', arguments: [node.location] };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
