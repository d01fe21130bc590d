import damerauLevenshtein from 'damerau-levenshtein';
/**
 * Normalises a section title, field label or table header for matching (docs/contract-format.md,
 * "Titles and aliases"): emoji, backticks, `*` and leading numbering dropped, a trailing suffix
 * after ` - `, ` — `, `:` or `(` removed, case folded, and `_`, `-`, `&`, `and`, `/` and white
 * space collapsed. CJK text is kept as it is. `"2. Versioning & Audit (v2)"` → `"versioning audit"`.
 */
export function normaliseLabel(label: string): string {
  let s = label.normalize('NFKC');
  s = s.replace(/[`*]/g, '');
  s = s.replace(/[\p{Extended_Pictographic}\u{FE0F}\u{200D}]/gu, '');
  s = s.replace(/^\s*(?:\d+(?:\.\d+)*[.)、]?|[-–—•])\s*/u, '');
  s = s.replace(/\s+[-–—]\s+.*$/u, '').replace(/\s*[(（].*$/u, '').replace(/\s*[:：]\s*.*$/u, '');
  s = s.toLowerCase();
  s = s.replace(/[_\-&/]+/g, ' ').replace(/\band\b/g, ' ');
  s = s.replace(/\s+/g, ' ').trim();
  return s;
}

/**
 * The closest candidate by Damerau–Levenshtein distance (a swap of two neighbours is one edit:
 * `gaol` → `goal`), if it is at most `maxEdits` away; by default a third of the word's length,
 * at most 3. Ties go to the earlier candidate.
 */
export function closest(word: string, candidates: Iterable<string>, maxEdits = Math.min(3, Math.max(1, Math.floor(word.length / 3)))): string | undefined {
  let best: string | undefined;
  let bestD = maxEdits + 1;
  for (const c of candidates) {
    if (Math.abs(c.length - word.length) >= bestD) continue;
    const d = damerauLevenshtein(word, c).steps;
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}
