/**
 * Workspace symbol search (docs/workspace.md): agents, tools, pools, roles, HITL scenarios and
 * error codes of every contract, read from the digests the workspace keeps, so that a search
 * parses each contract at most once.
 */
import type { Range } from '../types.ts';
import type { WorkspaceSymbolEntry } from '../model/digest.ts';
import type { Workspace } from './resolveFacts.ts';

export interface WorkspaceSymbol {
  readonly kind: WorkspaceSymbolEntry['kind'];
  readonly name: string;
  readonly uri: string;
  readonly range: Range;
  /** The contract's path relative to its root. */
  readonly container: string;
}

/** True when the query's characters appear in order in the name, ignoring case (VS Code's Ctrl+T matching). */
function matches(query: string, name: string): boolean {
  let i = 0;
  const q = query.toLowerCase();
  const n = name.toLowerCase();
  for (const ch of n) if (ch === q[i]) i++;
  return i === q.length;
}

/**
 * Symbols whose name matches `query`, at most `limit` of them, sorted by name. `indexedOnly`: from
 * the contracts summarised so far, without parsing any (answered at once while a workspace pass
 * is still summarising).
 */
export async function workspaceSymbols(workspace: Workspace, query: string, limit = 1000, options: { readonly indexedOnly?: boolean } = {}): Promise<WorkspaceSymbol[]> {
  const out: WorkspaceSymbol[] = [];
  for (const uri of await workspace.contractUris()) {
    const digest = options.indexedOnly ? workspace.indexedSummary(uri)?.digest : (await workspace.summaryOf(uri)).digest;
    for (const s of digest?.symbols ?? []) if (matches(query, s.name)) out.push({ kind: s.kind, name: s.name, uri, range: s.range, container: digest!.path });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name) || a.container.localeCompare(b.container)).slice(0, limit);
}
