/**
 * Benchmarks of the workspace (`npm run bench`, after bench/server.ts), on generated workspaces of
 * 50 and 500 contracts (bench/generateWorkspace.ts):
 *   - index: every contract linted through one language service over an in-memory file system
 *     (parse, the digests of all other contracts, the cross-contract rules), cold;
 *   - one edit: a contract changes (`invalidate(uri, 'changed')`) and is linted again, the
 *     other contracts' digests reused;
 *   - report: `buildReport` over the linted contracts and snapshots, and its HTML;
 *   - the real CLI, `agents-md report -f html` on the workspace written to disk (one run, wall
 *     time), in one thread (`--jobs 1`) and on every core (the default from 16 contracts on);
 *   - the language server over 1,000 contracts on disk: workspace diagnostics, partial results,
 *     requests answered meanwhile, peak RSS (bench/workspaceServer.ts).
 * Prints medians and p95 in ms; never fails the build.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildReport, createLanguageService, readSnapshot, reportHtml, type LintResult } from '../server/src/service/index.ts';
import { memoryFs } from '../test/helpers/memoryFs.ts';
import { contractPath, generateWorkspace } from './generateWorkspace.ts';
import { workspaceServer } from './workspaceServer.ts';

const ROOT = 'file:///ws';
const REPO = fileURLToPath(new URL('..', import.meta.url));

function stats(xs: number[]): { median: number; p95: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[s.length >> 1]!, p95: s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]! };
}
const fmt = (x: number) => x.toFixed(1).padStart(9);

async function lintAll(n: number, files: Record<string, string>) {
  const service = createLanguageService({ fs: memoryFs(files), roots: [ROOT] });
  const results: LintResult[] = [];
  for (let i = 0; i < n; i++) {
    const uri = `${ROOT}/${contractPath(i)}`;
    results.push(await service.lintBytes(uri, new TextEncoder().encode(files[uri]!)));
  }
  return { service, results };
}

async function bench(n: number, iterations: number): Promise<void> {
  const files = Object.fromEntries(Object.entries(generateWorkspace(n)).map(([p, c]) => [`${ROOT}/${p}`, c]));
  const index: number[] = [];
  const edit: number[] = [];
  const report: number[] = [];
  let heap = 0;
  for (let it = 0; it < iterations; it++) {
    let t = performance.now();
    const { service, results } = await lintAll(n, files);
    index.push(performance.now() - t);
    heap = Math.max(heap, process.memoryUsage().heapUsed);
    const uri = `${ROOT}/${contractPath(it % n)}`;
    t = performance.now();
    service.workspace.invalidate(uri, 'changed');
    await service.lintBytes(uri, new TextEncoder().encode(`${files[uri]!}\n<!-- edited ${it} -->\n`));
    edit.push(performance.now() - t);
    t = performance.now();
    const contracts = results.map((r, i) => ({ uri: r.uri, path: contractPath(i), model: r.model!, diagnostics: r.diagnostics }));
    const snapshots = Object.entries(files)
      .filter(([p]) => p.endsWith('.snapshot.yaml'))
      .map(([p, text]) => ({ path: p, contractUri: p.replace(/snapshots\/main\.snapshot\.yaml$/, 'AGENTS.md'), snapshot: readSnapshot(text).snapshot! }));
    reportHtml(buildReport(contracts, snapshots));
    report.push(performance.now() - t);
  }
  const row = (name: string, xs: number[]) => {
    const s = stats(xs);
    console.log(`${name.padEnd(52)}${fmt(s.median)}${fmt(s.p95)}`);
  };
  row(`index: lint ${n} contracts, cold`, index);
  row(`one edit: re-lint 1 of ${n}, others' digests cached`, edit);
  row(`report: build + HTML over ${n} contracts`, report);
  console.log(`${'heap used after indexing (MB)'.padEnd(52)}${fmt(heap / 1e6)}`);
}

function cliRun(n: number): void {
  const bin = join(REPO, 'bin', 'agents-md.cjs');
  if (!existsSync(join(REPO, 'dist', 'cli.cjs'))) {
    console.log(`agents-md report over ${n} contracts: skipped (dist/cli.cjs missing: npm run build)`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'agents-md-bench-ws-'));
  try {
    for (const [p, c] of Object.entries(generateWorkspace(n))) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), c);
    }
    for (const [label, jobs] of [['1 thread', ['--jobs', '1']], [`${availableParallelism()} cores`, []]] as const) {
      const t = performance.now();
      execFileSync(process.execPath, [bin, 'report', '-f', 'html', '-o', 'report.html', ...jobs], { cwd: dir, stdio: 'ignore' });
      console.log(`${`agents-md report, ${n} contracts, ${label} (wall, ms)`.padEnd(52)}${fmt(performance.now() - t)}`);
    }
  } catch (e) {
    console.log(`agents-md report over ${n} contracts: error ${String((e as Error).message).split('\n')[0]}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log('');
  console.log(`Workspace (generated contracts sharing pools, resources and tools; Node ${process.version}; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`);
  console.log(`${'case'.padEnd(52)}${'median'.padStart(9)}${'p95'.padStart(9)}`);
  await bench(50, 5);
  await bench(500, 2);
  cliRun(50);
  cliRun(500);
  await workspaceServer([1000]);
}

main().catch((e) => {
  console.log(`bench error: ${String((e as Error)?.stack ?? e)}`);
});
