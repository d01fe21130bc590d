/**
 * The file events the server asks the client for, and which of them can change diagnostics.
 */
import { FileChangeType, WatchKind, type FileEvent, type FileSystemWatcher } from 'vscode-languageserver';

/** Resources a contract may reference, besides contracts (.md), snapshots and configuration (.json, .yaml). */
const EXTENSIONS = ['md', 'csv', 'tsv', 'json', 'jsonl', 'yaml', 'yml', 'txt', 'pdf', 'xlsx', 'xls', 'parquet', 'sql', 'xml', 'html'];

export const WATCHERS: FileSystemWatcher[] = [
  { globPattern: `**/*.{${EXTENSIONS.join(',')}}` },
  { globPattern: '**/.agents-md.{json,yaml,yml}' },
  // A folder moved in or deleted is reported alone, not the files in it (VS Code's watcher).
  { globPattern: '**/*', kind: WatchKind.Create | WatchKind.Delete },
];

const WATCHED_FILE = new RegExp(`\\.(${EXTENSIONS.join('|')})$`);

/** What `relevantChanges` asks of the workspace. */
export interface FileEventContext {
  /** The contracts as last listed. */
  readonly contracts: readonly string[];
  readonly isOpen: (uri: string) => boolean;
  readonly isFolder: (uri: string) => Promise<boolean>;
}

/**
 * The events that change what diagnostics depend on: not the save of an open document (its text
 * came as didChange), not the deletion of a folder without contracts (a build's output) nor the
 * creation or deletion of a file no contract can use. A folder created (or moved in) may hold
 * contracts: it counts.
 */
export async function relevantChanges(changes: readonly FileEvent[], ctx: FileEventContext): Promise<FileEvent[]> {
  const keep = await Promise.all(changes.map(async (c) => {
    if (c.type === FileChangeType.Changed) return !ctx.isOpen(c.uri);
    if (WATCHED_FILE.test(c.uri)) return true;
    if (c.type === FileChangeType.Created) return ctx.isFolder(c.uri);
    const folder = c.uri.endsWith('/') ? c.uri : `${c.uri}/`;
    return ctx.contracts.some((uri) => uri.startsWith(folder));
  }));
  return changes.filter((_, i) => keep[i]);
}
