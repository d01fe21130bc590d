/**
 * The bytes of outgoing messages over stdio, with each diagnostic encoded once. A keystroke that
 * changes one diagnostic still sends the document's whole list (a pull report is `unchanged` or
 * complete), and most diagnostics are the objects sent last time (lsp/diagnostics.ts converts a
 * finding once). Encoding the whole report again cost more than parsing the edit: one non-ASCII
 * character (an arrow in a message, a Chinese scenario name) makes the JSON text two-byte, and
 * V8 turns a two-byte text into UTF-8 at about 65 MB/s (2 ms for a 117 KB report of 183
 * diagnostics). Here each diagnostic's bytes are kept with the diagnostic, and a report is its
 * head, the kept bytes and its tail (docs/performance.md, "A report's bytes").
 */
import type { ContentTypeEncoder, Message } from 'vscode-languageserver/node.js';

/** Diagnostics are never changed once converted (lsp/diagnostics.ts keeps them per finding), so their bytes stay true. */
const encoded = new WeakMap<object, Buffer>();

/** Where a message carries a list of diagnostics: a pull report's `result.items`, a push's `params.diagnostics`. */
function diagnosticsIn(msg: Message): { readonly outer: 'result' | 'params'; readonly inner: 'items' | 'diagnostics' } | undefined {
  const m = msg as { result?: { kind?: unknown; items?: unknown }; method?: unknown; params?: { diagnostics?: unknown } };
  if (m.result?.kind === 'full' && Array.isArray(m.result.items)) return { outer: 'result', inner: 'items' };
  if (m.method === 'textDocument/publishDiagnostics' && Array.isArray(m.params?.diagnostics)) return { outer: 'params', inner: 'diagnostics' };
  return undefined;
}

/** One list element's JSON bytes, kept for an object (JSON.stringify writes `null` for what it drops in an array). */
function elementBytes(e: unknown): Buffer {
  const kept = typeof e === 'object' && e !== null ? e : undefined;
  let bytes = kept && encoded.get(kept);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(e) ?? 'null', 'utf8');
    if (kept) encoded.set(kept, bytes);
  }
  return bytes;
}

const COMMA = Buffer.from(',');
const TAIL = Buffer.from(']}}');

/** `{…}` of `o` without `key`, opened for one more member: `{"a":1,` or `{`. */
function openWithout(o: object, key: string): string {
  const json = JSON.stringify({ ...o, [key]: undefined });
  return json.length > 2 ? `${json.slice(0, -1)},` : '{';
}

/** A message's JSON bytes: the same value as `JSON.stringify(msg)` (members may come in another order). */
export function encodeMessage(msg: Message): Buffer {
  const at = diagnosticsIn(msg);
  if (!at) return Buffer.from(JSON.stringify(msg), 'utf8');
  const outer = (msg as unknown as Record<string, Record<string, unknown>>)[at.outer]!;
  const list = outer[at.inner] as readonly unknown[];
  const head = `${openWithout(msg, at.outer)}"${at.outer}":${openWithout(outer, at.inner)}"${at.inner}":[`;
  const parts: Buffer[] = [Buffer.from(head, 'utf8')];
  list.forEach((e, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(elementBytes(e));
  });
  parts.push(TAIL);
  return Buffer.concat(parts);
}

/** The stdio writer's encoder (server.ts); the charset is always UTF-8 there. */
export const messageEncoder: ContentTypeEncoder = {
  name: 'application/json',
  // Async, so that a message that cannot be encoded rejects (the writer reports it) instead of throwing.
  encode: async (msg) => encodeMessage(msg),
};
