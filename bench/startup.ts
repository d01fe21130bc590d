/**
 * Start-up of the CLI (`npm run bench -- --only startup`, docs/performance.md, "Start-up"): the
 * real launcher and bundle (built afresh into a temporary folder, unminified as npm installs it)
 * against markdownlint-cli2 0.20 (markdownlint 0.40) on the same file:
 *   - `agents-md lint FILE` and `markdownlint-cli2 FILE`, for sample contracts;
 *   - the same from a root with 120 other contracts (the independent corpus's, three times): the
 *     cross-contract rules read every one, from the summaries the previous run kept;
 *   - `agents-md --help` against the same markdownlint-cli2 run, answered by the launcher from its
 *     texts (dist/quickHelp.cjs) and, for comparison, by the CLI bundle.
 * Runs alternate (ours then theirs, theirs then ours) so that a change in the machine's load hits
 * both alike; each pair gives a ratio. Prints wall-time medians and p95, the CPU time each process
 * reports at exit (less sensitive to load than wall time), the ratio of the medians and the
 * median and spread of the pairs' ratios, and the load average: on a shared machine, read the
 * ratios. The ReDoS verdicts are warm (one run before timing), as on a developer's machine.
 * `--runs n` (default 15). Never fails the build.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const RUNS = (() => {
  const i = process.argv.indexOf('--runs');
  const n = i >= 0 ? Number(process.argv[i + 1]) : Number.NaN;
  return Number.isInteger(n) && n > 0 ? n : 15;
})();
const SAMPLES = ['procurement-analyzer', 'coding-agent'];

interface Timing {
  readonly wall: number;
  readonly cpu: number;
}

const dir = mkdtempSync(join(tmpdir(), 'agents-md-startup-'));
const cpuFile = join(dir, 'cpu.txt');
const reporter = join(dir, 'cpu.cjs');
// Every Node process started below writes its own CPU time (all threads) when it exits.
writeFileSync(reporter, `process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeFileSync(${JSON.stringify(cpuFile)}, String((u.user + u.system) / 1000)); });\n`);
const env = { ...process.env, LANG: 'C.UTF-8', NO_COLOR: '1', AGENTS_MD_CACHE_DIR: join(dir, 'cache'), NODE_OPTIONS: `--require ${reporter}` };

function build(): string {
  const r = spawnSync(process.execPath, [join(REPO, 'esbuild.mjs'), '--only', 'cli', '--outdir', join(dir, 'dist')], { cwd: REPO, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`esbuild failed: ${r.stderr}`);
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(REPO, 'bin', 'agents-md.cjs'), join(dir, 'bin', 'agents-md.cjs'));
  return join(dir, 'bin', 'agents-md.cjs');
}

/** A copy of the launcher whose dist/ has every file but quickHelp.cjs, so that it loads the CLI bundle for help. */
function withoutQuickHelp(bin: string): string {
  const other = join(dir, 'full');
  mkdirSync(join(other, 'bin'), { recursive: true });
  mkdirSync(join(other, 'dist'));
  for (const f of readdirSync(join(dir, 'dist'))) if (f !== 'quickHelp.cjs') symlinkSync(join(dir, 'dist', f), join(other, 'dist', f));
  copyFileSync(bin, join(other, 'bin', 'agents-md.cjs'));
  return join(other, 'bin', 'agents-md.cjs');
}

/** A root (`many/`) with the first sample and the independent corpus's clean contracts three times over; how many. */
function manyContracts(): number {
  const root = join(dir, 'many');
  const corpus = join(REPO, 'test', 'corpus', 'independent');
  const found = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? found(join(d, e.name)) : /(?:^AGENTS|\.agents)\.md$/.test(e.name) ? [join(d, e.name)] : []));
  const clean = readdirSync(corpus).filter((w) => w.startsWith('writer')).flatMap((w) => found(join(corpus, w, 'clean')));
  for (let copy = 0; copy < 3; copy++) {
    clean.forEach((file, i) => {
      mkdirSync(join(root, `copy${copy}`, String(i)), { recursive: true });
      copyFileSync(file, join(root, `copy${copy}`, String(i), 'AGENTS.md'));
    });
  }
  copyFileSync(join(REPO, 'samples', SAMPLES[0]!, 'AGENTS.md'), join(root, `${SAMPLES[0]}.md`));
  return clean.length * 3;
}

