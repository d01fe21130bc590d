// The trace reader's line splitter (server/src/node/lineReader.ts): the same lines as splitting the
// whole text, whatever the chunk size (lines across reads, CRLF, a BOM, no final newline, UTF-8
// across a read), a line over the limit skipped and counted without being held, and a stop.
// Run: node --import tsx --test test/lineReader.test.ts
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { eachLine } from '../server/src/node/lineReader.ts';

const dir = mkdtempSync(join(tmpdir(), 'agents-md-lines-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (text: string | Buffer) => {
  const path = join(dir, `f${n++}`);
  writeFileSync(path, text);
  return path;
};
const read = async (path: string, max: number, chunk: number) => {
  const lines: [string, number][] = [];
  const stats = await eachLine(path, max, (text, line) => void lines.push([text, line]), chunk);
  return { lines, stats };
};
/** What splitting the whole text gives (a final newline ends the last line, it does not start one). */
const expected = (text: string) => {
  const parts = text.replace(/^\uFEFF/, '').split('\n');
  if (parts.at(-1) === '') parts.pop();
  return parts.map((p, i): [string, number] => [p.replace(/\r$/, ''), i + 1]);
};

test('the same lines as splitting the whole text, for any chunk size', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('', '\r', '你好', '{"a":1}')), { maxLength: 12 }), fc.boolean(), fc.boolean(), fc.integer({ min: 1, max: 17 }), async (parts, bom, finalNewline, chunk) => {
      const text = `${bom ? '\uFEFF' : ''}${parts.join('\n')}${finalNewline && parts.length > 0 ? '\n' : ''}`;
      const { lines, stats } = await read(file(text), 1 << 20, chunk);
      assert.deepEqual(lines, expected(text));
      assert.equal(stats.tooLong, 0);
    }),
    { numRuns: 200 },
  );
});

test('a line over the limit is skipped and counted, the lines around it keep their numbers', async () => {
  const text = `short\n${'x'.repeat(100)}\r\nafter\n${'y'.repeat(50)}`;
  for (const chunk of [3, 16, 1024]) {
    const { lines, stats } = await read(file(text), 40, chunk);
    assert.deepEqual(lines, [['short', 1], ['after', 3]], `chunk ${chunk}`);
    assert.equal(stats.tooLong, 2);
  }
});

test('onLine returning false stops the reading', async () => {
  const seen: string[] = [];
  await eachLine(file('a\nb\nc\n'), 100, (t) => (seen.push(t), t !== 'b'), 2);
  assert.deepEqual(seen, ['a', 'b']);
});

test('a missing file rejects with its errno code', async () => {
  await assert.rejects(eachLine(join(dir, 'none'), 100, () => undefined), { code: 'ENOENT' });
});
