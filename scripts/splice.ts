import { readFileSync } from 'node:fs';

/**
 * A hand-written doc with the part between two marker lines replaced by `body` (which brings its
 * own line breaks): the generated tables of docs/localisation.md, docs/semantic-diff.md and
 * docs/dry-run.md.
 */
export function spliceBetween(doc: URL, start: string, end: string, body: string): string {
  const text = readFileSync(doc, 'utf8');
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${doc.pathname} needs the markers ${start} and ${end}`);
  return `${text.slice(0, a + start.length)}${body}${text.slice(b)}`;
}
