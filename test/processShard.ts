/**
 * One worker of `npm run test:all`'s process suites (test/run.ts): it takes the next file from a
 * queue folder it shares with the other workers (`AGENTS_MD_TEST_QUEUE`, one entry per file,
 * taken by renaming it) and runs it in a suite named after it, until the queue is empty. So tsx,
 * the helpers and the service load once per worker rather than once per file (about 2 s of CPU
 * each), and a worker that finishes early takes more files while the other runs a long one.
 */
import { describe } from 'node:test';
import { readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repo } from './helpers/bundles.ts';

const queue = process.env['AGENTS_MD_TEST_QUEUE'];
if (!queue) throw new Error('AGENTS_MD_TEST_QUEUE is not set: run the process suites with npm run test:all');

/** The next file of the queue, taken from it; undefined when none is left. */
function take(dir: string): string | undefined {
  for (const entry of readdirSync(dir).filter((n) => n.endsWith('.next')).sort()) {
    const taken = join(dir, `${entry.slice(0, -'.next'.length)}.${process.pid}`);
    try {
      renameSync(join(dir, entry), taken);
    } catch {
      continue; // another worker took it first
    }
    return readFileSync(taken, 'utf8');
  }
  return undefined;
}

for (let file = take(queue); file !== undefined; file = take(queue)) {
  const url = pathToFileURL(join(repo, file)).href;
  await describe(file, async () => {
    await import(url);
  });
}
