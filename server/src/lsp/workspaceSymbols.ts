/**
 * `workspace/symbol` (Ctrl+T in VS Code): agents, tools, pools, roles, HITL scenarios and error
 * codes across every contract of the workspace, from the service's `workspaceSymbols`. While a
 * workspace pass runs, from the contracts it has summarised so far, at once: a search never waits
 * for the pass (docs/workspace.md, "In the editor").
 */
import { SymbolKind, type Connection, type SymbolInformation } from 'vscode-languageserver';
import { workspaceSymbols, type LanguageService, type WorkspaceSymbol } from '../service/index.ts';

const KIND: Record<WorkspaceSymbol['kind'], SymbolKind> = {
  agent: SymbolKind.Class,
  tool: SymbolKind.Function,
  pool: SymbolKind.Struct,
  role: SymbolKind.Key,
  scenario: SymbolKind.Event,
  code: SymbolKind.Constant,
};

export function registerWorkspaceSymbols(connection: Connection, service: () => LanguageService | undefined, indexing: () => boolean): void {
  connection.onWorkspaceSymbol(async (params, token): Promise<SymbolInformation[]> => {
    const s = service();
    if (!s) return [];
    const found = await workspaceSymbols(s.workspace, params.query, undefined, { indexedOnly: indexing() });
    if (token.isCancellationRequested) return [];
    return found.map((x) => ({ name: x.name, kind: KIND[x.kind], location: { uri: x.uri, range: x.range }, containerName: x.container }));
  });
}
