// The line index maps offsets to LSP positions for every text the server reads: line breaks are
// `\r\n`, `\n` or `\r`, as LSP defines them, whichever way the index finds them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineIndex } from '../server/src/service/text/lineIndex.ts';
import { RUNS } from './helpers/properties.ts';

/** Each line's start offset, read from the text by a regular expression. */
function starts(text: string): number[] {
  const out = [0];
  for (const m of text.matchAll(/\r\n|\r|\n/g)) out.push(m.index + m[0].length);
  return out;
}

test('line index: every line starts where the line breaks say, with and without carriage returns', () => {
  const texts = fc.oneof(
    fc.array(fc.constantFrom('a', 'é', '😀', '\n', ' '), { maxLength: 60 }).map((xs) => xs.join('')),
    fc.array(fc.constantFrom('a', '\n', '\r', '\r\n', '😀'), { maxLength: 60 }).map((xs) => xs.join('')),
  );
  fc.assert(
    fc.property(texts, (text) => {
      const index = new LineIndex(text);
      const expected = starts(text);
      assert.equal(index.lineCount, expected.length);
      expected.forEach((start, line) => assert.equal(index.lineStart(line), start, `line ${line} of ${JSON.stringify(text)}`));
      for (let o = 0; o <= text.length; o++) {
        const line = expected.filter((s) => s <= o).length - 1;
        assert.equal(index.positionAt(o).line, line, `offset ${o} of ${JSON.stringify(text)}`);
      }
    }),
    { numRuns: RUNS(300) },
  );
});
