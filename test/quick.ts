/**
 * `npm test`'s tests in one process (node 20 has no --test-isolation=none): every test file but
 * the process suites (test/suites.ts), each in a suite named after it, so tsx and the service are
 * loaded once. Property tests run at a quarter of their scale here (FC_RUNS_SCALE, which
 * `npm run test:all` sets to 1). Run: node --import tsx --test --test-reporter=spec test/quick.ts
 */
import { describe } from 'node:test';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { repo } from './helpers/bundles.ts';
import { quickTestFiles } from './suites.ts';

process.env['FC_RUNS_SCALE'] ??= '0.25';

for (const file of quickTestFiles()) {
  describe(file, async () => {
    await import(pathToFileURL(join(repo, file)).href);
  });
}
