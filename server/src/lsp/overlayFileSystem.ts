import type { FileSystem } from '../service/index.ts';

/**
 * A FileSystem that reads open editor documents from memory and everything else from `base`,
 * so that cross-contract checks see unsaved edits.
 */
export function overlayFileSystem(base: FileSystem, openText: (uri: string) => string | undefined): FileSystem {
  const encoder = new TextEncoder();
  return {
    async readFile(uri) {
      const text = openText(uri);
      return text === undefined ? base.readFile(uri) : encoder.encode(text);
    },
    async stat(uri) {
      const text = openText(uri);
      return text === undefined ? base.stat(uri) : { type: 'file', size: encoder.encode(text).length };
    },
    findFiles: (folder, include, exclude) => base.findFiles(folder, include, exclude),
  };
}
