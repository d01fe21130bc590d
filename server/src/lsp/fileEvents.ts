/**
 * The file events the server asks the client for, and which of them can change diagnostics.
 */
import { FileChangeType, WatchKind, type FileEvent, type FileSystemWatcher } from 'vscode-languageserver';

/** Resources a contract may reference, besides contracts (.md), snapshots and configuration (.json, .yaml). */
const EXTENSIONS = ['md', 'csv', 'tsv', 'json', 'jsonl', 'yaml', 'yml', 'txt', 'pdf', 'xlsx', 'xls', 'parquet', 'sql', 'xml', 'html'];

export const WATCHERS: FileSystemWatcher[] = [
  { globPattern: `**/*.{${EXTENSIONS.join(',')}}` },
  { globPattern: '**/.agents-md.{json,yaml,yml}' },
  // A deleted folder is reported alone, not the files that went with it (VS Code's watcher).
  { globPattern: '**/*', kind: WatchKind.Delete },
];

const WATCHED_FILE = new RegExp(`\\.(${EXTENSIONS.join('|')})$`);

/**
 * The events that change what diagnostics depend on: not the save of an open document (its text
 * came as didChange), not the deletion of a folder without contracts (a build's output) nor of a
 * file no contract can use.
 */
export function relevantChanges(changes: readonly FileEvent[], contracts: readonly string[], isOpen: (uri: string) => boolean): FileEvent[] {
  return changes.filter((c) => {
    if (c.type === FileChangeType.Changed) return !isOpen(c.uri);
    if (c.type === FileChangeType.Created || WATCHED_FILE.test(c.uri)) return true;
    const folder = c.uri.endsWith('/') ? c.uri : `${c.uri}/`;
    return contracts.some((uri) => uri.startsWith(folder));
  });
}
