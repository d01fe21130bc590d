// Runs inside VS Code's extension host (@vscode/test-electron): the packaged extension against
// the sample contracts. Plain CommonJS, because the extension host `require`s it directly.
const assert = require('node:assert/strict');
const path = require('node:path');
const vscode = require('vscode');

/** Resolves when `uri` has diagnostics from agents-md, or rejects after `ms`. */
function diagnosticsFor(uri, ms = 30000) {
  const ours = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'agents-md');
  if (ours().length) return Promise.resolve(ours());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (sub.dispose(), reject(new Error(`no diagnostics for ${uri} in ${ms} ms`))), ms);
    const sub = vscode.languages.onDidChangeDiagnostics(() => {
      if (!ours().length) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(ours());
    });
  });
}

async function run() {
  const root = vscode.workspace.workspaceFolders[0].uri.fsPath;
  const uri = vscode.Uri.file(path.join(root, 'samples/broken/AGENTS.md'));
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc);

  const diags = await diagnosticsFor(uri);
  const hitl = diags.find((d) => d.code && (d.code.value ?? d.code) === 'hitl-needs-fallback');
  assert.ok(hitl, 'hitl-needs-fallback is reported');

  const line = doc.getText().split('\n').findIndex((l) => l.startsWith('- **Side Effects**'));
  const hovers = await vscode.commands.executeCommand('vscode.executeHoverProvider', uri, new vscode.Position(line, 6));
  assert.ok(hovers.some((h) => h.contents.some((c) => /side_effects/.test(c.value ?? String(c)))), 'hover shows the schema docs');

  const actions = await vscode.commands.executeCommand('vscode.executeCodeActionProvider', uri, hitl.range);
  const fix = actions.find((a) => a.isPreferred);
  assert.ok(fix && fix.edit, 'a preferred quick fix');
  assert.ok(await vscode.workspace.applyEdit(fix.edit));
  assert.match(doc.getText(), /gets no sign-off within/);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}

module.exports = { run };
