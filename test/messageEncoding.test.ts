// The stdio writer's encoder (server/src/lsp/messageEncoding.ts) sends the value JSON.stringify
// would, and encodes a diagnostic it has sent before from its kept bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { StreamMessageReader, StreamMessageWriter, type Message } from 'vscode-languageserver/node.js';
import { encodeMessage, messageEncoder } from '../server/src/lsp/messageEncoding.ts';
import { RUNS } from './helpers/properties.ts';

const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '"', '\\', '→', '审批', '😀', '\n', '\u0000', '\ud800') });
const diagnostic = fc.record({
  range: fc.record({ start: fc.record({ line: fc.nat(), character: fc.nat() }), end: fc.record({ line: fc.nat(), character: fc.nat() }) }),
  severity: fc.constantFrom(1, 2, 3, 4),
  code: text,
  message: text,
  data: fc.jsonValue(),
});
const elements = fc.array(fc.oneof({ weight: 4, arbitrary: diagnostic }, { weight: 1, arbitrary: fc.jsonValue() }), { maxLength: 8 });
const messages: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.nat(), text), result: fc.record({ kind: fc.constant('full'), resultId: fc.option(text, { nil: undefined }), items: elements }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constant('textDocument/publishDiagnostics'), params: fc.record({ uri: text, version: fc.option(fc.nat(), { nil: undefined }), diagnostics: elements }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(), result: fc.record({ kind: fc.constant('unchanged'), resultId: text }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: text, params: fc.jsonValue() }),
) as fc.Arbitrary<Message>;

test('message encoding: every message reads back as the value JSON.stringify gives, twice in a row', () => {
  fc.assert(
    fc.property(messages, (msg) => {
      const expected = JSON.parse(JSON.stringify(msg));
      assert.deepEqual(JSON.parse(encodeMessage(msg).toString('utf8')), expected);
      // The second time from the kept bytes of each diagnostic.
      assert.deepEqual(JSON.parse(encodeMessage(msg).toString('utf8')), expected);
    }),
    { numRuns: RUNS(400) },
  );
});

test('message encoding: a diagnostic sent before is not stringified again', (t) => {
  const items = Array.from({ length: 50 }, (_, i) => ({ range: { start: { line: i, character: 0 }, end: { line: i, character: 4 } }, severity: 1, code: 'hitl-needs-fallback', message: `Scenario ${i} → 审批` }));
  encodeMessage({ jsonrpc: '2.0', id: 1, result: { kind: 'full', resultId: 'd1', items } } as Message);
  const stringify = t.mock.method(JSON, 'stringify');
  const edited = { ...items[7]!, message: 'Scenario 7 edited → 审批' };
  const next = [...items.slice(0, 7), edited, ...items.slice(8)];
  const bytes = encodeMessage({ jsonrpc: '2.0', id: 2, result: { kind: 'full', resultId: 'd2', items: next } } as Message);
  const strung = stringify.mock.calls.map((c) => c.arguments[0]);
  assert.ok(strung.includes(edited), 'the new diagnostic is encoded');
  assert.equal(strung.filter((v) => items.includes(v as (typeof items)[number])).length, 0, 'no diagnostic sent before is encoded again');
  stringify.mock.restore();
  assert.deepEqual(JSON.parse(bytes.toString('utf8')).result.items, next);
});

test('message encoding: a report written by the stdio writer is read back by the stdio reader', async () => {
  const pipe = new PassThrough();
  const writer = new StreamMessageWriter(pipe, { contentTypeEncoder: messageEncoder });
  const reader = new StreamMessageReader(pipe);
  const got = new Promise<Message>((resolve) => reader.listen(resolve));
  const report = { jsonrpc: '2.0', id: 9, result: { kind: 'full', resultId: 'd9', items: [{ range: { start: { line: 1, character: 2 }, end: { line: 1, character: 8 } }, message: '人工复核审批 → Auto-reject 😀' }] } } as Message;
  await writer.write(report);
  assert.deepEqual(await got, report);
  reader.dispose();
  writer.dispose();
});
