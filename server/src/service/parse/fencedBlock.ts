import type { Root } from 'mdast';
import { endPoint } from './points.ts';
import { closesFence } from './lineSyntax.ts';

/** An opening fence with a plain language word or none: no escapes, entities, meta or indentation. */
const OPENER = /^(`{3,}|~{3,})([A-Za-z0-9_+#.-]*)$/;

/**
 * The tree remark gives for a block that is exactly one fenced code block (an unindented fence
 * with a plain language word, its closing fence alone on the last non-empty line), built
 * without remark; undefined for anything else, which remark parses. A large YAML or JSON fence
 * is the most common big block of a contract, and micromark reads it character by character
 * (a 1,000-line fence took 23 ms on every keystroke inside it). test/incremental.test.ts checks
 * that this equals remark on generated and random fences.
 */
export function fencedBlock(text: string): Root | undefined {
  if (text.includes('\r') || text.includes('\0')) return undefined;
  const lines = text.split('\n');
  let last = lines.length - 1;
  while (last > 0 && lines[last] === '') last--;
  const open = OPENER.exec(lines[0]!);
  if (!open || last < 1) return undefined;
  const marker = open[1]!;
  const closer = lines[last]!;
  if (!closesFence(closer, marker[0]!, marker.length) || closer.length !== closer.trimEnd().length) return undefined;
  // A line inside that would already close the fence: remark ends the block there.
  for (let i = 1; i < last; i++) if (closesFence(lines[i]!, marker[0]!, marker.length)) return undefined;
  let end = 0;
  for (let i = 0; i <= last; i++) end += lines[i]!.length + 1;
  end -= 1;
  return {
    type: 'root',
    children: [
      {
        type: 'code',
        lang: open[2] || null,
        meta: null,
        value: lines.slice(1, last).join('\n'),
        position: { start: { line: 1, column: 1, offset: 0 }, end: { line: last + 1, column: closer.length + 1, offset: end } },
      },
    ],
    position: { start: { line: 1, column: 1, offset: 0 }, end: endPoint(text) },
  };
}
