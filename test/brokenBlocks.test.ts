/**
 * One mistake, one message (docs/contract-format.md §4.3): each `yaml`/`json` block of authors'
 * contracts (the independent corpus) broken in turn gets its syntax error, and none of the
 * findings that judge what the broken block would have declared.
 * Run: node --import tsx --test test/brokenBlocks.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lintExample } from './helpers/lintExample.ts';
import { repo } from './helpers/bundles.ts';

/** Rules that stay quiet beside a block that does not parse (the ones §4.3 names). */
const QUIET = new Set(['duplicate-key', 'tool-missing-schema', 'budgets-incomplete', 'undeclared-tool', 'template-unknown-entity', 'unknown-pool', 'write-role-unauthorized', 'hitl-needs-fallback']);
const CONTRACTS = ['writerA/clean/hospital-scheduling.agents.md', 'writerA/clean/b2b-support-triage.agents.md', 'writerA/clean/invoice-matching.agents.md', 'writerB/clean/logistics-exceptions.agents.md'];

test('every block of four authors\' contracts, broken in turn, gets its syntax error and nothing it explains', async () => {
  let broken = 0;
  for (const file of CONTRACTS) {
    const lines = readFileSync(join(repo, 'test/corpus/independent', file), 'utf8').split('\n');
    const before = new Set((await lintExample(lines.join('\n'))).diagnostics.map((d) => `${d.code} ${d.message}`));
    for (let i = 0; i < lines.length; i++) {
      const fence = /^(\s*)```(yaml|json)\s*$/.exec(lines[i]!);
      if (!fence) continue;
      const bad = fence[2] === 'json' ? [`${fence[1]}{"broken": `] : [`${fence[1]}a: b`, `${fence[1]}  - c: [`];
      const found = (await lintExample([...lines.slice(0, i + 1), ...bad, ...lines.slice(i + 1)].join('\n'))).diagnostics;
      assert.ok(found.some((d) => d.code === `${fence[2]}-syntax`), `${file}:${i + 1}: the block's syntax error`);
      const explained = found.filter((d) => QUIET.has(String(d.code)) && !before.has(`${d.code} ${d.message}`));
      assert.deepEqual(explained.map((d) => `${d.code} ${d.range.start.line + 1}: ${d.message}`), [], `${file}:${i + 1}`);
      broken++;
    }
  }
  assert.ok(broken >= 20, `blocks broken: ${broken}`);
});
