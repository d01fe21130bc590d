import { relative, sep } from 'node:path';

/** `target` relative to `from`, with `/` separators; absolute when it is on another drive. */
export function displayPath(from: string, target: string): string {
  const rel = relative(from, target);
  return (rel === '' ? '.' : rel).split(sep).join('/');
}
