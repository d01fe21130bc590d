/**
 * Benchmarks of the language service (`npm run bench`). Prints figures and ratios against
 * targets; never fails the build: it exits 0 even when a target is missed (docs/performance.md), and a
 * case that throws is reported in the table, not raised.
 *
 * Measured on a generated contract (bench/generate.ts, 2,000 lines by default):
 *   (a) cold parse + validate (`parseContract(text)`, `validateContract(model)`) against bare
 *       remark (`unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter).parse(text)`)
 *       and against markdownlint 0.40 (`lint({ strings: { doc: text } })` from `markdownlint/sync`);
 *   (b) re-validation after a one-line edit inside one section (`parseContract(edited, previous)`,
 *       `validateContract(...)`), against (a).
 *   (c) the semantic diff of two already-parsed models (`diffContracts(before, after)`): the
 *       contract and the same contract after a review's worth of edits (bench/generate.ts,
 *       `reviewEdits`), with the parse of both versions measured apart; and, for information,
 *       the diff of two unrelated contracts (nothing matches by name: the similarity pass works).
 *   (d) the cost of localisation: every diagnostic of (a) formatted again in Chinese
 *       (`localiseDiagnostic(d, 'zh-cn')`, what the server and the CLI do per diagnostic), against (a).
 * Targets: (a) within 1.3× of bare remark; (b) under 10% of (a); (c) under 50 ms median; (d) reported only.
 *
 * Cases run interleaved: every iteration runs each case once, in a rotating order, so that load
 * from other processes on the machine hits all cases alike and the ratios stay meaningful.
 * Add a case by pushing `{ name, run }` to `cases`; `run` may return the time of its phases
 * (ms), which are reported as rows of their own, and may be async (the dry run is).
 *
 * (c) the dry run (bench/dryRun.ts): one query of samples/device-diagnosis against 3 pools of
 * 10,000 records each, retrieval included, loading the snapshot printed apart; baseline: the
 * same query on the sample's own snapshot. Target: under 200 ms median.
 *
 * Options: --lines N (2000), --seed N (1), --iterations N (30, at least 20), --warmup N (5).
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkFrontmatter from 'remark-frontmatter';
import { lint as markdownlint } from 'markdownlint/sync';
import { diffContracts, parseContract, validateContract, type ParsedContract } from '../server/src/service/index.ts';
import { localiseDiagnostic } from '../server/src/service/l10n/diagnostics.ts';
import { countLines, editBullet, editTableCell, editYamlValue, generateContract, reviewEdits, type EditResult } from './generate.ts';
import { largeSnapshotText, measureLoading, RECORDS_PER_POOL, runFirstQuery, sampleSnapshot } from './dryRun.ts';

// A benchmark never fails the build: report unexpected errors and exit 0.
process.on('uncaughtException', (e) => {
  console.log(`bench error: ${String((e as Error)?.stack ?? e)}`);
  process.exitCode = 0;
});

/** One benchmark case. `run` returns the duration of named phases (ms), when it has any. */
export interface BenchCase {
  readonly name: string;
  readonly run: (iteration: number) => void | Record<string, number> | Promise<void | Record<string, number>>;
}

interface Stats {
  readonly median: number;
  readonly p95: number;
  readonly min: number;
  readonly n: number;
}

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : Number.NaN;
  return Number.isFinite(v) && v >= 0 ? v : fallback;
}

function stats(xs: readonly number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return { median: Number.NaN, p95: Number.NaN, min: Number.NaN, n: 0 };
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  const p95 = s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]!;
  return { median, p95, min: s[0]!, n: s.length };
}

const LINES = option('lines', 2000);
const SEED = option('seed', 1);
const ITERATIONS = Math.max(20, option('iterations', 30));
const WARMUP = option('warmup', 5);

const text = generateContract(LINES, SEED);
const remark = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter).freeze();

// A truly cold run first (nothing compiled, no caches): reported for information.
const t0 = performance.now();
const firstModel = parseContract(text);
const t1 = performance.now();
const firstDiagnostics = validateContract(firstModel);
const t2 = performance.now();

