/**
 * The conformance benchmark (docs/conformance.md, "Scale"): a generated OTLP JSON file of
 * 1,000,000 spans (100,000 runs of 10 spans: invoke_agent, 5 chat, 4 execute_tool with arguments,
 * one request of 1,000 spans per line, as the collector's file exporter writes) graded against the
 * procurement sample in a child process, which reports its wall time and peak resident memory.
 * Baseline in the same run: the same file read and parsed line by line with nothing graded.
 * Targets: under 60 s and under 300 MB. `--spans N` changes the size. Never fails the build.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const arg = process.argv.indexOf('--spans');
const SPANS = arg >= 0 ? Number(process.argv[arg + 1]) : 1_000_000;
const PER_LINE = 1000;

const kv = (key: string, v: string | number | string[]) => ({ key, value: typeof v === 'number' ? { intValue: String(v) } : Array.isArray(v) ? { arrayValue: { values: v.map((s) => ({ stringValue: s })) } } : { stringValue: v } });
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** Span `i` of the file: run `i / 10`, its place in the run picks the operation. */
function span(i: number): unknown {
  const run = Math.floor(i / 10);
  const k = i % 10;
  const traceId = hex(run, 32);
  const base = { traceId, spanId: hex(i + 1, 16), startTimeUnixNano: String(1_700_000_000_000_000_000 + i * 1000), endTimeUnixNano: String(1_700_000_000_000_000_000 + i * 1000 + 500), status: {} };
  if (k === 0) return { ...base, name: 'invoke_agent ProcurementAnalyzer', attributes: [kv('gen_ai.operation.name', 'invoke_agent'), kv('gen_ai.conversation.id', `run-${run}`)] };
  if (k % 2 === 1) {
    const final = k === 9;
    const parts = final ? [{ type: 'text', content: JSON.stringify({ items: ['laptop'], budget_min: 0, budget_max: 4800, deadline: null, vendor_constraints: ['Dell'], confidence_score: 0.9 }) }] : [{ type: 'tool_call', name: 'check_inventory' }];
    return { ...base, parentSpanId: hex(run * 10 + 1, 16), name: 'chat', attributes: [kv('gen_ai.operation.name', 'chat'), kv('gen_ai.usage.input_tokens', 300), kv('gen_ai.usage.output_tokens', 40), kv('gen_ai.response.finish_reasons', [final ? 'stop' : 'tool_calls']), kv('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts }]))] };
  }
  return { ...base, parentSpanId: hex(run * 10 + 1, 16), name: 'execute_tool check_inventory', attributes: [kv('gen_ai.operation.name', 'execute_tool'), kv('gen_ai.tool.name', 'check_inventory'), kv('gen_ai.tool.call.id', `call_${k}`), kv('gen_ai.tool.call.arguments', JSON.stringify({ sku: run % 1000 === 0 ? 'bad' : 'LAP-0042' }))] };
}

async function generate(file: string): Promise<void> {
  const out = createWriteStream(file);
  for (let i = 0; i < SPANS; i += PER_LINE) {
    const spans = [];
    for (let j = i; j < Math.min(SPANS, i + PER_LINE); j++) spans.push(span(j));
    const line = `${JSON.stringify({ resourceSpans: [{ resource: { attributes: [kv('service.name', 'bench-agent')] }, scopeSpans: [{ scope: { name: 'bench' }, spans }] }] })}\n`;
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(r));
}

/** The child: grade (or only parse) the file, print seconds and peak RSS as JSON. */
const CHILD = `
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const [file, mode, contractPath] = process.argv.slice(-3);
let started = performance.now();
let violations = 0;
let loadMb = 0;
if (mode === 'parse') {
  for await (const line of createInterface({ input: createReadStream(file) })) JSON.parse(line);
} else {
  const { parseContract, ConformanceGrader } = await import(${JSON.stringify(join(root, 'server/src/service/index.ts'))});
  const { readTraces } = await import(${JSON.stringify(join(root, 'server/src/node/traceSource.ts'))});
  const grader = new ConformanceGrader(parseContract(readFileSync(contractPath, 'utf8')));
  // Loading the engine (tsx compiles it here; the CLI's bundle does not) is not part of the measure.
  started = performance.now();
  loadMb = process.memoryUsage().rss / 1024 / 1024;
  await readTraces(file, (s) => grader.add(s));
  violations = grader.finish().violations;
}
console.log(JSON.stringify({ seconds: (performance.now() - started) / 1000, peakMb: process.resourceUsage().maxRSS / 1024, loadMb, violations }));
`;

function measure(file: string, mode: 'parse' | 'grade'): { seconds: number; peakMb: number; loadMb: number; violations: number } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD, '--', file, mode, join(root, 'samples/procurement-analyzer/AGENTS.md')], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

const dir = mkdtempSync(join(tmpdir(), 'agents-md-bench-conformance-'));
try {
  const file = join(dir, 'spans.jsonl');
  await generate(file);
  console.log(`conformance: ${SPANS.toLocaleString('en')} spans, ${(statSync(file).size / 1024 / 1024).toFixed(0)} MB of OTLP JSON`);
  const parse = measure(file, 'parse');
  const grade = measure(file, 'grade');
  console.log(`${'case'.padEnd(40)}${'seconds'.padStart(9)}${'peak MB'.padStart(9)}`);
  console.log(`${'baseline: read and JSON.parse only'.padEnd(40)}${parse.seconds.toFixed(1).padStart(9)}${parse.peakMb.toFixed(0).padStart(9)}`);
  console.log(`${'read, decode and grade'.padEnd(40)}${grade.seconds.toFixed(1).padStart(9)}${grade.peakMb.toFixed(0).padStart(9)}`);
  console.log(`(resident after loading the engine, before reading: ${grade.loadMb.toFixed(0)} MB)`);
  console.log(`ratio to baseline ${(grade.seconds / parse.seconds).toFixed(2)}×; ${grade.violations} violations (one planted per 1,000 runs); targets < 60 s and < 300 MB`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
