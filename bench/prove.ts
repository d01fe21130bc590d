/**
 * The prove benchmark (docs/prove.md, docs/performance.md): `agents-md prove` over 50 contracts,
 * the cases of test/prove-corpus and the samples, in turn (every obligation, true and false,
 * English and Chinese, gates, guards, prose and qualified conditions).
 *   (a) in process: each contract parsed and proved (`proveContract`, every witness replayed as a
 *       dry run), per contract: median and p95; baseline in the same run, interleaved: the same
 *       contract parsed and linted (`parseContract`, `validateContract`).
 *   (b) the CLI as users run it (the esbuild bundle, a child process): `agents-md prove` on the 50
 *       files, wall time, median and p95 of the runs, and the child's CPU time (user + system: on a
 *       shared machine the wall time includes waiting for a core); baseline: `agents-md lint` on
 *       the same files.
 * Every proof is Z3's (z3-solver, loaded once per process; the CLI bundle, built outside the
 * repository, finds it through NODE_PATH). Target: (b) under 15 s. Options: --rounds N (3, passes over the 50 contracts in process),
 * --runs N (3, CLI runs). Never fails the build.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseContract, proveContract, validateContract } from '../server/src/service/index.ts';
import { z3Solver } from '../server/src/node/z3Solver.ts';
import { percentiles } from './stats.ts';

process.on('uncaughtException', (e) => {
  console.log(`bench error: ${String((e as Error)?.stack ?? e)}`);
  process.exitCode = 0;
});

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const option = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : Number.NaN;
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const ROUNDS = option('rounds', 3);
const RUNS = option('runs', 3);
const COUNT = 50;

const contractsIn = (folder: string) => readdirSync(join(root, folder)).sort().map((d) => join(folder, d, 'AGENTS.md')).filter((f) => existsSync(join(root, f)));
const sources = [...contractsIn('test/prove-corpus'), ...contractsIn('samples')];
const texts = Array.from({ length: COUNT }, (_, i) => readFileSync(join(root, sources[i % sources.length]!), 'utf8'));

/** (a): per contract, prove and its baseline interleaved, so that the machine's load hits both alike. */
async function inProcess(): Promise<{ prove: number[]; lint: number[]; findings: number; load: number }> {
  // Z3 is loaded once per process (node/z3Solver.ts): its start is counted apart.
  const loading = performance.now();
  const solver = await z3Solver();
  const load = performance.now() - loading;
  if (!solver) throw new Error('z3-solver does not load');
  // Warm-up: the first parse, lint and proof load and compile what every later one uses.
  validateContract(parseContract(texts[0]!));
  await proveContract(parseContract(texts[0]!), { solver });
  const prove: number[] = [];
  const lint: number[] = [];
  let findings = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const text of texts) {
      let t = performance.now();
      validateContract(parseContract(text));
      lint.push(performance.now() - t);
      t = performance.now();
      const found = await proveContract(parseContract(text), { solver });
      prove.push(performance.now() - t);
      if (round === 0) findings += found.length;
    }
  }
  return { prove, lint, findings, load };
}

/** Preloaded into each CLI child: its CPU time (µs, threads included) on standard error as it exits. */
const CPU = "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write('\\ncpu ' + (u.user + u.system) + '\\n'); });";

interface Timed {
  readonly wall: number[];
  readonly cpu: number[];
}

/** (b): the CLI bundle on the 50 files, each command's wall and CPU time per run (s). */
function cli(dir: string, files: readonly string[]): { prove: Timed; lint: Timed } {
  const bin = join(dir, 'bin', 'agents-md.cjs');
  const time = (args: readonly string[], into: Timed) => {
    const started = performance.now();
    const r = spawnSync(process.execPath, ['--require', join(dir, 'cpu.cjs'), bin, ...args], { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, LANG: 'C.UTF-8', NODE_PATH: join(root, 'node_modules') } });
    into.wall.push((performance.now() - started) / 1000);
    const cpu = /cpu (\d+)/.exec(r.stderr);
    if ((r.status !== 0 && r.status !== 1) || !cpu) throw new Error(r.stderr);
    into.cpu.push(Number(cpu[1]) / 1e6);
  };
  const prove: Timed = { wall: [], cpu: [] };
  const lint: Timed = { wall: [], cpu: [] };
  for (let run = 0; run < RUNS; run++) {
    time(['lint', ...files, '--format', 'json'], lint);
    time(['prove', ...files, '--format', 'json'], prove);
  }
  return { prove, lint };
}

const dir = mkdtempSync(join(tmpdir(), 'agents-md-bench-prove-'));
try {
  const a = await inProcess();
  const files = texts.map((text, i) => {
    const file = join('contracts', String(i).padStart(2, '0'), 'AGENTS.md');
    mkdirSync(join(dir, 'contracts', String(i).padStart(2, '0')), { recursive: true });
    writeFileSync(join(dir, file), text);
    return file;
  });
  const built = spawnSync(process.execPath, [join(root, 'esbuild.mjs'), '--only', 'cli', '--outdir', join(dir, 'dist')], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(built.stderr);
  writeFileSync(join(dir, 'cpu.cjs'), CPU);
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(root, 'bin', 'agents-md.cjs'), join(dir, 'bin', 'agents-md.cjs'));
  const b = cli(dir, files);

  const p = percentiles(a.prove);
  const l = percentiles(a.lint);
  const cp = percentiles(b.prove.wall);
  const cl = percentiles(b.lint.wall);
  const cpuP = percentiles(b.prove.cpu);
  const cpuL = percentiles(b.lint.cpu);
  const row = (name: string, median: number, p95: number, digits: number) => console.log(`${name.padEnd(52)}${median.toFixed(digits).padStart(10)}${p95.toFixed(digits).padStart(10)}`);
  console.log(`prove: ${COUNT} contracts (${sources.length} distinct: test/prove-corpus and samples), ${a.findings} findings; ${ROUNDS} rounds in process, ${RUNS} CLI runs`);
  console.log(`${'case'.padEnd(52)}${'median'.padStart(10)}${'p95'.padStart(10)}`);
  row('baseline: parse + lint one contract (ms)', l.median, l.p95, 1);
  row('prove one contract, witnesses replayed (ms)', p.median, p.p95, 1);
  console.log(`Z3 loaded once per process in ${a.load.toFixed(0)} ms (not in the per-contract times; in the CLI's)`);
  row('baseline: agents-md lint, 50 contracts, wall (s)', cl.median, cl.p95, 2);
  row('agents-md prove, 50 contracts, wall (s)', cp.median, cp.p95, 2);
  row('baseline: agents-md lint, 50 contracts, CPU (s)', cpuL.median, cpuL.p95, 2);
  row('agents-md prove, 50 contracts, CPU (s)', cpuP.median, cpuP.p95, 2);
  console.log(`ratio to baseline: ${(p.median / l.median).toFixed(1)}× per contract, ${(cp.median / cl.median).toFixed(1)}× for the CLI (wall), ${(cpuP.median / cpuL.median).toFixed(1)}× (CPU); target: agents-md prove on 50 contracts < 15 s (${cp.median < 15 ? 'met' : 'missed'})`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
