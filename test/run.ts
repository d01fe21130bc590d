/**
 * `npm run test:all`: every test, as CI runs it (.ci/run, after `npm test`). Builds the CLI and
 * server bundles once for the run (helpers/bundles.ts), then runs node's test runner over the
 * quick loop at full property scale (test/quick.ts, FC_RUNS_SCALE=1) and the process suites
 * (test/suites.ts). These run in as many workers as the machine has cores (two at least; a
 * process suite mostly waits on the CLI or server it started): each worker (test/processShard.ts)
 * takes the next file from a queue, largest files first, so tsx and the service load once per
 * worker rather than once per file. Arguments go to node (`-- --test-name-pattern=…`), except
 * `--process-suites`: the process suites alone (.ci/run, which has run `npm test` at full scale).
 * Run: node --import tsx test/run.ts
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildBundles, repo } from './helpers/bundles.ts';
import { PROCESS_SUITES } from './suites.ts';

const dir = join(repo, 'test-results', `run-${process.pid}`);
let status = 1;
try {
  buildBundles(dir);
  const queue = join(dir, 'queue');
  const env = { ...process.env, AGENTS_MD_TEST_BUNDLE: dir, AGENTS_MD_TEST_QUEUE: queue, FC_RUNS_SCALE: process.env['FC_RUNS_SCALE'] ?? '1' };
  const processOnly = process.argv.includes('--process-suites');
  const nodeArgs = process.argv.slice(2).filter((a) => a !== '--process-suites');
  const workers = Math.max(2, availableParallelism());
  const args = ['--import', 'tsx', '--test', `--test-concurrency=${workers}`, '--test-reporter=spec', ...nodeArgs, ...(processOnly ? [] : ['test/quick.ts']), ...processWorkers(dir, queue, workers)];
  status = spawnSync(process.execPath, args, { cwd: repo, env, stdio: 'inherit' }).status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);

/**
 * The process suites' `queue` (one entry per file, named so that the largest file comes first)
 * and `count` worker files in `dir` for node's test runner, each importing test/processShard.ts.
 */
function processWorkers(dir: string, queue: string, count: number): string[] {
  mkdirSync(queue, { recursive: true });
  const bySize = [...PROCESS_SUITES].sort((a, b) => statSync(join(repo, b)).size - statSync(join(repo, a)).size);
  bySize.forEach((file, i) => writeFileSync(join(queue, `${String(i).padStart(4, '0')}.next`), file));
  const shard = pathToFileURL(join(repo, 'test', 'processShard.ts')).href;
  return Array.from({ length: count }, (_, i) => {
    const worker = join(dir, `process-suites-${i + 1}.mjs`);
    writeFileSync(worker, `import ${JSON.stringify(shard)};\n`);
    return worker;
  });
}
