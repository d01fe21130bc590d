// `agents-md lint` over many contracts in worker threads (cli/lintPool.ts, docs/cli.md): the
// output, exit code and standard error are the single-threaded path's, byte for byte, in each format.
// Run: node --import tsx --test test/lintWorkers.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { useCliBundle } from './helpers/cli.ts';
import { generateWorkspace } from '../bench/generateWorkspace.ts';
import { lintInWorkers, workerCount } from '../server/src/cli/lintPool.ts';
import { lintFiles } from '../server/src/cli/lintFiles.ts';
import { createLanguageService } from '../server/src/service/index.ts';
import { recheckAnalyzer } from '../server/src/service/host.ts';
import { createNodeFileSystem, fileUri } from '../server/src/node/nodeFileSystem.ts';

const { bundle, scratch } = useCliBundle('lint-workers');

// 16 contracts that share pools, resources and names: cross-contract findings included.
const files = generateWorkspace(16);
files['broken/AGENTS.md'] = '---\ncontract: true\nname: broken\nversion: 1.0.0\n---\n## TOOLS\n\n### t\n\n- **Max Steps**: lots\n';

test('the bundle ships the worker beside the CLI', () => {
  assert.ok(existsSync(join(dirname(bundle.bin), '..', 'dist', 'lintWorker.cjs')));
});

test('lint with workers prints what lint on one thread prints, in each format', async () => {
  const ws = scratch.workspace(files);
  for (const format of ['json', 'text']) {
    const one = await bundle.runLong(ws, 300_000, 'lint', '--format', format, '--jobs', '1');
    const many = await bundle.runLong(ws, 300_000, 'lint', '--format', format, '--jobs', '2');
    assert.match(one.stdout, /broken/, `${format}: ${one.code} ${one.stderr}`);
    assert.equal(many.stdout, one.stdout, format);
    assert.equal(many.stderr, one.stderr, format);
    assert.equal(many.code, one.code, format);
  }
});

test('in process: the workers lint every file, in order, as the main thread does', async () => {
  const root = scratch.workspace(files);
  const paths = Object.keys(files).filter((f) => f.endsWith('AGENTS.md')).sort().map((f) => join(root, f));
  assert.ok(workerCount(paths.length, 3) >= 2);
  const options = { root, cwd: root, lang: 'en', boundToRoot: true, withModel: false };
  const threaded = await lintInWorkers(paths, 3, options);
  assert.ok(threaded, 'the workers ran');
  const service = createLanguageService({ fs: createNodeFileSystem(() => [root]), roots: [fileUri(root)], analyzeRegex: recheckAnalyzer });
  const single = await lintFiles(service, paths, (p) => p.slice(root.length + 1), 'en', root);
  const plain = (r: typeof single) => ({ ...r, reports: r.reports.map(({ path, uri, text, diagnostics }) => ({ path, uri, text, diagnostics })) });
  assert.deepEqual(plain(threaded), plain(single));
  assert.deepEqual(threaded.reports.map((r) => r.path), paths);
});
