/**
 * What `agents-md trace replay|fork` and the editor's run view share (docs/dry-run.md, "Forking"):
 * the run a trace records (its contract, snapshot and query, read again from disk with a fork's
 * `--set` changes), and a fork of it at an event that goes on with new decisions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import {
  applySnapshotSets, blameSnapshotSets, createScriptedModel, eventsUpTo, readSnapshot, recordedDecisions, recordedProvider, scriptedDecisions,
  SnapshotSetError, type ContractDiagnostic, type HumanDecision, type RunResult, type TraceEvent,
} from '../service/index.ts';
import { createRunFolder, executeQuery, fixedDecision, loadContract, loadSnapshot, resourceReader, storedPath, type LoadedContract, type LoadedSnapshot } from './dryRunHost.ts';
import { InputError } from './inputError.ts';
import { displayPath, readRegularFile } from './paths.ts';
import { RUNS_DIR, stamp, type RunFolder } from './runFolder.ts';

/** The run's identity recorded in its `task_start`. */
export function runInfo(events: readonly TraceEvent[]): { id: string; contract: string; contractSha: string; snapshot: string; snapshotSha: string; query: string } {
  const start = events[0];
  const run = (start?.payload['run'] ?? {}) as Record<string, unknown>;
  if (start?.event_type !== 'task_start' || typeof run['contract'] !== 'string' || typeof run['snapshot'] !== 'string') throw new InputError('run.trace.no-task-start');
  return { id: String(run['id'] ?? ''), contract: run['contract'], contractSha: String(run['contract_sha256'] ?? ''), snapshot: run['snapshot'], snapshotSha: String(run['snapshot_sha256'] ?? ''), query: String(start.payload['query_id'] ?? '') };
}

/** The `--set` changes of a fork applied to a snapshot's text; a bad one is a usage error. */
function snapshotEdit(sets: readonly string[], query: string): ((text: string) => string) | undefined {
  if (sets.length === 0) return undefined;
  return (text) => {
    try {
      return applySnapshotSets(text, sets, query);
    } catch (e) {
      if (e instanceof SnapshotSetError) throw new InputError(`run.${e.ref.id}`, e.ref.args as Readonly<Record<string, string | number>>);
      throw e;
    }
  };
}

/** A run read back from its trace. `changed` names the files that differ from the recorded hashes. */
export interface TraceRun {
  readonly info: ReturnType<typeof runInfo>;
  readonly contract: LoadedContract;
  readonly snapshot: LoadedSnapshot & { readonly read: { readonly snapshot: NonNullable<LoadedSnapshot['read']['snapshot']> } };
  readonly query: NonNullable<LoadedSnapshot['read']['snapshot']>['queries'][number];
  readonly file: (name: string) => string | undefined;
  readonly changed: readonly { readonly what: string; readonly expected: string; readonly actual: string }[];
}

/**
 * Loads what a replay or fork re-executes: the contract, the snapshot (or `snapshotArg`) with a
 * fork's `sets` applied, the query. `diagnostics` gets the snapshot's problems; a problem a `--set`
 * made is named by that argument (its place in the edited text means nothing to the user).
 */
export async function loadTraceRun(
  events: readonly TraceEvent[], root: string, cwd: string,
  o: { readonly snapshotArg?: string; readonly sets?: readonly string[]; readonly diagnostics?: (path: string, d: readonly ContractDiagnostic[]) => void; readonly setProblems?: (set: string, d: readonly ContractDiagnostic[]) => void } = {},
): Promise<TraceRun> {
  const info = runInfo(events);
  const sets = o.sets ?? [];
  const contract = await loadContract(resolve(root, info.contract), cwd);
  const snapshotPath = o.snapshotArg ? resolve(cwd, o.snapshotArg) : resolve(root, info.snapshot);
  const plain = await loadSnapshot(snapshotPath, cwd, contract.model);
  const snapshot = sets.length > 0 ? await loadSnapshot(snapshotPath, cwd, contract.model, snapshotEdit(sets, info.query)) : plain;
  o.diagnostics?.(snapshot.path, plain.read.diagnostics);
  if (sets.length > 0 && !snapshot.read.snapshot && plain.read.snapshot) {
    const text = readFileSync(snapshotPath, 'utf8');
    const check = (t: string) => readSnapshot(t, { lang: 'yaml', contract: contract.model }).diagnostics;
    for (const b of blameSnapshotSets(text, sets, info.query, check)) o.setProblems?.(b.set, b.diagnostics);
  }
  const snap = snapshot.read.snapshot;
  if (!snap) throw new InputError('run.error.snapshot-has-errors', { file: displayPath(cwd, snapshot.path) });
  const changed = [{ what: displayPath(cwd, contract.path), expected: info.contractSha, actual: contract.sha256 }, ...(o.snapshotArg ? [] : [{ what: displayPath(cwd, snapshot.path), expected: info.snapshotSha, actual: snapshot.sha256 }])]
    .filter((c) => c.expected && c.expected !== c.actual);
  const query = snap.queries.find((q) => q.id === info.query);
  if (!query) throw new InputError('run.error.no-such-query', { file: displayPath(cwd, snapshot.path), query: info.query });
  return { info, contract, snapshot: { ...snapshot, read: { ...snapshot.read, snapshot: snap } }, query, file: await resourceReader(root, contract), changed };
}

