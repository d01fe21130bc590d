import * as vscode from 'vscode';

/** A status bar item that shows, for the active contract, whether the checks pass. */
export class StatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('agentsMd.status', vscode.StatusBarAlignment.Right, 100);
  private running = false;
  private shown: vscode.TextDocument | undefined;

  constructor() {
    this.item.name = vscode.l10n.t('AGENTS.md contract');
    this.item.command = 'agentsMd.showProblems';
  }

  setRunning(running: boolean): void {
    this.running = running;
  }

  /**
   * Shows the counts of contract problems in `doc`, or hides the item when `doc` is no contract:
   * a file the patterns do not match, or a free-form AGENTS.md (`isContract` asks the server).
   */
  async update(doc: vscode.TextDocument | undefined, isContract: (d: vscode.TextDocument) => Promise<boolean>): Promise<void> {
    this.shown = doc;
    const contract = doc ? await isContract(doc).catch(() => false) : false;
    if (this.shown !== doc) return; // another editor became active meanwhile
    if (!doc || !contract) {
      this.item.hide();
      return;
    }
    const ours = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'agents-md');
    const errors = ours.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
    const warnings = ours.filter((d) => d.severity === vscode.DiagnosticSeverity.Warning).length;
    if (!this.running) this.item.text = vscode.l10n.t('$(sync~spin) AGENTS.md');
    else if (errors + warnings === 0) this.item.text = vscode.l10n.t('$(pass) AGENTS.md');
    else this.item.text = vscode.l10n.t('$(error) {0} $(warning) {1} AGENTS.md', errors, warnings);
    this.item.tooltip = vscode.l10n.t('AGENTS.md contract checks: {0} errors, {1} warnings. Click to open the Problems panel.', errors, warnings);
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
