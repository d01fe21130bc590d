/**
 * What `JSON.parse` does not say about a text: a key used twice in one object (the parser keeps
 * the last silently) and nesting deeper than a limit (deep values overflow the stack of every
 * recursive walk after the parse). One pass without recursion, for text that is valid JSON.
 */

/** A problem of valid JSON text: the duplicated key, or the depth that went over `maxDepth`. */
export type JsonScanProblem = { readonly duplicateKey: string } | { readonly tooDeep: number };

/** Scans valid JSON `text`; undefined when no key repeats and nesting stays within `maxDepth`. */
export function scanJson(text: string, maxDepth: number): JsonScanProblem | undefined {
  // One entry per open container: the keys seen for an object, null for an array.
  const stack: (Set<string> | null)[] = [];
  let previous = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const keys = stack[stack.length - 1];
      // In an object, a string right after `{` or `,` is a key.
      if (keys && (previous === '{' || previous === ',')) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (keys.has(key)) return { duplicateKey: key };
        keys.add(key);
      }
      previous = '"';
      i = j;
    } else if (c === '{' || c === '[') {
      stack.push(c === '{' ? new Set() : null);
      if (stack.length > maxDepth) return { tooDeep: maxDepth };
      previous = c;
    } else if (c === '}' || c === ']') {
      stack.pop();
      previous = c;
    } else if (c !== ' ' && c !== '\t' && c !== '\r' && c !== '\n') {
      previous = c;
    }
  }
  return undefined;
}

/**
 * Where JSON-like `text` (valid or not) first nests deeper than `maxDepth` brackets outside
 * strings, as an offset, or undefined. One pass without recursion: a recursive parser given
 * 8,000 nested arrays overflows its stack (docs/robustness.md, "Parsing limits").
 */
export function tooDeepAt(text: string, maxDepth: number): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // A string: to its closing quote (or the end of the line, where an unclosed one ends).
      for (i++; i < text.length && text.charCodeAt(i) !== 34 && text.charCodeAt(i) !== 10; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 91 || c === 123) {
      if (++depth > maxDepth) return i;
    } else if (c === 93 || c === 125) depth = Math.max(0, depth - 1);
  }
  return undefined;
}
