/**
 * The file access the language service needs, injected by its host (the CLI passes the real
 * disk, the language server the editor's workspace, tests an in-memory map). URIs are
 * `file:` URIs as strings. Implementations return undefined for what does not exist and
 * must not throw for ordinary I/O errors.
 */
export interface FileSystem {
  /** The file's bytes, or undefined when it does not exist or cannot be read. */
  readFile(uri: string): Promise<Uint8Array | undefined>;
  /** Whether a file or directory exists at the URI. */
  stat(uri: string): Promise<{ readonly type: 'file' | 'directory'; readonly size: number } | undefined>;
  /** Files under `folderUri` that match `include` and not `exclude` (globs relative to the folder). */
  findFiles(folderUri: string, include: readonly string[], exclude: readonly string[]): Promise<string[]>;
}

/** A file system with nothing in it: facts for a document seen on its own. */
export const NO_FILES: FileSystem = {
  readFile: async () => undefined,
  stat: async () => undefined,
  findFiles: async () => [],
};
