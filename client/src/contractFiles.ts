/**
 * Which files are contracts for the extension: the built-in patterns plus the user's
 * `agentsMd.contractGlobs` (docs/vscode.md). The language server is started for these, and a
 * command that needs a contract takes the active editor only when it shows one.
 */
import * as vscode from 'vscode';
import type { DocumentSelector } from 'vscode-languageclient/node.js';

/** The patterns of contract files: the built-in ones plus `agentsMd.contractGlobs`. */
export function contractGlobs(): string[] {
  const extra = vscode.workspace.getConfiguration('agentsMd').get<string[]>('contractGlobs') ?? [];
  return ['**/AGENTS.md', '**/*.agents.md', ...extra.filter((g) => typeof g === 'string' && g !== '')];
}

/** Contract files as a document selector (Markdown documents only). */
export function contractSelector(): DocumentSelector {
  return contractGlobs().map((pattern) => ({ language: 'markdown', pattern }));
}

export function isContract(doc: vscode.TextDocument): boolean {
  return vscode.languages.match(contractSelector(), doc) > 0;
}
