// Properties of the semantic diff (docs/semantic-diff.md), with fast-check on generated contracts
// (bench/generate.ts) and the samples: a contract compared with itself, or with a formatting-only
// rewrite of itself (test/helpers/reformat.ts), has no semantic change; any two texts compare
// without throwing.
// Run: node --import tsx --test test/diffProperties.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { diffContracts, parseContract } from '../server/src/service/index.ts';
import { generateContract, mulberry32 } from '../bench/generate.ts';
import { REFORMATS } from './helpers/reformat.ts';
import { REPO } from './helpers/cli.ts';
import { RUNS } from './helpers/properties.ts';

const SAMPLES = readdirSync(join(REPO, 'samples'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => readFileSync(join(REPO, 'samples', d.name, 'AGENTS.md'), 'utf8'));

const contract = fc.oneof(
  { weight: 3, arbitrary: fc.record({ seed: fc.integer({ min: 1, max: 1_000_000 }), lines: fc.integer({ min: 0, max: 400 }) }).map(({ seed, lines }) => generateContract(lines, seed)) },
  { weight: 1, arbitrary: fc.constantFrom(...SAMPLES) },
);

const summary = (text: string, other: string) =>
  diffContracts(parseContract(text), parseContract(other))
    .changes.map((c) => `${c.reasonId} ${c.identity}: ${c.message}`)
    .slice(0, 5);

test('a contract compared with itself has no change (two separate parses)', () => {
  fc.assert(
    fc.property(contract, (text) => {
      assert.deepEqual(summary(text, text), []);
    }),
    { numRuns: RUNS(60) },
  );
});

test('a contract compared with a formatting-only rewrite of itself has no change', () => {
  const names = Object.keys(REFORMATS);
  fc.assert(
    fc.property(contract, fc.subarray(names, { minLength: 1 }), fc.integer(), (text, chosen, seed) => {
      const rng = mulberry32(seed);
      const rewritten = chosen.reduce((t, name) => REFORMATS[name]!(t, rng), text);
      assert.deepEqual(summary(text, rewritten), [], `after ${chosen.join(', ')}`);
    }),
    { numRuns: RUNS(150) },
  );
});

test('any two texts compare without throwing, and changes have both sides', () => {
  const nasty = fc.oneof(
    contract,
    fc.string({ maxLength: 300 }),
    fc.array(fc.constantFrom('## TOOLS\n', '### a\n', '- **Name**: x\n', '```yaml\n', 'tools: 3\n', '```\n', '| a | b |\n', '|---|---|\n', '---\n', 'version: 1\n', '## HUMAN_IN_THE_LOOP\n', '- ❌ Never\n', '{}\n'), { maxLength: 40 }).map((xs) => xs.join('')),
  );
  fc.assert(
    fc.property(nasty, nasty, (a, b) => {
      const diff = diffContracts(parseContract(a), parseContract(b));
      for (const c of diff.changes) assert.ok(c.before.range && c.after.range && c.message, c.id);
    }),
    { numRuns: RUNS(300) },
  );
});
