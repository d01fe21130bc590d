// The CLI's bundles in ASCII only, their source maps kept true (esbuild.mjs, `compact` entries).
// esbuild escapes non-ASCII characters in strings but leaves them in regular expression
// literals; one such character makes V8 hold the whole 4 MB bundle as a two-byte string and
// decode it from UTF-8 on every run. Escaped, the launcher reads it as Latin-1 (bin/agents-md.cjs).
import { decode, encode } from '@jridgewell/sourcemap-codec';

/**
 * `\uXXXX` for each UTF-16 unit: the same string or pattern in a string or regular expression
 * literal, with or without the `u` flag (a pattern's `source` spells the escape, and means the same).
 */
const escaped = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `code` with every non-ASCII UTF-16 unit escaped, and `map` (a source map's JSON, or undefined)
 * with each generated column on those lines moved by what the escapes before it added. For
 * esbuild's output with its default `charset` (ASCII), where the only such units left stand in
 * regular expression literals.
 */
export function asciiBundle(code, map) {
  const lines = code.split('\n');
  /** Per line with escapes, the columns of the units escaped there. */
  const shifts = new Map();
  lines.forEach((line, i) => {
    if (!/[^\x00-\x7f]/.test(line)) return;
    const moves = [];
    let out = '';
    for (let k = 0; k < line.length; k++) {
      const c = line[k];
      if (c.charCodeAt(0) < 0x80) out += c;
      else {
        out += escaped(c);
        moves.push(k);
      }
    }
    lines[i] = out;
    shifts.set(i, moves);
  });
  if (!map) return { code: lines.join('\n'), map };
  const parsed = JSON.parse(map);
  const mappings = decode(parsed.mappings).map((segments, i) => {
    const moves = shifts.get(i);
    if (!moves) return segments;
    // Each escape turns one unit into six: a column moves by 5 for each escaped unit before it.
    return segments.map(([column, ...rest]) => [column + 5 * countBelow(moves, column), ...rest]);
  });
  return { code: lines.join('\n'), map: JSON.stringify({ ...parsed, mappings: encode(mappings) }) };
}

/** How many of the sorted `xs` are below `x`. */
function countBelow(xs, x) {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
