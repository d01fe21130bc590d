/**
 * The UTF-8 size of a document's text when it is over `limit` bytes, else undefined. The limit is
 * in bytes (agentsMd.maxFileBytes, docs/configuration.md) and a UTF-16 code unit takes 1 to 3
 * bytes, so the text is measured only when its length alone cannot decide.
 */
export function exceedsBytes(text: string, limit: number): number | undefined {
  if (text.length * 3 <= limit) return undefined;
  const bytes = Buffer.byteLength(text, 'utf8');
  return bytes > limit ? bytes : undefined;
}