function timed(args: readonly string[], cwd: string): Timing {
  rmSync(cpuFile, { force: true });
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8' });
  const wall = performance.now() - t;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return { wall, cpu: Number(readFileSync(cpuFile, 'utf8')) };
}

const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: readonly number[]) => {
  const s = sorted(xs);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const p95 = (xs: readonly number[]) => sorted(xs)[Math.min(xs.length - 1, Math.ceil(0.95 * xs.length) - 1)]!;
const ms = (x: number) => `${x.toFixed(0).padStart(6)} ms`;

/** Alternating runs of `ours` and `theirs` in `cwd`; prints both and their ratios. */
function compare(label: string, ours: readonly string[], theirs: readonly string[], cwd = join(dir, 'ws')): void {
  timed(ours, cwd);
  timed(theirs, cwd); // warm: verdicts and summaries on disk, the file system's cache
  const a: Timing[] = [];
  const b: Timing[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (i % 2 === 0) {
      a.push(timed(ours, cwd));
      b.push(timed(theirs, cwd));
    } else {
      b.push(timed(theirs, cwd));
      a.push(timed(ours, cwd));
    }
  }
  const wallA = a.map((t) => t.wall);
  const wallB = b.map((t) => t.wall);
  const pairs = a.map((t, i) => t.wall / b[i]!.wall);
  console.log(`  ${label}`);
  console.log(`    agents-md          wall median ${ms(median(wallA))}  p95 ${ms(p95(wallA))}  cpu median ${ms(median(a.map((t) => t.cpu)))}`);
  console.log(`    markdownlint-cli2  wall median ${ms(median(wallB))}  p95 ${ms(p95(wallB))}  cpu median ${ms(median(b.map((t) => t.cpu)))}`);
  console.log(
    `    ratio (ours / theirs): wall medians ${(median(wallA) / median(wallB)).toFixed(2)}×, cpu medians ${(median(a.map((t) => t.cpu)) / median(b.map((t) => t.cpu))).toFixed(2)}×, ` +
      `pairs median ${median(pairs).toFixed(2)}× (min ${sorted(pairs)[0]!.toFixed(2)}, max ${sorted(pairs).at(-1)!.toFixed(2)})`,
  );
}

try {
  const bin = build();
  mkdirSync(join(dir, 'ws'));
  for (const s of SAMPLES) copyFileSync(join(REPO, 'samples', s, 'AGENTS.md'), join(dir, 'ws', `${s}.md`));
  const theirs = (file: string) => [join(REPO, 'node_modules', 'markdownlint-cli2', 'markdownlint-cli2-bin.mjs'), file];
  const before = loadavg()[0]!;
  console.log(`CLI start-up against markdownlint-cli2 0.20, ${RUNS} alternating pairs each (Node ${process.version})`);
  for (const s of SAMPLES) compare(`lint ${s}.md (${readFileSync(join(dir, 'ws', `${s}.md`), 'utf8').split('\n').length} lines)`, [bin, 'lint', `${s}.md`], theirs(`${s}.md`));
  const many = manyContracts();
  compare(`lint ${SAMPLES[0]}.md from a root with ${many} other contracts`, [bin, 'lint', `${SAMPLES[0]}.md`], theirs(`${SAMPLES[0]}.md`), join(dir, 'many'));
  compare(`--help, against markdownlint-cli2 ${SAMPLES[0]}.md (target: at most a third)`, [bin, '--help'], theirs(`${SAMPLES[0]}.md`));
  compare(`--help from the CLI bundle (no dist/quickHelp.cjs: the launcher before its texts), against the same`, [withoutQuickHelp(bin), '--help'], theirs(`${SAMPLES[0]}.md`));
  console.log(`  load average (1 min): ${before.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
