/**
 * SHA-256 through the platform's Web Crypto (`globalThis.crypto.subtle`), available in Node 20
 * and in browsers, so the service needs no `node:crypto`. Used for resource hashes (RESOURCES)
 * and for the checksums of dry-run trace events (docs/dry-run.md "The trace").
 */

const encoder = new TextEncoder();

/** The SHA-256 of `data` (a string is hashed as UTF-8) as 64 lower-case hex digits. */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  let hex = '';
  for (const b of new Uint8Array(digest)) hex += b.toString(16).padStart(2, '0');
  return hex;
}
