/**
 * Reading production traces for conformance (docs/conformance.md, "Inputs"), streaming: a file or
 * a folder (walked to a bounded depth) of OTLP JSON, one export request per line (the collector's
 * file exporter, `trace export --otlp`) or one pretty-printed request per file (at most
 * `MAX_WHOLE_FILE_BYTES`), and our own trace JSONL (one dry run per file). Lines are read one at a
 * time (`lineReader.ts`, none longer than `MAX_LINE_BYTES` held) and each span is handed on as it
 * is read, so memory stays bounded by the grader's state, not by the size of the files.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { dryRunSpans, otlpRequestSpans, type ObservedSpan, type TraceEvent } from '../service/index.ts';
import { InputError } from './inputError.ts';
import { eachLine } from './lineReader.ts';

/** A file that is one JSON document (not one per line) is read whole up to this size. */
export const MAX_WHOLE_FILE_BYTES = 64 * 1024 * 1024;
/** A longer line is skipped (counted): one export request per line is far smaller in practice. */
export const MAX_LINE_BYTES = MAX_WHOLE_FILE_BYTES;
/** A dry run's trace has at most this many events (the dry run's budgets keep real ones far below). */
const MAX_RUN_EVENTS = 200_000;
const MAX_DEPTH = 6;
const MAX_FILES = 100_000;
const TRACE_FILE = /\.(?:jsonl|ndjson|json)$/i;

export interface TraceReadStats {
  files: number;
  /** Lines that are neither an OTLP request nor a trace event (skipped). */
  skippedLines: number;
  /** Lines longer than `MAX_LINE_BYTES` (skipped unread). */
  tooLongLines: number;
}

/** The trace files under a path: the file itself, or the `.json`/`.jsonl`/`.ndjson` files of a folder, sorted. */
export async function traceFiles(path: string): Promise<string[]> {
  const info = await stat(path).catch((e: NodeJS.ErrnoException) => {
    throw new InputError('conformance.cli.cannotRead', { file: path, error: e.code ?? String(e) });
  });
  if (!info.isDirectory()) return [path];
  const out: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH || out.length >= MAX_FILES) return;
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') await walk(join(dir, e.name), depth + 1);
      else if (e.isFile() && TRACE_FILE.test(e.name) && out.length < MAX_FILES) out.push(join(dir, e.name));
    }
  };
  await walk(path, 0);
  return out;
}

const parse = (line: string): unknown => {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
};

/** Reads one file, handing every span to `onSpan`. */
export async function readTraceFile(file: string, onSpan: (span: ObservedSpan) => void, stats: TraceReadStats): Promise<void> {
  stats.files++;
  const events: TraceEvent[] = [];
  let first = true;
  let whole = false;
  try {
    const lines = await eachLine(file, MAX_LINE_BYTES, (line, n) => {
      if (line.trim() === '') return true;
      const value = parse(line) as Record<string, unknown> | undefined;
      if (first && value === undefined && /^\s*[{[]/.test(line)) return !(whole = true);
      first = false;
      if (value && Array.isArray(value['resourceSpans'])) for (const s of otlpRequestSpans(value, { file, line: n })) onSpan(s);
      else if (value && typeof value['event_type'] === 'string' && events.length < MAX_RUN_EVENTS) events.push(value as unknown as TraceEvent);
      else stats.skippedLines++;
      return true;
    });
    stats.tooLongLines += lines.tooLong;
  } catch (e) {
    if (!(e as NodeJS.ErrnoException).code) throw e;
    throw new InputError('conformance.cli.cannotRead', { file, error: (e as NodeJS.ErrnoException).code! });
  }
  if (whole) return readWholeFile(file, onSpan, stats);
  if (events.length > 0) for (const s of await dryRunSpans(events)) onSpan(s);
}

async function readWholeFile(file: string, onSpan: (span: ObservedSpan) => void, stats: TraceReadStats): Promise<void> {
  const size = (await stat(file)).size;
  if (size > MAX_WHOLE_FILE_BYTES) throw new InputError('conformance.cli.tooLarge', { file, max: MAX_WHOLE_FILE_BYTES / 1024 / 1024 });
  const value = parse(await readFile(file, 'utf8')) as Record<string, unknown> | undefined;
  if (!value || !Array.isArray(value['resourceSpans'])) {
    stats.skippedLines++;
    return;
  }
  for (const s of otlpRequestSpans(value, { file })) onSpan(s);
}

/** Reads every trace file under `path`. */
export async function readTraces(path: string, onSpan: (span: ObservedSpan) => void): Promise<TraceReadStats> {
  const stats: TraceReadStats = { files: 0, skippedLines: 0, tooLongLines: 0 };
  for (const file of await traceFiles(path)) await readTraceFile(file, onSpan, stats);
  return stats;
}