// Edits: four variants of each kind, so that consecutive iterations see different texts.
const previous: ParsedContract = parseContract(text);
const edits = {
  table: [0, 1, 2, 3].map((v) => editTableCell(text, undefined, v)),
  bullet: [0, 1, 2, 3].map((v) => editBullet(text, undefined, v)),
  yaml: [0, 1, 2, 3].map((v) => editYamlValue(text, undefined, v)),
  small: [0, 1, 2, 3].map((v) => editBullet(text, text.split('\n').findIndex((l) => l.startsWith('- **Max Steps**')), v)),
};

/** The section of the original document that an edit falls in, and its share of the text. */
function sectionOf(e: EditResult): string {
  const s = previous.sections.find((x) => x.startLine <= e.line && e.line < x.endLine);
  if (!s) return '';
  return `in ${s.title ?? 'the preamble'} (${s.endLine - s.startLine} lines, ${((100 * s.text.length) / text.length).toFixed(1)}% of the text)`;
}

// Documents of the same size but different content (seeds), for a cold figure that no
// process-level cache (compiled schemas, regex checks) can help.
const FRESH = Array.from({ length: 8 }, (_, i) => generateContract(LINES, SEED + 1000 + i));

// The semantic diff: both versions parsed once, outside the measured diff.
const reviewed = reviewEdits(text);
const diffBefore = parseContract(text);
const diffAfter = parseContract(reviewed.text);
const unrelated = parseContract(FRESH[0]!);
const reviewChanges = diffContracts(diffBefore, diffAfter).changes.length;
// The dry run's snapshot: generated, then loaded (parse + schema check) a few times, apart from the runs.
const dryRunText = largeSnapshotText(RECORDS_PER_POOL);
const dryRunLoad = measureLoading(dryRunText, 5);

function timed<T>(f: () => T): [T, number] {
  const a = performance.now();
  const v = f();
  return [v, performance.now() - a];
}

function coldOurs(doc: string): Record<string, number> {
  const [model, parse] = timed(() => parseContract(doc));
  const [, validate] = timed(() => validateContract(model));
  return { parse, validate };
}

function editOurs(list: readonly EditResult[], i: number): Record<string, number> {
  const edited = list[i % list.length]!.text;
  const [model, parse] = timed(() => parseContract(edited, previous));
  const [, validate] = timed(() => validateContract(model));
  return { parse, validate };
}

export const cases: BenchCase[] = [
  { name: 'remark+gfm+frontmatter parse (baseline)', run: () => void remark.parse(text) },
  { name: 'markdownlint 0.40 lint (baseline)', run: () => void markdownlint({ strings: { doc: text } }) },
  { name: 'ours: cold parse + validate', run: () => coldOurs(text) },
  { name: 'ours: edit table cell, parse + validate', run: (i) => editOurs(edits.table, i) },
  { name: 'ours: edit bullet value, parse + validate', run: (i) => editOurs(edits.bullet, i) },
  { name: 'ours: edit yaml value, parse + validate', run: (i) => editOurs(edits.yaml, i) },
  { name: 'ours: edit in a small section, parse + validate', run: (i) => editOurs(edits.small, i) },
  { name: 'remark parse, new document each time', run: (i) => void remark.parse(FRESH[i % FRESH.length]!) },
  { name: 'ours: cold, new document each time', run: (i) => coldOurs(FRESH[i % FRESH.length]!) },
  { name: 'ours: every diagnostic localised to zh-cn', run: () => void firstDiagnostics.map((d) => localiseDiagnostic(d, 'zh-cn')) },
  {
    name: 'ours: parse both versions of the diff',
    run: () => ({ before: timed(() => parseContract(text))[1], after: timed(() => parseContract(reviewed.text))[1] }),
  },
  { name: 'ours: semantic diff of two parsed models (review)', run: () => void diffContracts(diffBefore, diffAfter) },
  { name: 'ours: semantic diff of two unrelated contracts', run: () => void diffContracts(diffBefore, unrelated) },
  { name: 'dry run: sample snapshot (baseline)', run: async () => void (await runFirstQuery(sampleSnapshot)) },
  { name: `dry run: 3 pools x ${RECORDS_PER_POOL} records`, run: async () => void (await runFirstQuery(dryRunLoad.snapshot)) },
];

