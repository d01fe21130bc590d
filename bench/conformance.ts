/**
 * The conformance benchmark (docs/conformance.md, "Scale"): a generated OTLP JSON file of
 * 1,000,000 spans (100,000 runs of 10 spans: invoke_agent, 5 chat, 4 execute_tool with arguments,
 * one request of 1,000 spans per line, as the collector's file exporter writes) graded against the
 * procurement sample by the CLI's bundle in a child process (wall time and peak resident memory).
 * Baseline in the same run: the same file read and parsed line by line with nothing graded. A
 * third case grades it again with V8's old space capped at 64 MB: that it finishes shows the memory
 * grading keeps alive is bounded (the uncapped peak is mostly garbage V8 has not collected yet).
 * Targets: under 60 s and under 300 MB. `--spans N` changes the size. Never fails the build.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const arg = process.argv.indexOf('--spans');
const SPANS = arg >= 0 ? Number(process.argv[arg + 1]) : 1_000_000;
const PER_LINE = 1000;
/** The old-space limit of the bounded-memory case (MB). */
const HEAP_CAP_MB = 64;

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

/** The baseline child: read and parse every line, nothing else. */
const PARSE = `
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
for await (const line of createInterface({ input: createReadStream(process.argv.at(-1)) })) JSON.parse(line);
`;
/** Preloaded into each child: its peak resident memory on standard error as it exits. */
const PEAK = "process.on('exit', () => process.stderr.write('\\npeak ' + process.resourceUsage().maxRSS + '\\n'));";

/** Runs a child, its wall time and peak resident memory; `violations` from the CLI's JSON report. */
function measure(args: readonly string[]): { seconds: number; peakMb: number; violations: number } {
  const started = performance.now();
  const r = spawnSync(process.execPath, ['--require', join(dir, 'peak.cjs'), ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  const seconds = (performance.now() - started) / 1000;
  const peak = /peak (\d+)/.exec(r.stderr);
  if (!peak || r.status === null || r.status > 1) throw new Error(`exit ${r.status ?? r.signal}: ${r.stderr.slice(-2000)}`);
  const report = r.stdout.trim().startsWith('{') ? (JSON.parse(r.stdout) as { violations: number }) : { violations: 0 };
  return { seconds, peakMb: Number(peak[1]) / 1024, violations: report.violations };
}

const dir = mkdtempSync(join(tmpdir(), 'agents-md-bench-conformance-'));
try {
  const file = join(dir, 'spans.jsonl');
  await generate(file);
  writeFileSync(join(dir, 'peak.cjs'), PEAK);
  writeFileSync(join(dir, 'parse.mjs'), PARSE);
  // The CLI as users run it: the esbuild bundle and its launcher.
  const built = spawnSync(process.execPath, [join(root, 'esbuild.mjs'), '--only', 'cli', '--outdir', join(dir, 'dist')], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(built.stderr);
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(root, 'bin', 'agents-md.cjs'), join(dir, 'bin', 'agents-md.cjs'));
  console.log(`conformance: ${SPANS.toLocaleString('en')} spans, ${(statSync(file).size / 1024 / 1024).toFixed(0)} MB of OTLP JSON; load average at the start ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const parse = measure([join(dir, 'parse.mjs'), file]);
  const cli = [join(dir, 'bin', 'agents-md.cjs'), 'conformance', join(root, 'samples/procurement-analyzer/AGENTS.md'), '--traces', file, '--format', 'json'];
  const grade = measure(cli);
  // The same with V8's old space capped: it finishes only if what grading keeps alive is bounded, whatever the file's size.
  const capped = measure([`--max-old-space-size=${HEAP_CAP_MB}`, ...cli]);
  console.log(`load average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${availableParallelism()} cores`);
  console.log(`${'case'.padEnd(48)}${'seconds'.padStart(9)}${'peak MB'.padStart(9)}`);
  console.log(`${'baseline: read and JSON.parse only'.padEnd(48)}${parse.seconds.toFixed(1).padStart(9)}${parse.peakMb.toFixed(0).padStart(9)}`);
  console.log(`${'agents-md conformance (the CLI bundle)'.padEnd(48)}${grade.seconds.toFixed(1).padStart(9)}${grade.peakMb.toFixed(0).padStart(9)}`);
  console.log(`${`the same, old space capped at ${HEAP_CAP_MB} MB`.padEnd(48)}${capped.seconds.toFixed(1).padStart(9)}${capped.peakMb.toFixed(0).padStart(9)}`);
  console.log(`ratio to baseline ${(grade.seconds / parse.seconds).toFixed(2)}×; ${grade.violations} violations (4 planted in every 1,000th run; capped: ${capped.violations}); targets < 60 s and < 300 MB`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
