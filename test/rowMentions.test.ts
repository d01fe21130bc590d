/**
 * The reference index per item (docs/performance.md, "Rules per item"): an edit in one row of a
 * HUMAN_IN_THE_LOOP table re-reads that row's mentions only (the other rows are the previous
 * objects: parse/tables.ts); the index then equals a fresh one.
 * Run: node --import tsx --test test/rowMentions.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseContract } from '../server/src/service/index.ts';
import { itemMentionReads, referencesOf } from '../server/src/service/model/references.ts';
import { editTableCell, generateContract } from '../bench/generate.ts';

test('a one-cell edit in a HITL row reads the mentions of that row only, and the index is as fresh', () => {
  const text = generateContract(2000, 3);
  const before = parseContract(text);
  referencesOf(before);
  const lines = text.split('\n');
  const hitl = lines.findIndex((l) => /^## (HUMAN_IN_THE_LOOP|Human)/i.test(l));
  const rows = (before.data['human_in_the_loop'] as unknown[]).length;
  assert.ok(rows >= 10, `${rows} rows`);
  const edit = editTableCell(text, hitl + 6, 1);
  const after = parseContract(edit.text, before);
  const n = itemMentionReads();
  const index = referencesOf(after);
  assert.equal(itemMentionReads() - n, 1, 'one row read again');
  const fresh = referencesOf(parseContract(edit.text));
  assert.deepEqual(JSON.parse(JSON.stringify(index)), JSON.parse(JSON.stringify(fresh)));
});
