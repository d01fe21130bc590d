/**
 * Rule codes and doc links lead to rendered text (docs/vscode.md, "Rule documentation"): a rule
 * code in a problem opens that rule's own text, in the user's language, in a locked Markdown
 * preview beside the contract; a hover's link to the format doc opens the doc shipped with the
 * extension the same way.
 * VS Code opens a diagnostic's code link with its opener, which runs no commands: the links go
 * through the extension's URI handler instead (`<scheme>://<extension id>/rule?code=…`).
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node.js';
import { RULE_DOC, type RuleDocResult } from '../../server/src/lsp/customRequests.ts';

/** The virtual documents of single rules: `agents-md-rule:/<code>.md`. */
const RULE_SCHEME = 'agents-md-rule';
/** Docs the extension ships that hovers link to (.vscodeignore). */
/** Opens a shipped doc at a section: (file, fragment). */
const OPEN_DOC = 'agentsMd.openDoc';
const SHIPPED_DOCS = new Set(['contract-format.md', 'dry-run.md', 'semantic-diff.md', 'localisation.md', 'rules.md']);

export interface DocLinks {
  /** A link target that opens the rule's text, for a code's link in a problem. */
  rule(code: string): vscode.Uri;
  /** Hover Markdown with its links to `docs/…` made to open the rendered docs (trusted command links). */
  hover(markdown: string): vscode.MarkdownString;
}

export function registerRuleDocs(context: vscode.ExtensionContext, client: () => Promise<LanguageClient>): DocLinks {
  const base = `${vscode.env.uriScheme}://${context.extension.id}`;
  // A locked preview: an unlocked one follows the active editor, and turned into "Preview AGENTS.md"
  // as soon as the user clicked back on the contract.
  const preview = (uri: vscode.Uri) => vscode.commands.executeCommand('markdown.showLockedPreviewToSide', uri);
  const openRule = (code: string) => preview(vscode.Uri.from({ scheme: RULE_SCHEME, path: `/${code}.md` }));
  const openDoc = (file: string, fragment: string) => {
    if (!SHIPPED_DOCS.has(file)) return;
    const uri = vscode.Uri.joinPath(context.extensionUri, 'docs', file).with({ fragment });
    return preview(uri);
  };
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(RULE_SCHEME, {
      provideTextDocumentContent: async (uri) => {
        const code = uri.path.replace(/^\//, '').replace(/\.md$/, '');
        const r = await (await client()).sendRequest<RuleDocResult>(RULE_DOC, { code });
        return r.markdown ?? '';
      },
    }),
    vscode.window.registerUriHandler({
      handleUri: (uri) => {
        const q = new URLSearchParams(uri.query);
        if (uri.path === '/rule' && q.get('code')) return void openRule(q.get('code')!);
      },
    }),
    vscode.commands.registerCommand('agentsMd.openRule', (code: string) => openRule(code)),
    vscode.commands.registerCommand(OPEN_DOC, (file: string, fragment?: string) => openDoc(file, fragment ?? '')),
  );
  // A hover renders no link to a custom scheme (vscode://, code-oss://): its links run trusted commands.
  const command = (id: string, args: string[]) => `](command:${id}?${encodeURIComponent(JSON.stringify(args))})`;
  return {
    rule: (code) => vscode.Uri.parse(`${base}/rule?code=${encodeURIComponent(code)}`),
    hover: (markdown) => {
      const text = markdown.replace(/\]\((?:[^)\s]*\/)?docs\/(?:zh-cn\/)?([\w.-]+\.md)(?:#([^)\s]*))?\)/g, (all, file: string, fragment: string | undefined) => {
        if (file === 'rules.md' && fragment) return command('agentsMd.openRule', [fragment]);
        return SHIPPED_DOCS.has(file) ? command(OPEN_DOC, [file, fragment ?? '']) : all;
      });
      const md = new vscode.MarkdownString(text);
      md.isTrusted = { enabledCommands: ['agentsMd.openRule', OPEN_DOC] };
      return md;
    },
  };
}
