import type { FileSystem } from '../../server/src/service/index.ts';

/**
 * An in-memory FileSystem for tests: `files` maps `file:` URIs to contents. `findFiles`
 * supports the glob shapes the service asks for (`**\/NAME`, `**\/*.EXT`, `DIR/**`).
 */
export function memoryFs(files: Record<string, string | Uint8Array>): FileSystem {
  const enc = new TextEncoder();
  const bytes = (v: string | Uint8Array) => (typeof v === 'string' ? enc.encode(v) : v);
  return {
    async readFile(uri) {
      const v = files[uri];
      return v === undefined ? undefined : bytes(v);
    },
    async stat(uri) {
      const v = files[uri];
      if (v !== undefined) return { type: 'file', size: bytes(v).length };
      const prefix = uri.endsWith('/') ? uri : uri + '/';
      return Object.keys(files).some((k) => k.startsWith(prefix)) ? { type: 'directory', size: 0 } : undefined;
    },
    async findFiles(folder, include, exclude) {
      const prefix = folder.endsWith('/') ? folder : folder + '/';
      // `**/` first, through a placeholder, so that the `*` of its `.*` is not taken for a single `*`.
      // A trailing `/**` (everything under a folder) likewise.
      const toRe = (g: string) => new RegExp('^' + g.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\/\*\*$/, '/\u0001').replace(/\*\*\//g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '(?:.*/)?').replace('\u0001', '.*') + '$');
      const inc = include.map(toRe);
      const exc = exclude.map(toRe);
      return Object.keys(files).filter((k) => {
        if (!k.startsWith(prefix)) return false;
        const rel = k.slice(prefix.length);
        return inc.some((r) => r.test(rel)) && !exc.some((r) => r.test(rel));
      });
    },
  };
}
