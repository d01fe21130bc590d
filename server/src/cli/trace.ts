/**
 * `agents-md trace verify|show|replay|fork <trace.jsonl>` (issue 4 item 3; docs/dry-run.md,
 * "Trace"): check a trace's chain and checksums (a torn last line is reported apart), print it as
 * a timeline, re-execute it from its recorded model answers and decisions and compare, or fork it
 * at an event into a new run that goes on with the snapshot's script and new decisions.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { createScriptedModel, eventsUpTo, firstDifference, recordedDecisions, recordedProvider, runMessage, scriptedDecisions, type TraceEvent, type TraceVerification, verifyTrace } from '../service/index.ts';
import { RunFolder, stamp } from '../node/runFolder.ts';
import { executeQuery, fixedDecision, InputError, loadContract, loadSnapshot, resourceReader, storedPath, type LoadedContract } from '../node/dryRunHost.ts';
import { formatDiagnostics } from './snapshotReport.ts';
import { formatEvent } from './format/timeline.ts';
import { flagDecision, resultJson, RUN_EXIT, wantColor, withRunOutputOptions } from './run.ts';
import { displayPath } from './report.ts';
import { TOOL_NAME } from './meta.ts';

/** Exit codes of `trace verify` and `trace replay`. */
export const TRACE_EXIT = { ok: 0, broken: 1, usage: 2, incomplete: 3 } as const;

const VERIFY_HELP = `
Exit codes:
  0  every event is intact and the run is complete (ends with task_end)
  1  the trace is corrupted: a malformed line, a broken link or a wrong checksum
  2  usage error, or the file cannot be read
  3  every complete event is intact, but the run is incomplete: a torn last line or no task_end`;

const REPLAY_HELP = `
Exit codes:
  0  the replay made the same events as the trace (timestamps and timings aside)
  1  the replay differs, or the trace is corrupted
  2  usage error, or the trace, contract or snapshot cannot be read`;