interface Result {
  total: number[];
  phases: Map<string, number[]>;
  error?: string;
}

async function measure(list: readonly BenchCase[]): Promise<Map<BenchCase, Result>> {
  const results = new Map<BenchCase, Result>(list.map((c) => [c, { total: [], phases: new Map() }]));
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    for (let k = 0; k < list.length; k++) {
      const c = list[(i + k) % list.length]!;
      const r = results.get(c)!;
      if (r.error) continue;
      try {
        const a = performance.now();
        const value = c.run(i);
        const phases = value instanceof Promise ? await value : value;
        const d = performance.now() - a;
        if (i < WARMUP) continue;
        r.total.push(d);
        for (const [p, ms] of Object.entries(phases ?? {})) {
          const xs = r.phases.get(p) ?? [];
          xs.push(ms);
          r.phases.set(p, xs);
        }
      } catch (e) {
        r.error = String((e as Error)?.stack ?? e).split('\n')[0]!;
      }
    }
  }
  return results;
}

const fmt = (ms: number): string => (Number.isFinite(ms) ? ms.toFixed(ms < 10 ? 2 : 1) : 'n/a');
const pad = (s: string, n: number): string => s + ' '.repeat(Math.max(0, n - [...s].length));
const lpad = (s: string, n: number): string => ' '.repeat(Math.max(0, n - [...s].length)) + s;