/** A fork to make: the trace (its text and verified events), the event, and what changes after it. */
export interface ForkRequest {
  readonly root: string;
  readonly cwd: string;
  /** The trace file and its text. */
  readonly path: string;
  readonly text: string;
  readonly events: readonly TraceEvent[];
  readonly at: string;
  readonly decision?: HumanDecision;
  readonly snapshotArg?: string;
  readonly sets?: readonly string[];
  /** Each new event, with the run as loaded (for clause locations). */
  readonly onEvent?: (e: TraceEvent, run: TraceRun) => void;
  /** Called once the run is loaded, before it goes on. */
  readonly loaded?: (run: TraceRun) => void;
  readonly diagnostics?: (path: string, d: readonly ContractDiagnostic[]) => void;
  readonly setProblems?: (set: string, d: readonly ContractDiagnostic[]) => void;
}

/**
 * Forks a run at an event into a new run folder: the events up to `at` copied, the run re-executed
 * to that point and checked, then going on with the decision, the snapshot or its changes.
 */
export async function forkTrace(r: ForkRequest): Promise<{ run: TraceRun; folder: RunFolder; result: RunResult & { readonly tracePath: string; readonly divergence?: unknown } }> {
  const prefix = eventsUpTo(r.events, r.at);
  if (!prefix) throw new InputError('run.trace.unknown-event', { id: r.at, file: displayPath(r.cwd, r.path) });
  if (prefix[prefix.length - 1]!.event_type === 'task_end') throw new InputError('run.trace.fork-at-end', { at: r.at });
  const sets = r.sets ?? [];
  const run = await loadTraceRun(r.events, r.root, r.cwd, { ...(r.snapshotArg ? { snapshotArg: r.snapshotArg } : {}), sets, ...(r.diagnostics ? { diagnostics: r.diagnostics } : {}), ...(r.setProblems ? { setProblems: r.setProblems } : {}) });
  r.loaded?.(run);
  const folder = createRunFolder(r.root, `${run.query.id}-fork`, r.cwd);
  const live = r.decision ? fixedDecision(r.decision) : scriptedDecisions(run.query.human);
  const result = await executeQuery({
    root: r.root,
    ...run,
    folder,
    traceName: 'trace.jsonl',
    provider: recordedProvider(prefix, createScriptedModel(run.query.model)),
    decide: recordedDecisions(prefix, live),
    fork: {
      prefix,
      prefixText: `${r.text.split('\n').slice(0, prefix.length).join('\n')}\n`,
      namespace: `fork-${stamp()}/`,
      payload: { from: run.info.id, from_trace: storedPath(r.root, r.path), at: r.at, ...(r.decision ? { decision: r.decision } : {}), ...(r.snapshotArg ? { snapshot: storedPath(r.root, resolve(r.cwd, r.snapshotArg)) } : {}), ...(sets.length > 0 ? { set: sets } : {}) },
    },
    ...(r.onEvent ? { onEvent: (e: TraceEvent) => r.onEvent!(e, run) } : {}),
  });
  return { run, folder, result };
}

/** How many run folders are searched for the previous run of a query (newest first). */
const PREVIOUS_SEARCH = 200;

/**
 * The newest trace before `tracePath` of the same snapshot query, made by a run of its own (an
 * earlier run or eval run, not a fork): what the run view shows beside a run (docs/dry-run.md,
 * "A run as a picture"). Reads only each trace's first line.
 */
export function previousTrace(root: string, tracePath: string, events: readonly TraceEvent[]): string | undefined {
  let info;
  try {
    info = runInfo(events);
  } catch {
    return undefined;
  }
  const runs = resolve(root, RUNS_DIR);
  let folders: string[];
  try {
    folders = readdirSync(runs).sort().reverse();
  } catch {
    return undefined;
  }
  const own = relative(runs, tracePath).split(sep)[0];
  for (const folder of folders.filter((f) => own === undefined || f < own).slice(0, PREVIOUS_SEARCH)) {
    let names: string[];
    try {
      names = readdirSync(join(runs, folder)).filter((n) => n.endsWith('.jsonl')).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      try {
        const first = firstLine(join(runs, folder, name), root);
        const start = JSON.parse(first) as TraceEvent;
        const other = runInfo([start]);
        if (other.id === folder && other.snapshot === info.snapshot && other.query === info.query) return join(runs, folder, name);
      } catch {
        // not a trace of ours
      }
    }
  }
  return undefined;
}

/** The first line of a file inside `root`, read in a bounded chunk (regular files only: a FIFO named `*.jsonl` is not waited on). */
function firstLine(path: string, root: string): string {
  return readRegularFile(path, { maxBytes: 256 * 1024, start: true, roots: [resolve(root)] }).toString('utf8').split('\n')[0]!;
}
