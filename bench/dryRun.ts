/**
 * The dry-run benchmark (docs/performance.md): samples/device-diagnosis's
 * happy-path query run against a generated snapshot of 3 pools × 10,000 records (device_log,
 * kb_reference, line_pattern). Retrieval is included (filters, prefix filters, newest-first
 * top-k over every record), and so are the whole pipeline and the trace's SHA-256 chain, in
 * memory; loading the snapshot (JSON.parse and the schema check of all records) is measured
 * apart. Baseline in the same run: the same query on the sample's own snapshot (a few records per
 * pool). Target: under 200 ms median.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseContract } from '../server/src/service/index.ts';
import { readSnapshot } from '../server/src/service/run/snapshot/snapshotValidate.ts';
import { runQuery, scriptedDecisions } from '../server/src/service/run/engine/engine.ts';
import { createScriptedModel } from '../server/src/service/run/llm/scriptedLlm.ts';
import type { Snapshot } from '../server/src/service/run/snapshot/snapshot.ts';
import { parse as parseYaml } from 'yaml';
import { mulberry32 } from './generate.ts';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const SAMPLE = join(root, 'samples', 'device-diagnosis');
const contract = parseContract(readFileSync(join(SAMPLE, 'AGENTS.md'), 'utf8'));
const sampleText = readFileSync(join(SAMPLE, 'snapshots', 'diagnosis.snapshot.yaml'), 'utf8');

/** Records per pool in the large snapshot. */
export const RECORDS_PER_POOL = 10_000;

/** The sample snapshot with each pool grown to `n` records (the sample's own records kept) and only its happy-path query, as JSON text. */
export function largeSnapshotText(n: number, seed = 7): string {
  const raw = parseYaml(sampleText) as { pools: Record<string, { records: unknown[] }>; queries: { id: string }[] };
  const rng = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const day = (d: number) => new Date(Date.UTC(2024, 5, 20) - d * 86_400_000 - Math.floor(rng() * 86_400_000)).toISOString();
  const devices = Array.from({ length: 200 }, (_, i) => `${String.fromCharCode(65 + (i % 26))}-${100 + i}`);
  const codes = Array.from({ length: 300 }, (_, i) => `E${100 + i * 3}`);
  const lines = Array.from({ length: 20 }, (_, i) => `${i + 1} 号产线`);
  const grow = (name: string, make: (i: number) => Record<string, unknown>) => {
    const pool = raw.pools[name]!;
    pool.records = [...pool.records, ...Array.from({ length: n - pool.records.length }, (_, i) => make(i))];
  };
  grow('device_log', (i) => ({ id: `log-${i}`, device_id: pick(devices), error_code: pick(codes), timestamp: day(Math.floor(rng() * 90)), action: pick(['复位', '更换保险丝', '未处理', '更换电源模块']) }));
  // Other manual sections only: the sample's E77 section must stay among kb_reference's newest five, or the answer's root cause is unsupported.
  const otherPrefixes = [...new Set(codes.map((c) => c.slice(0, 3)))].filter((p) => p !== 'E77');
  grow('kb_reference', (i) => ({ section_id: `SEC_${i}`, error_code_prefix: pick(otherPrefixes), root_cause: `根因 ${i}`, kb_version: '2024.06', timestamp: day(Math.floor(rng() * 365)) }));
  grow('line_pattern', () => ({ line_id: pick(lines), co_occurrence: [pick(codes), pick(codes)], anomaly_score: Math.round(rng() * 100) / 100, timestamp: day(Math.floor(rng() * 30)) }));
  raw.queries = raw.queries.filter((q) => q.id === 'happy-path');
  return JSON.stringify(raw);
}

/** Runs the snapshot's first query; throws unless it succeeds (a benchmark of a broken run measures nothing). */
export async function runFirstQuery(snapshot: Snapshot): Promise<number> {
  const query = snapshot.queries[0]!;
  const r = await runQuery({ contract, query, ...(snapshot.now ? { now: snapshot.now } : {}), provider: createScriptedModel(query.model), decide: scriptedDecisions(query.human) });
  if (r.outcome.code !== 'OK') throw new Error(`dry run ended with ${r.outcome.code}: ${r.outcome.message}`);
  return r.events.length;
}

/** Loads the large snapshot `times` times: JSON.parse, the schema check and the typed model, in ms. */
export function measureLoading(text: string, times: number): { ms: number[]; snapshot: Snapshot; bytes: number } {
  const ms: number[] = [];
  let snapshot: Snapshot | undefined;
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    const r = readSnapshot(text, { lang: 'json', contract });
    ms.push(performance.now() - t);
    if (!r.snapshot) throw new Error(`generated snapshot is invalid: ${r.diagnostics[0]?.message}`);
    snapshot = r.snapshot;
  }
  return { ms, snapshot: snapshot!, bytes: Buffer.byteLength(text) };
}

/** The sample's own snapshot, loaded. */
export const sampleSnapshot: Snapshot = readSnapshot(sampleText, { contract }).snapshot!;
