/**
 * Reading a trace file for the `trace` commands: its bytes (bounded), its verification, the run's
 * identity from its `task_start` and the contract it names (docs/dry-run.md, "The trace").
 */
import { resolve } from 'node:path';
import { verifyTrace, type TraceEvent, type TraceVerification } from '../service/index.ts';
import { readRegularFile } from '../node/paths.ts';
import { InputError, loadContract, type LoadedContract } from '../node/dryRunHost.ts';
import { displayPath } from './report.ts';

/** Largest trace file read (bytes). */
const MAX_TRACE_BYTES = 256 * 1024 * 1024;

/** The trace at `path`, verified; an unreadable file is an `InputError`. */
export async function readTrace(path: string, cwd: string): Promise<{ text: string; bytes: Buffer; verdict: TraceVerification }> {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(path, MAX_TRACE_BYTES);
  } catch (e) {
    throw new InputError('cli.files.unreadable', { arg: displayPath(cwd, path), error: (e as NodeJS.ErrnoException).code ?? String(e) });
  }
  const text = bytes.toString('utf8');
  return { text, bytes, verdict: await verifyTrace(text) };
}


/** The run's identity recorded in its `task_start`. */
export function runInfo(events: readonly TraceEvent[]): { id: string; contract: string; contractSha: string; snapshot: string; snapshotSha: string; query: string } {
  const start = events[0];
  const run = (start?.payload['run'] ?? {}) as Record<string, unknown>;
  if (start?.event_type !== 'task_start' || typeof run['contract'] !== 'string' || typeof run['snapshot'] !== 'string') throw new InputError('run.trace.no-task-start');
  return { id: String(run['id'] ?? ''), contract: run['contract'], contractSha: String(run['contract_sha256'] ?? ''), snapshot: run['snapshot'], snapshotSha: String(run['snapshot_sha256'] ?? ''), query: String(start.payload['query_id'] ?? '') };
}

/** The contract the run names, read from under `root`. */
export function contractOf(events: readonly TraceEvent[], root: string, cwd: string): Promise<LoadedContract> {
  return loadContract(resolve(root, runInfo(events).contract), cwd);
}
