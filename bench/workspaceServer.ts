/**
 * The language server at workspace scale (`npm run bench`, part of bench/workspace.ts; alone:
 * `node --import tsx bench/workspaceServer.ts 1000 5000 --timeout=3000`, the timeout in seconds, 300
 * by default): the bundled server on stdio over a generated
 * workspace of N contracts on disk (bench/generateWorkspace.ts), none open. One
 * `workspace/diagnostic` pull from cold, with a partial result token as VS Code sends it; while it
 * runs, a `workspace/symbol` request sent 500 ms after the pull and a hover on an open document.
 * Prints the pull's wall time, when its first partial result came, the latency of the requests sent
 * meanwhile and the server's peak RSS (VmHWM). One run per size; never fails the build.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LspClient } from '../test/helpers/lspClient.ts';
import { generateWorkspace } from './generateWorkspace.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const fmt = (x: number) => x.toFixed(0).padStart(9);
const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function measure(serverPath: string, n: number, timeoutMs: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agents-md-bench-wsd-'));
  const client = new LspClient(serverPath);
  try {
    for (const [p, c] of Object.entries(generateWorkspace(n))) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), c);
    }
    const wsUri = pathToFileURL(dir).href;
    await client.initialize(wsUri, true);
    const open = `${wsUri}/open/AGENTS.md`;
    await client.open(open, '# Open\n\n## IDENTITY\n\n- **Name**: OpenOne\n');
    let firstPartial = -1;
    let partials = 0;
    const t0 = performance.now();
    client.connection.onProgress({ method: 'workspace/diagnostic' } as never, 'bench-partial', () => {
      partials++;
      if (firstPartial < 0) {
        firstPartial = performance.now() - t0;
        console.log(`  (first partial result after ${(firstPartial / 1000).toFixed(1)} s)`);
      }
    });
    const pull = client.connection.sendRequest('workspace/diagnostic', { previousResultIds: [], partialResultToken: 'bench-partial' }).then(() => performance.now() - t0);
    await new Promise((r) => setTimeout(r, 500));
    const s0 = performance.now();
    const answered = (what: string) => () => {
      const ms = performance.now() - s0;
      console.log(`  (${what} answered after ${(ms / 1000).toFixed(2)} s)`);
      return ms;
    };
    const symbol = client.connection.sendRequest('workspace/symbol', { query: 'Agent1' }).then(answered('workspace/symbol'));
    const hover = client.connection.sendRequest('textDocument/hover', { textDocument: { uri: open }, position: { line: 4, character: 5 } }).then(answered('hover'));
    const timeout = new Promise<number>((r) => setTimeout(r, timeoutMs, -1).unref());
    const [total, symbolMs, hoverMs] = await Promise.all([Promise.race([pull, timeout]), Promise.race([symbol, timeout]), Promise.race([hover, timeout])]);
    const show = (x: number) => (x < 0 ? `  > ${timeoutMs / 1000} s` : fmt(x));
    console.log(`${`${n} contracts: workspace/diagnostic, cold (ms)`.padEnd(56)}${show(total)}`);
    console.log(`${`${n} contracts: first partial result (ms, ${partials} sent)`.padEnd(56)}${firstPartial < 0 ? '     none' : fmt(firstPartial)}`);
    console.log(`${`${n} contracts: workspace/symbol sent meanwhile (ms)`.padEnd(56)}${show(symbolMs)}`);
    console.log(`${`${n} contracts: hover sent meanwhile (ms)`.padEnd(56)}${show(hoverMs)}`);
    console.log(`${`${n} contracts: server peak RSS (MB)`.padEnd(56)}${fmt(peakRssMb(client.pid))}`);
    console.log(`${`${n} contracts: load average at the end`.padEnd(56)}${loadavg()[0]!.toFixed(1).padStart(9)}`);
  } finally {
    client.kill();
    client.connection.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Builds the server bundle into a temporary folder and measures each size. */
export async function workspaceServer(sizes: readonly number[], timeoutMs = 300_000): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), 'agents-md-bench-wss-'));
  try {
    execFileSync(process.execPath, ['esbuild.mjs', '--only', 'server', '--minify', '--outdir', out], { cwd: REPO });
    console.log(`\nLanguage server, workspace diagnostics over stdio (Node ${process.version}; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`);
    for (const n of sizes) await measure(join(out, 'server.cjs'), n, timeoutMs);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const sizes = args.map(Number).filter((x) => x > 0);
  const timeoutS = Number(/^--timeout=(\d+)$/.exec(args.find((a) => a.startsWith('--timeout=')) ?? '')?.[1] ?? 300);
  workspaceServer(sizes.length > 0 ? sizes : [1000], timeoutS * 1000).catch((e) => console.log(`bench error: ${String((e as Error)?.stack ?? e)}`));
}
