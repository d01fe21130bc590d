/**
 * A token estimate for when no tokenizer's count is available: the scripted model, and
 * OpenAI-compatible endpoints that send no `usage` (budgets count tokens).
 *
 * Rule of thumb, not a tokenizer: a character from U+2E80 up (CJK ideographs, kana, hangul,
 * emoji…) counts as one token, any other character as a quarter (about four characters of
 * English or code per token). Both kinds are summed and rounded up, so a non-empty text is at
 * least 1 token. Counting is by code point, so a surrogate pair is one character.
 */
export function estimateTokens(text: string): number {
  let wide = 0;
  let narrow = 0;
  for (const ch of text) {
    if (ch.codePointAt(0)! >= 0x2e80) wide++;
    else narrow++;
  }
  return wide + Math.ceil(narrow / 4);
}
