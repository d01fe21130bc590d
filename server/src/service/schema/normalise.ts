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

/** Levenshtein distance, bounded: returns `max + 1` as soon as the distance exceeds `max`. */
export function editDistance(a: string, b: string, max = 3): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** The closest candidate within a third of the word's length (at most 3 edits), if any. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const max = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestD = max + 1;
  for (const c of candidates) {
    const d = editDistance(word, c, max);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}
