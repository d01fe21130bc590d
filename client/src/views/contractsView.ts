/**
 * The Contracts overview (docs/workspace.md, "In the editor"): a webview of the workspace report,
 * the page the server makes as `agents-md report --format html` makes it, with the editor theme's
 * colours. It is made again when a contract, a snapshot or the configuration changes; a click on
 * a contract or a finding opens that file at that line. Scripts run only with the page's nonce;
 * the webview loads no resource (`localResourceRoots: []`).
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node.js';
import { revealLocation } from './nodeTree.ts';
import { CONTRACTS_OVERVIEW, type ContractsOverviewResult } from '../../../server/src/lsp/customRequests.ts';

/** What the page posts (see the script in server/src/service/report/html.ts); line is 1-based. */
interface PageMessage {
  readonly type: 'open';
  readonly uri: string;
  readonly line: number;
}

/** Files whose change changes the report: contracts, snapshots, resources' pins, the configuration. */
const WATCHED = '**/{*.md,*.snapshot.yaml,*.snapshot.yml,*.snapshot.json,.agents-md.json}';
/** Quiet time after a change before the page is made again (ms). */
const REFRESH_MS = 600;

export class ContractsOverview implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private contracts = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stale = false;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly client: () => Promise<LanguageClient>, isContract: (doc: vscode.TextDocument) => boolean) {
    const watcher = vscode.workspace.createFileSystemWatcher(WATCHED);
    // A folder moved in or deleted is reported alone, not the contracts in it.
    const folders = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    const changed = () => this.changed();
    this.subscriptions = [
      watcher,
      watcher.onDidCreate(changed),
      watcher.onDidChange(changed),
      watcher.onDidDelete(changed),
      folders,
      // Only while the page is open: every file created in the workspace comes here.
      folders.onDidCreate(async (uri) => (this.panel && (await vscode.workspace.fs.stat(uri).then((s) => s.type & vscode.FileType.Directory, () => 0)) ? changed() : undefined)),
      folders.onDidDelete((uri) => (this.holdsContracts(uri) ? changed() : undefined)),
      vscode.workspace.onDidChangeTextDocument((e) => (e.contentChanges.length > 0 && isContract(e.document) ? changed() : undefined)),
    ];
  }

  /** Opens the overview (or brings it to the front) with the workspace as it is now. */
  async show(): Promise<void> {
    const panel = this.panel ?? this.createPanel();
    panel.reveal(undefined, false);
    await this.render();
  }

  private createPanel(): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel('agentsMd.contracts', vscode.l10n.t('Contracts'), vscode.ViewColumn.Active, { enableScripts: true, localResourceRoots: [], retainContextWhenHidden: true });
    panel.onDidDispose(() => ((this.panel = undefined), clearTimeout(this.timer)));
    panel.onDidChangeViewState((e) => (e.webviewPanel.visible && this.stale ? void this.render() : undefined));
    panel.webview.onDidReceiveMessage((m: PageMessage) => void this.open(m));
    this.panel = panel;
    return panel;
  }

  private async render(): Promise<void> {
    this.stale = false;
    const c = await this.client();
    // Every contract is linted: a spinner in the status bar while a large workspace takes seconds.
    const request = () => c.sendRequest<ContractsOverviewResult>(CONTRACTS_OVERVIEW, { nonce: randomBytes(16).toString('base64') });
    const page = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Contracts') }, request);
    if (!this.panel) return;
    this.contracts = new Set(page.contracts);
    this.panel.title = page.title;
    this.panel.webview.html = page.html;
  }

  /** Whether the page shows a contract inside folder `uri`. */
  private holdsContracts(uri: vscode.Uri): boolean {
    const folder = `${uri.toString()}/`;
    return [...this.contracts].some((c) => c.startsWith(folder));
  }

  /** A change on disk or in an open contract: the page is made again once changes pause (now, or when it is shown). */
  private changed(): void {
    if (!this.panel) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.panel?.visible) void this.render().catch(() => (this.stale = true));
      else this.stale = true;
    }, REFRESH_MS);
  }

  private async open(m: PageMessage): Promise<void> {
    // The page may open only the contracts it shows.
    if (m?.type !== 'open' || !this.contracts.has(m.uri) || !Number.isInteger(m.line) || m.line < 1) return;
    const at = { line: m.line - 1, character: 0 };
    // Beside the overview, never in its place: the column a contract shows in, else another one.
    const open = vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'file');
    const column = open?.viewColumn ?? (this.panel?.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One);
    await revealLocation({ uri: m.uri, range: { start: at, end: at } }, column === this.panel?.viewColumn ? vscode.ViewColumn.Beside : column);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.panel?.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

/** The command, and the side bar's Contracts view whose welcome and title button open the overview. */
export function registerContractsOverview(context: vscode.ExtensionContext, client: () => Promise<LanguageClient>, isContract: (doc: vscode.TextDocument) => boolean): void {
  const overview = new ContractsOverview(client, isContract);
  const empty: vscode.TreeDataProvider<never> = { getChildren: () => [], getTreeItem: (x) => x };
  context.subscriptions.push(
    overview,
    vscode.window.createTreeView('agentsMd.contracts', { treeDataProvider: empty }),
    vscode.commands.registerCommand('agentsMd.showContracts', async () => {
      try {
        await overview.show();
      } catch (e) {
        void vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e));
      }
    }),
  );
}
