import { TextDocuments, type Connection } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createLanguageService, type FileSystem, type Lang, type LanguageService } from '../service/index.ts';
import { createNodeFileSystem, uriToPath } from '../node/nodeFileSystem.ts';
import { overlayFileSystem } from './overlayFileSystem.ts';
import { pendingWork, type PendingWork } from './settled.ts';
import { settingsStore, type SettingsStore } from './settings.ts';

/** Dry-run snapshots (docs/dry-run.md, "Naming"): checked by the server, not only by a schema. */
export const SNAPSHOT_FILE = /\.snapshot\.(?:ya?ml|json)$/i;

/** What `initialize` tells the server, and the language service made for the workspace folders. */
export interface Session {
  roots: string[];
  pull: boolean;
  watchRegistration: boolean;
  lensRefresh: boolean;
  /** The client resolves a code action's edit when it is chosen (`codeAction/resolve`). */
  codeActionResolve: boolean;
  lang: Lang;
  /** The rules page diagnostics link to, in the client's language. */
  docsBase: string;
  service: LanguageService | undefined;
}

/** What every `register*` module of the server shares: the connection, the open documents, settings and files. */
export interface ServerContext {
  readonly connection: Connection;
  readonly documents: TextDocuments<TextDocument>;
  readonly settings: SettingsStore;
  /** Open documents from memory, everything else from disk. */
  readonly fs: FileSystem;
  /** The `file:` URL of the folder holding rules.md (and zh-cn/rules.md). */
  readonly docsFolder: string;
  readonly session: Session;
  /** Workspace folders as file paths. */
  readonly rootPaths: () => string[];
  /** A language service over the current workspace folders. */
  readonly makeService: () => LanguageService;
  /** Work under way that can still send or change diagnostics (`agentsMd/settled` waits for it). */
  readonly pending: PendingWork;
}

export function serverContext(connection: Connection, docsFolder: string): ServerContext {
  const documents = new TextDocuments(TextDocument);
  const session: Session = { roots: [], pull: false, watchRegistration: false, lensRefresh: false, codeActionResolve: false, lang: 'en', docsBase: `${docsFolder}/rules.md`, service: undefined };
  const rootPaths = () => session.roots.map(uriToPath).filter((p): p is string => p !== undefined);
  const fs = overlayFileSystem(createNodeFileSystem(rootPaths), (uri) => documents.get(uri)?.getText());
  return {
    connection, documents, settings: settingsStore(connection), fs, docsFolder, session, rootPaths,
    // One turn of the event loop before each summary: requests are answered between two parses.
    makeService: () => createLanguageService({ fs, roots: session.roots, yieldTurn: () => new Promise((r) => setImmediate(r)) }),
    pending: pendingWork(),
  };
}