async function main(): Promise<void> {
  console.log(`Benchmark: generated contract of ${countLines(text)} lines, ${text.length} characters (seed ${SEED}), ${previous.sections.length} sections, ${firstDiagnostics.length} diagnostics.`);
  console.log(`Node ${process.version}; ${WARMUP} warm-up + ${ITERATIONS} measured iterations per case, cases interleaved.`);
  for (const [k, list] of Object.entries(edits)) console.log(`  edit "${k}": ${list[0]!.description} ${sectionOf(list[0]!)}`);
  console.log(`  diff "review": ${reviewed.description}; ${reviewChanges} semantic changes`);
  console.log(`First (process-cold) run: parse ${fmt(t1 - t0)} ms, validate ${fmt(t2 - t1)} ms.`);
  const load = stats(dryRunLoad.ms);
  console.log(`Dry-run snapshot: 3 pools x ${RECORDS_PER_POOL} records, ${(dryRunLoad.bytes / 1e6).toFixed(1)} MB of JSON; loading it (parse + schema check), not part of the runs: median ${fmt(load.median)} ms, first ${fmt(dryRunLoad.ms[0]!)} ms.`);
  console.log('');

  const results = await measure(cases);
  const rows: [string, Stats | undefined, string?][] = [];
  for (const c of cases) {
    const r = results.get(c)!;
    if (r.error) {
      rows.push([c.name, undefined, r.error]);
      continue;
    }
    rows.push([c.name, stats(r.total)]);
    for (const [p, xs] of r.phases) rows.push([`    ${p}`, stats(xs)]);
  }
  const w = Math.max(...rows.map(([n]) => [...n].length)) + 2;
  const header = `${pad('case', w)}${lpad('median ms', 11)}${lpad('p95 ms', 10)}${lpad('min ms', 10)}`;
  console.log(header);
  console.log('-'.repeat(header.length));
  for (const [name, s, err] of rows) console.log(s ? `${pad(name, w)}${lpad(fmt(s.median), 11)}${lpad(fmt(s.p95), 10)}${lpad(fmt(s.min), 10)}` : `${pad(name, w)}  error: ${err}`);
  console.log('');

  const stat = (name: string, phase?: string): Stats | undefined => {
    const c = cases.find((x) => x.name === name);
    const r = c && results.get(c);
    if (!r || r.error) return undefined;
    return stats(phase ? (r.phases.get(phase) ?? []) : r.total);
  };
  const med = (name: string, phase?: string): number => stat(name, phase)?.median ?? Number.NaN;
  const min = (name: string, phase?: string): number => stat(name, phase)?.min ?? Number.NaN;
  const verdict = (ok: boolean): string => (ok ? 'target met' : 'target missed');
  const ratio = (a: number, b: number): string => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}x` : 'n/a');
  const percent = (a: number, b: number): string => (Number.isFinite(a / b) ? `${((100 * a) / b).toFixed(1)}%` : 'n/a');
  const REMARK = cases[0]!.name;
  const LINT = cases[1]!.name;
  const COLD = cases[2]!.name;

  console.log(`Ratios: of medians (the verdict), and of minimums (less sensitive to other load on the machine).`);
  const line = (label: string, a: string, b: string, target = '') => console.log(`  ${pad(label, 44)}${lpad(a, 8)}${lpad(b, 10)}${target ? `   ${target}` : ''}`);
  line('', 'median', 'min');
  line('(a) cold parse+validate / remark+gfm', ratio(med(COLD), med(REMARK)), ratio(min(COLD), min(REMARK)), `target <= 1.30x: ${verdict(med(COLD) / med(REMARK) <= 1.3)}`);
  line('    cold parse only / remark+gfm', ratio(med(COLD, 'parse'), med(REMARK)), ratio(min(COLD, 'parse'), min(REMARK)));
  line('    cold parse+validate / markdownlint', ratio(med(COLD), med(LINT)), ratio(min(COLD), min(LINT)));
  const FRESH_OURS = 'ours: cold, new document each time';
  const FRESH_REMARK = 'remark parse, new document each time';
  line('    cold, new document / remark on it', ratio(med(FRESH_OURS), med(FRESH_REMARK)), ratio(min(FRESH_OURS), min(FRESH_REMARK)));
  for (const c of cases.filter((x) => x.name.startsWith('ours: edit'))) {
    const label = `(b) ${c.name.replace('ours: ', '').replace(', parse + validate', '')} / cold`;
    line(label, percent(med(c.name), med(COLD)), percent(min(c.name), min(COLD)), `target < 10%: ${verdict(med(c.name) / med(COLD) < 0.1)}`);
  }
  const DIFF = 'ours: semantic diff of two parsed models (review)';
  const PARSE_BOTH = 'ours: parse both versions of the diff';
  line('(c) semantic diff (review), ms', fmt(med(DIFF)), fmt(min(DIFF)), `target < 50 ms: ${verdict(med(DIFF) < 50)}`);
  line('    semantic diff / parse of both versions', ratio(med(DIFF), med(PARSE_BOTH)), ratio(min(DIFF), min(PARSE_BOTH)));
  line('    unrelated contracts / review', ratio(med('ours: semantic diff of two unrelated contracts'), med(DIFF)), ratio(min('ours: semantic diff of two unrelated contracts'), min(DIFF)));
  const ZH = 'ours: every diagnostic localised to zh-cn';
  line(`(d) ${firstDiagnostics.length} diagnostics in zh-cn / cold`, percent(med(ZH), med(COLD)), percent(min(ZH), min(COLD)));
  const DRY = cases[cases.length - 1]!.name;
  const DRY_BASE = cases[cases.length - 2]!.name;
  line('(e) dry run, 3 pools x 10,000 records (ms)', fmt(med(DRY)), fmt(min(DRY)), `target < 200 ms: ${verdict(med(DRY) < 200)}`);
  line('    / same run on the sample snapshot', ratio(med(DRY), med(DRY_BASE)), ratio(min(DRY), min(DRY_BASE)));
}

try {
  await main();
} catch (e) {
  console.log(`bench error: ${String((e as Error)?.stack ?? e)}`);
}
process.exitCode = 0;
