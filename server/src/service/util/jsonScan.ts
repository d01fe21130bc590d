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
