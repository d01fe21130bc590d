/**
 * Reading a trace file for the `trace` commands: its bytes (bounded), its verification, the run's
 * identity from its `task_start` and the contract it names (docs/dry-run.md, "The trace").
 */
import { resolve } from 'node:path';
import { verifyTrace, type TraceEvent, type TraceVerification } from '../service/index.ts';
import { readRegularFile } from '../node/paths.ts';
import { InputError, loadContract, type LoadedContract } from '../node/dryRunHost.ts';
import { displayPath } from './report.ts';
import { runInfo } from '../node/traceRun.ts';

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
  // An empty file is not a trace: bad input (exit 2, docs/cli.md "Exit codes"), not an interrupted run.
  if (text.trim() === '') throw new InputError('run.trace.empty', { file: displayPath(cwd, path) });
  return { text, bytes, verdict: await verifyTrace(text) };
}


/** The contract the run names, read from under `root`. */
export function contractOf(events: readonly TraceEvent[], root: string, cwd: string): Promise<LoadedContract> {
  return loadContract(resolve(root, runInfo(events).contract), cwd);
}
