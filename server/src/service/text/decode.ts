/** The text of a file, and what was wrong with its bytes. */
export interface DecodedText {
  readonly text: string;
  /** True when the bytes look binary (a NUL byte in the first 8 KiB). */
  readonly binary: boolean;
  /** UTF-16 offset in `text` of the first byte sequence that is not valid UTF-8 (shown as U+FFFD). */
  readonly invalidUtf8At?: number;
  /** Set when the bytes are UTF-16 with a byte order mark: decoded as such, to be re-saved as UTF-8. */
  readonly utf16?: 'le' | 'be';
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * Decodes a file's bytes as UTF-8, keeping a BOM in the text (the parser accounts for it).
 * Invalid sequences become U+FFFD and the first one's offset is reported. Never throws.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  // Windows tools (PowerShell 5's Out-File) write UTF-16 with a BOM: read it rather than call it binary.
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe ? 'le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'be' : undefined;
  if (utf16) return { text: new TextDecoder(`utf-16${utf16}`, { fatal: false, ignoreBOM: true }).decode(bytes), binary: false, utf16 };
  const head = bytes.subarray(0, 8192);
  const binary = head.includes(0);
  try {
    return { text: strict.decode(bytes), binary };
  } catch {
    const text = lenient.decode(bytes);
    const bad = firstInvalidByte(bytes);
    // The valid prefix decodes to the same UTF-16 text, so its length is the offset in `text`.
    const at = bad === undefined ? text.indexOf('\uFFFD') : strict.decode(bytes.subarray(0, bad)).length;
    return { text, binary, ...(at >= 0 ? { invalidUtf8At: at } : {}) };
  }
}

/** Index of the first byte that does not start a valid UTF-8 sequence (RFC 3629), if any. */
export function firstInvalidByte(bytes: Uint8Array): number | undefined {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const n = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (n < 0 || (n > 0 && i + n >= bytes.length)) return i;
    for (let k = 1; k <= n; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    const b1 = bytes[i + 1] ?? 0;
    if ((b === 0xe0 && b1 < 0xa0) || (b === 0xed && b1 > 0x9f) || (b === 0xf0 && b1 < 0x90) || (b === 0xf4 && b1 > 0x8f)) return i;
    i += n + 1;
  }
  return undefined;
}
