/**
 * The optional keyed signature of a trace (docs/dry-run.md, "Signed traces"). The checksum chain
 * catches accidents (a torn or edited line) but anyone can rebuild it; with a secret key in
 * `AGENTS_MD_TRACE_KEY`, the trace writer also keeps an HMAC-SHA256 of every byte it writes and
 * puts it beside the trace as `<trace>.sig` when the file is closed. `trace verify` checks it
 * whenever the key is set: a trace without its signature, or with one that does not match, fails.
 */
import { createHmac, timingSafeEqual, type Hmac } from 'node:crypto';
import { readRegularFile } from './paths.ts';
import { writeFileAtomic } from './atomicWrite.ts';

/** The environment variable holding the signing key. */
export const TRACE_KEY_ENV = 'AGENTS_MD_TRACE_KEY';
/** Largest signature file read (bytes). */
const MAX_SIG_BYTES = 4096;

/** The signature file of a trace. */
export function signaturePath(tracePath: string): string {
  return `${tracePath}.sig`;
}

/** The key from the environment, or undefined when it is not set or empty. */
export function traceKey(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  return env[TRACE_KEY_ENV] || undefined;
}

/** Signs the bytes of a trace as they are written; `finish` writes `<trace>.sig`. */
export class TraceSigner {
  private readonly hmac: Hmac;
  private bytes = 0;
  constructor(
    private readonly tracePath: string,
    key: string,
  ) {
    this.hmac = createHmac('sha256', key);
  }
  update(chunk: Buffer): void {
    this.hmac.update(chunk);
    this.bytes += chunk.length;
  }
  finish(): void {
    writeFileAtomic(signaturePath(this.tracePath), `${JSON.stringify({ algorithm: 'HMAC-SHA256', key_env: TRACE_KEY_ENV, bytes: this.bytes, signature: this.hmac.digest('hex') })}\n`);
  }
}

/** What `trace verify` says about a trace's signature. */
export type SignatureState = 'valid' | 'invalid' | 'missing' | 'unchecked' | 'none';

/**
 * Checks the signature of a trace whose bytes are `bytes`: `valid` or `invalid` with the key set,
 * `missing` when the key is set but the trace has no signature, `unchecked` when it has one but the
 * key is not set, `none` when neither.
 */
export function checkSignature(tracePath: string, bytes: Uint8Array, env: Readonly<Record<string, string | undefined>> = process.env): SignatureState {
  let sig: { signature?: unknown } | undefined;
  try {
    sig = JSON.parse(readRegularFile(signaturePath(tracePath), MAX_SIG_BYTES).toString('utf8')) as { signature?: unknown };
  } catch (e) {
    // An unreadable or malformed signature file counts as one that does not match.
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') sig = {};
  }
  const key = traceKey(env);
  if (!key) return sig ? 'unchecked' : 'none';
  if (!sig) return 'missing';
  const expected = createHmac('sha256', key).update(bytes).digest();
  const given = typeof sig.signature === 'string' && /^[0-9a-f]{64}$/.test(sig.signature) ? Buffer.from(sig.signature, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'valid' : 'invalid';
}
