// The summary store's shape check (server/src/node/summaryShape.ts): every summary the service
// makes passes it (else the store would never be used), and the damages a tester made to a store
// entry, with its checksum recomputed, do not (each crashed lint or report, or made rules fail).
// Run: node --import tsx --test test/summaryShape.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseContract } from '../server/src/service/index.ts';
import { summarise } from '../server/src/service/workspace/contractSummary.ts';
import { isContractSummary } from '../server/src/node/summaryShape.ts';
import { repo } from './helpers/bundles.ts';

const markdown = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? markdown(p) : p.endsWith('.md') ? [p] : [];
  });
const files = [...markdown(join(repo, 'samples')), ...markdown(join(repo, 'test', 'corpus'))];
const summaries = files.map((path) => ({ path, summary: JSON.parse(JSON.stringify(summarise(parseContract(readFileSync(path, 'utf8')), `file://${path}`, path))) as Record<string, any> }));

test('every summary the service makes has the shape', () => {
  assert.ok(summaries.filter((s) => s.summary['digest']).length >= 40, `${summaries.length} files`);
  for (const { path, summary } of summaries) assert.ok(isContractSummary(summary), path);
});

test('the damages that broke lint and report do not have it', () => {
  const withDigest = summaries.find((s) => s.summary['digest']?.pools.length > 0 && s.summary['pools'].length > 0)!.summary;
  const damages: [string, (s: Record<string, any>) => void][] = [
    ['pools null', (s) => (s['pools'] = null)],
    ['agents a number', (s) => (s['agents'] = 3)],
    ['pools [null]', (s) => (s['pools'] = [null])],
    ['a pool without its range', (s) => delete s['pools'][0].range],
    ['digest null', (s) => (s['digest'] = null)],
    ['digest a string', (s) => (s['digest'] = 'x')],
    ['digest.pools null', (s) => (s['digest'].pools = null)],
    ['digest.pools [null]', (s) => (s['digest'].pools = [null])],
    ['digest.tools a string', (s) => (s['digest'].tools = 'x')],
    ['digest.resources a string', (s) => (s['digest'].resources = 'x')],
    ['a lifecycle a number', (s) => (s['digest'].pools[0].lifecycle = 5)],
    ['digest.path null', (s) => (s['digest'].path = null)],
    ['a position a string', (s) => (s['pools'][0].range.start.line = '1')],
  ];
  for (const [what, damage] of damages) {
    const copy = structuredClone(withDigest);
    damage(copy);
    assert.equal(isContractSummary(copy), false, what);
  }
  assert.equal(isContractSummary(JSON.parse('{"__proto__": {"pools": [], "agents": []}}')), false, '__proto__');
});
