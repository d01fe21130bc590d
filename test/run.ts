/**
 * `npm run test:all`: every test, as CI runs it (.ci/run, after `npm test`). Builds the CLI and
 * server bundles once for the run (helpers/bundles.ts), then runs node's test runner over the
 * quick loop at full property scale (test/quick.ts, FC_RUNS_SCALE=1) and every process suite
 * (test/suites.ts), one process each, two files at a time. Arguments go to node (`-- --test-name-pattern=…`), except
 * `--process-suites`: the process suites alone (.ci/run, which has run `npm test` at full scale).
 * Run: node --import tsx test/run.ts
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { buildBundles, repo } from './helpers/bundles.ts';
import { PROCESS_SUITES } from './suites.ts';

const dir = join(repo, 'test-results', `run-${process.pid}`);
let status = 1;
try {
  buildBundles(dir);
  const env = { ...process.env, AGENTS_MD_TEST_BUNDLE: dir, FC_RUNS_SCALE: process.env['FC_RUNS_SCALE'] ?? '1' };
  const processOnly = process.argv.includes('--process-suites');
  const nodeArgs = process.argv.slice(2).filter((a) => a !== '--process-suites');
  // Two files at a time even on two cores (node's default there is one): a process suite mostly
  // waits on the CLI or server it started, so a second file uses the other core meanwhile.
  const concurrency = `--test-concurrency=${Math.max(2, availableParallelism())}`;
  const args = ['--import', 'tsx', '--test', concurrency, '--test-reporter=spec', ...nodeArgs, ...(processOnly ? [] : ['test/quick.ts']), ...PROCESS_SUITES];
  status = spawnSync(process.execPath, args, { cwd: repo, env, stdio: 'inherit' }).status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
