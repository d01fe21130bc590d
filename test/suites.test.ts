/**
 * The split between `npm test` and `npm run test:all` (test/suites.ts) stays true: the quick loop
 * starts no process but its smoke tests, and every process suite listed exists (so that it runs in
 * CI; a file renamed without its entry here would silently move to the quick loop).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repo } from './helpers/bundles.ts';
import { PROCESS_SUITES, quickTestFiles } from './suites.ts';

/** What a test file writes to start a process: the CLI, the server, or any child process but git. */
const STARTS_A_PROCESS = /\b(useCliBundle\(|serverBundle\(|useSampleServer\(|new CliUnderTest|new LspClient|spawn(Sync)?\(|execFile(Sync)?\((?!'git')|fork\()/;

test('the quick loop (npm test) starts processes only in its smoke tests', () => {
  const starting = quickTestFiles().filter((f) => f !== 'test/smoke.test.ts' && f !== 'test/suites.test.ts' && STARTS_A_PROCESS.test(readFileSync(join(repo, f), 'utf8')));
  assert.deepEqual(starting, [], 'list these files in PROCESS_SUITES (test/suites.ts): they run in npm run test:all');
});

test('every process suite listed exists', () => {
  assert.deepEqual(PROCESS_SUITES.filter((f) => !existsSync(join(repo, f))), []);
});
