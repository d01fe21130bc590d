/**
 * The run as a picture (docs/dry-run.md, "A run as a picture"): a webview beside the contract
 * showing the page the server makes of a trace (the same page as `agents-md trace show --html`),
 * beside its fork or the previous run of the same query. Clicks on a clause reveal it in the
 * contract; "Fork" buttons fork the run at that event and show the fork beside it. Scripts run
 * only with the page's nonce; the webview loads no resource (`localResourceRoots: []`). The Agent
 * Run tree stays, for screen readers and for the run as it streams.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node.js';
import { revealLocation } from './nodeTree.ts';
import { FORK_RUN, RUN_PAGE, type ForkRunResult, type RunPageResult, type ViewLocation } from '../../../server/src/lsp/customRequests.ts';

/** What the page posts (see the page's script in server/src/service/run/trace/runPage.ts). */
type PageMessage = { readonly type: 'reveal'; readonly pointer: string } | { readonly type: 'fork'; readonly run: number; readonly at: string; readonly decision?: 'approve' | 'reject' };

/** The one run view panel, reused for every run shown. */
export class RunView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  /** The traces on the page: the run, and the one beside it. */
  private shown: { traceUri: string; besideUri?: string; clauses: Readonly<Record<string, ViewLocation>> } | undefined;

  constructor(private readonly client: () => Promise<LanguageClient>) {}

  /** Shows the run of `traceUri` (beside `besideUri`, else beside the previous run of its query). */
  async show(traceUri: string, besideUri?: string): Promise<void> {
    const c = await this.client();
    const nonce = randomBytes(16).toString('base64');
    const page = await c.sendRequest<RunPageResult>(RUN_PAGE, { traceUri, nonce, ...(besideUri ? { besideUri } : {}) });
    const panel = this.panelFor(page.title);
    this.shown = { traceUri, clauses: page.clauses, ...(page.besideUri ? { besideUri: page.besideUri } : {}) };
    panel.webview.html = page.html;
    panel.reveal(undefined, true);
  }

  private panelFor(title: string): vscode.WebviewPanel {
    if (this.panel) {
      this.panel.title = title;
      return this.panel;
    }
    const panel = vscode.window.createWebviewPanel('agentsMd.runView', title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: true, localResourceRoots: [], retainContextWhenHidden: true });
    panel.onDidDispose(() => ((this.panel = undefined), (this.shown = undefined)));
    panel.webview.onDidReceiveMessage((m: PageMessage) => void this.onMessage(m));
    this.panel = panel;
    return panel;
  }

  private async onMessage(m: PageMessage): Promise<void> {
    const shown = this.shown;
    if (!shown) return;
    if (m.type === 'reveal') {
      const where = shown.clauses[m.pointer];
      if (!where) return;
      // In the contract's own editor, never in place of the view: the column the contract shows in, else another one.
      const open = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === where.uri);
      const column = open?.viewColumn ?? (this.panel?.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One);
      await revealLocation(where, column);
      return;
    }
    const traceUri = m.run === 1 && shown.besideUri ? shown.besideUri : shown.traceUri;
    const c = await this.client();
    try {
      const fork = await c.sendRequest<ForkRunResult>(FORK_RUN, { traceUri, at: m.at, ...(m.decision ? { decision: m.decision } : {}) });
      // The original on the left, its fork beside it.
      await this.show(traceUri, fork.traceUri);
      void vscode.window.showInformationMessage(fork.summary);
    } catch (e) {
      void vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e));
    }
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
