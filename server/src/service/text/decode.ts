/** The text of a file, and what was wrong with its bytes. */
export interface DecodedText {
  readonly text: string;
  /** True when the bytes look binary (a NUL byte in the first 8 KiB). */
  readonly binary: boolean;
  /** UTF-16 offset in `text` of the first byte sequence that is not valid UTF-8 (shown as U+FFFD). */
  readonly invalidUtf8At?: number;
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * Decodes a file's bytes as UTF-8, keeping a BOM in the text (the parser accounts for it).
 * Invalid sequences become U+FFFD and the first one's offset is reported. Never throws.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  const head = bytes.subarray(0, 8192);
  const binary = head.includes(0);
  try {
    return { text: strict.decode(bytes), binary };
  } catch {
    const text = lenient.decode(bytes);
    const at = text.indexOf('\uFFFD');
    return { text, binary, ...(at >= 0 ? { invalidUtf8At: at } : {}) };
  }
}
