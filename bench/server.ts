/**
 * Benchmarks of the language server over real stdio (`npm run bench`, after bench/run.ts): the
 * bundled server is spawned and driven by a JSON-RPC client, as an editor drives it.
 *
 *   - didChange → diagnostics: a one-line edit in a table cell of the generated 2,000-line
 *     contract, then a pull-diagnostics request; time from sending didChange to the answer
 *     (target: p95 under 50 ms);
 *   - hover and completion latency on that document (completion target: under 20 ms);
 *   - server memory (RSS) with one large contract right after the edits and at rest (10 s without
 *     a request), and with 50 contracts open (target: under 150 MB at rest), the server started with the VS Code client's flags (server/src/lsp/execArgv.ts);
 *   - bundle sizes.
 * Prints medians and p95; never fails the build.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LspClient } from '../test/helpers/lspClient.ts';
import { SERVER_EXEC_ARGV } from '../server/src/lsp/execArgv.ts';
import { editTableCell, findLines, generateContract } from './generate.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const N = 50;

function stats(xs: number[]): { median: number; p95: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[s.length >> 1]!, p95: s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]! };
}
const fmt = (x: number) => x.toFixed(1).padStart(8);
const row = (name: string, xs: number[], target?: number) => {
  const { median, p95 } = stats(xs);
  const verdict = target === undefined ? '' : p95 <= target ? `   target p95 <= ${target} ms: met` : `   target p95 <= ${target} ms: target missed`;
  console.log(`${name.padEnd(44)}${fmt(median)}${fmt(p95)}${verdict}`);
};

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** What each child process of the server is, by its bundle. */
const CHILDREN: Readonly<Record<string, string>> = { 'regexWorker.cjs': 'the ReDoS analysis process', 'tokenWorker.cjs': 'the token process' };

/** RSS of the server's child processes (the ReDoS analysis and the token counts, each while it runs), by what they are. */
function childrenRss(pid: number): { readonly name: string; readonly mb: number }[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  return children.map((c) => {
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${c}/cmdline`, 'utf8');
    } catch {
      // Ended meanwhile.
    }
    const bundle = Object.keys(CHILDREN).find((b) => cmdline.includes(b));
    return { name: bundle ? CHILDREN[bundle]! : 'another process', mb: cmdline ? rssMb(Number(c)) : 0 };
  });
}

async function main(): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), 'agents-md-bench-'));
  execFileSync(process.execPath, ['esbuild.mjs', '--only', 'server', '--minify', '--outdir', out], { cwd: ROOT });
  // Started with the flags the VS Code client gives it (server/src/lsp/execArgv.ts).
  const client = new LspClient(join(out, 'server.cjs'), SERVER_EXEC_ARGV);
  try {
    const wsUri = pathToFileURL(out).href;
    await client.initialize(wsUri, true);
    const uri = `${wsUri}/big/AGENTS.md`;
    let text = generateContract(2000, 1);
    await client.open(uri, text, 1);
    await client.pullDiagnostics(uri);

    console.log(`\nLanguage server over stdio (bundled, minified), ${N} samples each\n${''.padEnd(44)}  median     p95  (ms)`);
    const change: number[] = [];
    const cellLines = findLines(text, /^\| /);
    for (let i = 0; i < N + 5; i++) {
      const edit = editTableCell(text, cellLines[(i * 7) % cellLines.length], i);
      const line = edit.line;
      const newLine = edit.text.split('\n')[line]!;
      const t0 = performance.now();
      await client.change(uri, i + 2, [{ range: { start: { line, character: 0 }, end: { line, character: text.split('\n')[line]!.length } }, text: newLine }]);
      await client.pullDiagnostics(uri);
      if (i >= 5) change.push(performance.now() - t0);
      text = edit.text;
    }
    row('didChange (one line) → diagnostics', change, 50);

    const lines = text.split('\n');
    const labelLine = lines.findIndex((l) => /^- \*\*Side Effects\*\*/.test(l));
    const hover: number[] = [];
    const completion: number[] = [];
    for (let i = 0; i < N + 5; i++) {
      const t0 = performance.now();
      await client.request('textDocument/hover', { textDocument: { uri }, position: { line: labelLine, character: 6 } });
      const t1 = performance.now();
      await client.request('textDocument/completion', { textDocument: { uri }, position: { line: labelLine, character: lines[labelLine]!.length } });
      const t2 = performance.now();
      if (i >= 5) {
        hover.push(t1 - t0);
        completion.push(t2 - t1);
      }
    }
    row('hover', hover);
    row('completion', completion, 20);

    const typing = rssMb(client.pid);
    // At rest: no request for 10 s (V8 gives back what the edits left; the ReDoS child ends).
    await new Promise((r) => setTimeout(r, 10_000));
    const before = rssMb(client.pid);
    const analysisBefore = childrenRss(client.pid);
    // The token-cost lens on TOOLS waits for its counts: the token process runs again if it had ended (docs/performance.md).
    await client.request('textDocument/codeLens', { textDocument: { uri } });
    const withLens = rssMb(client.pid);
    const lensChildren = childrenRss(client.pid);
    for (let i = 0; i < 50; i++) {
      const u = `${wsUri}/c${i}/AGENTS.md`;
      await client.open(u, generateContract(150 + (i % 10) * 50, 100 + i));
      await client.pullDiagnostics(u);
    }
    const peak = rssMb(client.pid);
    const analysisPeak = childrenRss(client.pid);
    // The ReDoS analysis (recheck) and the token counts run in child processes that end after 5 s idle.
    await new Promise((r) => setTimeout(r, 7000));
    const after = rssMb(client.pid);
    const analysis = (children: readonly { name: string; mb: number }[]) => (children.length ? `(${children.map((c) => `+ ${fmt(c.mb).trim()} MB in ${c.name}`).join(', ')})` : '(no child process)');
    console.log(`${'server RSS: 1 large contract, after the edits'.padEnd(44)}${fmt(typing)} MB`);
    console.log(`${'server RSS: 1 large contract open, at rest'.padEnd(44)}${fmt(before)} MB   ${analysis(analysisBefore)}; target < 150 MB: ${before < 150 ? 'met' : 'target missed'}`);
    console.log(`${'server RSS: + its code lenses (token counts)'.padEnd(44)}${fmt(withLens)} MB   ${analysis(lensChildren)}; target < 150 MB: ${withLens < 150 ? 'met' : 'target missed'}`);
    console.log(`${'server RSS: + 50 contracts open'.padEnd(44)}${fmt(peak)} MB   ${analysis(analysisPeak)}`);
    console.log(`${'server RSS: + 50 contracts open, idle'.padEnd(44)}${fmt(after)} MB   ${analysis(childrenRss(client.pid))}; target < 150 MB: ${after < 150 ? 'met' : 'target missed'}`);
    await client.shutdown();
  } finally {
    client.kill();
    rmSync(out, { recursive: true, force: true });
  }

  console.log('\nBundle sizes (npm run build; .vsix from npm run package)');
  const dist = join(ROOT, 'dist');
  for (const f of existsSync(dist) ? readdirSync(dist).filter((x) => /\.(cjs|vsix)$/.test(x)) : []) {
    console.log(`  ${f.padEnd(40)}${(statSync(join(dist, f)).size / 1024).toFixed(0).padStart(8)} KiB`);
  }
}

main().catch((e) => {
  console.log(`bench error: ${String((e as Error)?.stack ?? e)}`);
});
