/**
 * The service's `FileSystem` on the real disk. URIs are `file:` URIs (vscode-uri); anything
 * else, and every ordinary I/O error, reads as "not there": these methods never throw.
 */
import { readFile, stat } from 'node:fs/promises';
import { glob } from 'tinyglobby';
import { URI } from 'vscode-uri';
import type { FileSystem } from '../service/index.ts';

/** The `file:` URI of an absolute path. */
export function fileUri(path: string): string {
  return URI.file(path).toString();
}

/** The local path of a `file:` URI, or undefined for other schemes and malformed URIs. */
export function uriToPath(uri: string): string | undefined {
  try {
    const u = URI.parse(uri);
    return u.scheme === 'file' ? u.fsPath : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Absolute paths of the files under `folder` that match `include` and not `exclude` (globs
 * relative to the folder), sorted. Dot folders are searched only where a pattern names them
 * (`.github/**`), as shells and most linters do. Symbolic links are followed.
 */
export async function globFiles(folder: string, include: readonly string[], exclude: readonly string[]): Promise<string[]> {
  if (include.length === 0) return [];
  try {
    const found = await glob([...include], { cwd: folder, ignore: [...exclude], absolute: true, onlyFiles: true, expandDirectories: false });
    return found.sort();
  } catch {
    return [];
  }
}

/** Creates a `FileSystem` over node:fs. */
export function createNodeFileSystem(): FileSystem {
  return {
    async readFile(uri) {
      const path = uriToPath(uri);
      if (path === undefined) return undefined;
      try {
        return await readFile(path);
      } catch {
        return undefined;
      }
    },
    async stat(uri) {
      const path = uriToPath(uri);
      if (path === undefined) return undefined;
      try {
        const st = await stat(path);
        if (st.isFile()) return { type: 'file', size: st.size };
        if (st.isDirectory()) return { type: 'directory', size: st.size };
        return undefined;
      } catch {
        return undefined;
      }
    },
    async findFiles(folderUri, include, exclude) {
      const folder = uriToPath(folderUri);
      if (folder === undefined) return [];
      return (await globFiles(folder, include, exclude)).map(fileUri);
    },
  };
}