async function readTrace(path: string, cwd: string): Promise<{ text: string; verdict: TraceVerification }> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`${displayPath(cwd, path)}: cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  return { text, verdict: await verifyTrace(text) };
}

function problemLines(path: string, cwd: string, v: TraceVerification): string[] {
  return v.problems.map((p) => `${displayPath(cwd, path)}:${p.line}: ${runMessage(p.messageId, p.args)}`);
}

async function verifyCommand(file: string, setExitCode: (code: number) => void): Promise<void> {
  const cwd = process.cwd();
  const path = resolve(cwd, file);
  const { verdict } = await readTrace(path, cwd);
  const out = (s: string) => process.stdout.write(`${s}\n`);
  for (const l of problemLines(path, cwd, verdict)) out(l);
  if (verdict.torn) out(`${displayPath(cwd, path)}:${verdict.torn.line}: ${runMessage('trace.torn', verdict.torn)}`);
  if (verdict.events.length === 0 && verdict.problems.length === 0) out(runMessage('trace.empty', { file: displayPath(cwd, path) }));
  else if (verdict.problems.length === 0) out(runMessage('trace.intact', { file: displayPath(cwd, path), count: verdict.events.length }));
  out(runMessage(verdict.complete ? 'trace.complete' : 'trace.incomplete'));
  setExitCode(verdict.problems.length > 0 ? TRACE_EXIT.broken : verdict.torn || !verdict.complete ? TRACE_EXIT.incomplete : TRACE_EXIT.ok);
}

async function showCommand(file: string, o: { color?: boolean; root?: string }, setExitCode: (code: number) => void): Promise<void> {
  const cwd = process.cwd();
  const path = resolve(cwd, file);
  const { verdict } = await readTrace(path, cwd);
  const contract = await contractOf(verdict.events, resolve(cwd, o.root ?? '.'), cwd).catch(() => undefined);
  const options = { color: wantColor(o.color), ...(contract ? { contract: { model: contract.model, displayPath: displayPath(cwd, contract.path) } } : {}) };
  for (const e of verdict.events) process.stdout.write(formatEvent(e, options).map((l) => `${l}\n`).join(''));
  for (const l of problemLines(path, cwd, verdict)) process.stderr.write(`${l}\n`);
  setExitCode(verdict.problems.length > 0 ? TRACE_EXIT.broken : TRACE_EXIT.ok);
}

/** The run's identity recorded in its `task_start`. */
function runInfo(events: readonly TraceEvent[]): { id: string; contract: string; contractSha: string; snapshot: string; snapshotSha: string; query: string } {
  const start = events[0];
  const run = (start?.payload['run'] ?? {}) as Record<string, unknown>;
  if (start?.event_type !== 'task_start' || typeof run['contract'] !== 'string' || typeof run['snapshot'] !== 'string') throw new InputError('the trace does not start with a task_start event naming its contract and snapshot');
  return { id: String(run['id'] ?? ''), contract: run['contract'], contractSha: String(run['contract_sha256'] ?? ''), snapshot: run['snapshot'], snapshotSha: String(run['snapshot_sha256'] ?? ''), query: String(start.payload['query_id'] ?? '') };
}

function contractOf(events: readonly TraceEvent[], root: string, cwd: string): Promise<LoadedContract> {
  return loadContract(resolve(root, runInfo(events).contract), cwd);
}

/** Loads what a replay or fork re-executes: the contract, the snapshot (or `snapshotArg`), the query; notes changed files. */
async function loadRun(events: readonly TraceEvent[], root: string, cwd: string, snapshotArg?: string) {
  const info = runInfo(events);
  const contract = await loadContract(resolve(root, info.contract), cwd);
  const snapshotPath = snapshotArg ? resolve(cwd, snapshotArg) : resolve(root, info.snapshot);
  const snapshot = await loadSnapshot(snapshotPath, cwd, contract.model);
  for (const line of formatDiagnostics(snapshot.path, cwd, snapshot.read.diagnostics)) process.stderr.write(`${line}\n`);
  const snap = snapshot.read.snapshot;
  if (!snap) throw new InputError(`${displayPath(cwd, snapshot.path)}: the snapshot has errors (above)`);
  const note = (what: string, expected: string, actual: string) => {
    if (expected && expected !== actual) process.stderr.write(`${TOOL_NAME}: note: ${runMessage('trace.replay-input-changed', { what, expected: expected.slice(0, 12), actual: actual.slice(0, 12) })}\n`);
  };
  note(displayPath(cwd, contract.path), info.contractSha, contract.sha256);
  if (!snapshotArg) note(displayPath(cwd, snapshot.path), info.snapshotSha, snapshot.sha256);
  const query = snap.queries.find((q) => q.id === info.query);
  if (!query) throw new InputError(`${displayPath(cwd, snapshot.path)}: no query "${info.query}"`);
  return { info, contract, snapshot: { ...snapshot, read: { ...snapshot.read, snapshot: snap } }, query, file: await resourceReader(root, contract) };
}

async function replayCommand(file: string, o: { root?: string }, setExitCode: (code: number) => void): Promise<void> {
  const cwd = process.cwd();
  const root = resolve(cwd, o.root ?? '.');
  const path = resolve(cwd, file);
  const { verdict } = await readTrace(path, cwd);
  if (verdict.problems.length > 0) {
    for (const l of problemLines(path, cwd, verdict)) process.stderr.write(`${l}\n`);
    setExitCode(TRACE_EXIT.broken);
    return;
  }
  const run = await loadRun(verdict.events, root, cwd);
  // An interrupted run is replayed as far as it went, then resumed with the snapshot's script.
  const resume = verdict.complete ? undefined : createScriptedModel(run.query.model);
  const folder = RunFolder.create(root, `${run.query.id}-replay`);
  const result = await executeQuery({
    root,
    ...run,
    folder,
    traceName: 'trace.jsonl',
    provider: recordedProvider(verdict.events, resume),
    decide: recordedDecisions(verdict.events, verdict.complete ? undefined : scriptedDecisions(run.query.human)),
  });
  const original = verdict.events;
  const replayed = verdict.complete ? result.events : result.events.slice(0, original.length);
  const diff = firstDifference(original, replayed);
  const name = displayPath(cwd, path);
  if (diff) process.stdout.write(`${runMessage('trace.replay-differs', { file: name, index: diff.index, id: diff.id, detail: diff.detail })}\n`);
  else process.stdout.write(`${runMessage('trace.replay-same', { file: name, count: original.length })}\n`);
  process.stdout.write(`${runMessage('run.trace', { path: displayPath(cwd, result.tracePath) })}\n`);
  setExitCode(diff ? TRACE_EXIT.broken : TRACE_EXIT.ok);
}

interface ForkOptions {
  readonly at: string;
  readonly snapshot?: string;
  readonly root?: string;
  readonly approve?: boolean;
  readonly reject?: boolean;
  readonly json?: boolean;
  readonly color?: boolean;
}

async function forkCommand(file: string, o: ForkOptions, setExitCode: (code: number) => void): Promise<void> {
  const cwd = process.cwd();
  const root = resolve(cwd, o.root ?? '.');
  const path = resolve(cwd, file);
  const decision = flagDecision(o);
  const { text, verdict } = await readTrace(path, cwd);
  if (verdict.problems.length > 0) {
    for (const l of problemLines(path, cwd, verdict)) process.stderr.write(`${l}\n`);
    setExitCode(TRACE_EXIT.broken);
    return;
  }
  const prefix = eventsUpTo(verdict.events, o.at);
  if (!prefix) throw new InputError(runMessage('trace.unknown-event', { id: o.at, file: displayPath(cwd, path) }));
  if (prefix[prefix.length - 1]!.event_type === 'task_end') throw new InputError(`${o.at} is the task_end event: fork at an earlier event`);
  const run = await loadRun(verdict.events, root, cwd, o.snapshot);
  const folder = RunFolder.create(root, `${run.query.id}-fork`);
  const live = decision ? fixedDecision(decision) : scriptedDecisions(run.query.human);
  const timeline = { color: wantColor(o.color), contract: { model: run.contract.model, displayPath: displayPath(cwd, run.contract.path) } };
  const prefixText = `${text.split('\n').slice(0, prefix.length).join('\n')}\n`;
  const result = await executeQuery({
    root,
    ...run,
    folder,
    traceName: 'trace.jsonl',
    provider: recordedProvider(prefix, createScriptedModel(run.query.model)),
    decide: recordedDecisions(prefix, live),
    fork: {
      prefix,
      prefixText,
      namespace: `fork-${stamp()}/`,
      payload: { from: run.info.id, from_trace: storedPath(root, path), at: o.at, ...(decision ? { decision } : {}), ...(o.snapshot ? { snapshot: storedPath(root, resolve(cwd, o.snapshot)) } : {}) },
    },
    ...(o.json ? {} : { onEvent: (e) => void process.stdout.write(formatEvent(e, timeline).map((l) => `${l}\n`).join('')) }),
  });
  if (result.divergence) {
    process.stderr.write(`${TOOL_NAME}: the re-executed run differs from the trace before ${o.at}, at its event ${(result.divergence as { index: number }).index + 1}: the contract or snapshot changed; the fork does not continue the original\n`);
    setExitCode(TRACE_EXIT.broken);
    return;
  }
  if (o.json) process.stdout.write(`${JSON.stringify(resultJson(result, cwd, run.contract, { run_id: folder.id, forked_from: run.info.id, at: o.at }), null, 2)}\n`);
  else process.stdout.write(`${runMessage('trace.fork', { file: displayPath(cwd, path), at: o.at, path: displayPath(cwd, result.tracePath) })}\n`);
  setExitCode(RUN_EXIT[result.outcome.status]);
}

/** Runs an action; an `InputError` is printed and exits 2. */
function guarded<A extends unknown[]>(setExitCode: (code: number) => void, f: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await f(...args);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      process.stderr.write(`${TOOL_NAME}: ${e.message}\n`);
      setExitCode(TRACE_EXIT.usage);
    }
  };
}

/** Registers `trace` and its subcommands on the program. */
export function registerTraceCommand(program: Command, setExitCode: (code: number) => void): void {
  const trace = program.command('trace').description('Check, show, replay or fork the trace of a dry run (.agents-md/runs/*/trace.jsonl).');
  trace
    .command('verify')
    .description('Check every event of a trace: JSON shape, the link to the previous event and the checksum chain; report a torn last line apart.')
    .argument('<trace>', 'the trace file')
    .addHelpText('after', VERIFY_HELP)
    .action(guarded(setExitCode, (file: string) => verifyCommand(file, setExitCode)));
  trace
    .command('show')
    .description('Print a trace as the run\'s timeline.')
    .argument('<trace>', 'the trace file')
    .option('--root <dir>', 'the workspace root the trace\'s paths are relative to (default: the current directory)')
    .option('--color', 'force coloured output')
    .option('--no-color', 'disable coloured output')
    .action(guarded(setExitCode, (file: string, o: { color?: boolean; root?: string }) => showCommand(file, o, setExitCode)));
  trace
    .command('replay')
    .description('Re-execute a run from its trace (the recorded model answers and human decisions, the same contract and snapshot) and compare the events. An interrupted run is resumed with the snapshot\'s script.')
    .argument('<trace>', 'the trace file')
    .option('--root <dir>', 'the workspace root the trace\'s paths are relative to (default: the current directory)')
    .addHelpText('after', REPLAY_HELP)
    .action(guarded(setExitCode, (file: string, o: { root?: string }) => replayCommand(file, o, setExitCode)));
  const fork = trace
    .command('fork')
    .description('Fork a run at an event: the events up to it are kept as they are, then the run goes on with the snapshot\'s script and new decisions, in a new trace whose new events have their own id namespace.')
    .argument('<trace>', 'the trace file')
    .requiredOption('--at <event-id>', 'the last event kept, e.g. evt_0012')
    .option('-s, --snapshot <file>', 'continue with this snapshot (e.g. a changed tool mock) instead of the recorded one')
    .option('--root <dir>', 'the workspace root the trace\'s paths are relative to (default: the current directory)');
  withRunOutputOptions(fork, 'after the fork point').action(guarded(setExitCode, (file: string, o: ForkOptions) => forkCommand(file, o, setExitCode)));
}
