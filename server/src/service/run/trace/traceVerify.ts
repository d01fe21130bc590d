/**
 * Checks a trace file's text (docs/dry-run.md "The trace"): every complete line is a JSON
 * event of the schema, each event points at the one before it, and every checksum matches the
 * chain. A last line without its line feed is a torn write (the process died while writing it):
 * reported apart, the events before it stay valid. Pure; works on text of any size line by line.
 */
import { EVENT_STATUSES, EVENT_TYPES, eventChecksum, type TraceEvent } from './trace.ts';
import { scanJson } from '../../util/jsonScan.ts';

/**
 * Deepest nesting of a trace line: a snapshot nests at most 200 levels (snapshotValidate.ts) and
 * an event wraps its values in a few more; a deeper line is refused before anything walks it.
 */
const MAX_LINE_DEPTH = 256;

/** One problem found in a trace, at a 1-based line. */
export interface TraceProblem {
  readonly line: number;
  readonly messageId: string;
  readonly args: Readonly<Record<string, string | number>>;
}

/** The verdict on a trace. */
export interface TraceVerification {
  /** The events of the complete, well-formed lines, in file order. */
  readonly events: readonly TraceEvent[];
  /** Corruption: malformed lines, broken links, wrong checksums. Empty when the chain is intact. */
  readonly problems: readonly TraceProblem[];
  /** A torn last line (a write interrupted by a crash): its line and size in UTF-8 bytes. */
  readonly torn?: { readonly line: number; readonly bytes: number };
  /** True when the last event is `task_end` (the run finished). */
  readonly complete: boolean;
}

const TYPES = new Set<string>(EVENT_TYPES);
const STATUSES = new Set<string>(EVENT_STATUSES);

/** The fields of an event line (trace.ts `TraceEvent`). */
const EVENT_FIELDS = new Set(['event_id', 'event_type', 'timestamp', 'source', 'status', 'prev_event', 'payload', 'checksum']);

/** Why a parsed value is not a trace event (the variant of `trace.bad-event.*` and its arguments), or undefined when it is one. */
function shapeProblem(v: unknown): { variant: string; args?: Record<string, string> } | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { variant: 'not-object' };
  const e = v as Record<string, unknown>;
  if (typeof e['event_id'] !== 'string' || e['event_id'] === '') return { variant: 'event-id' };
  if (typeof e['event_type'] !== 'string' || !TYPES.has(e['event_type'])) return { variant: 'event-type', args: { values: EVENT_TYPES.join(', ') } };
  if (typeof e['timestamp'] !== 'string' || Number.isNaN(Date.parse(e['timestamp']))) return { variant: 'timestamp' };
  if (typeof e['source'] !== 'string') return { variant: 'source' };
  if (typeof e['status'] !== 'string' || !STATUSES.has(e['status'])) return { variant: 'status', args: { values: EVENT_STATUSES.join(', ') } };
  if (e['prev_event'] !== null && typeof e['prev_event'] !== 'string') return { variant: 'prev-event' };
  if (!e['payload'] || typeof e['payload'] !== 'object' || Array.isArray(e['payload'])) return { variant: 'payload' };
  if (typeof e['checksum'] !== 'string' || !/^[0-9a-f]{64}$/.test(e['checksum'])) return { variant: 'checksum' };
  // The checksum covers the event's fields: a field added to a line would pass unseen otherwise.
  const extra = Object.keys(e).filter((k) => !EVENT_FIELDS.has(k));
  if (extra.length > 0) return { variant: 'extra-field', args: { fields: extra.join(', ') } };
  return undefined;
}

const encoder = new TextEncoder();

/** Verifies a trace's text. Never throws. */
export async function verifyTrace(text: string): Promise<TraceVerification> {
  // A byte order mark some editors add is not part of the first event.
  const lines = (text.startsWith('\uFEFF') ? text.slice(1) : text).split('\n');
  const last = lines.pop()!;
  const torn = last !== '' ? { line: lines.length + 1, bytes: encoder.encode(last).length } : undefined;
  const events: TraceEvent[] = [];
  const problems: TraceProblem[] = [];
  const ids = new Set<string>();
  let previous: TraceEvent | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(lines[i]!);
    } catch (e) {
      problems.push({ line, messageId: 'trace.bad-json', args: { line, detail: String((e as Error).message).split('\n')[0]! } });
      continue;
    }
    // A duplicated key would pass: the checksum covers the value JSON.parse kept, not the line.
    const scan = scanJson(lines[i]!, MAX_LINE_DEPTH);
    if (scan) {
      problems.push('duplicateKey' in scan ? { line, messageId: 'trace.duplicate-key', args: { line, key: scan.duplicateKey } } : { line, messageId: 'trace.too-deep', args: { line, limit: scan.tooDeep } });
      continue;
    }
    const shape = shapeProblem(value);
    if (shape) {
      problems.push({ line, messageId: `trace.bad-event.${shape.variant}`, args: { line, ...shape.args } });
      continue;
    }
    const e = value as TraceEvent;
    if (ids.has(e.event_id)) problems.push({ line, messageId: 'trace.duplicate-id', args: { line, id: e.event_id } });
    ids.add(e.event_id);
    const expectedPrev = previous?.event_id ?? null;
    if (e.prev_event !== expectedPrev) problems.push({ line, messageId: 'trace.bad-prev', args: { line, id: e.event_id, prev: String(e.prev_event), expected: String(expectedPrev) } });
    const expected = await eventChecksum(previous?.checksum ?? '', e);
    if (expected !== e.checksum) problems.push({ line, messageId: 'trace.bad-checksum', args: { line, id: e.event_id, actual: e.checksum.slice(0, 12), expected: expected.slice(0, 12) } });
    events.push(e);
    previous = e;
  }
  return { events, problems, ...(torn ? { torn } : {}), complete: events[events.length - 1]?.event_type === 'task_end' };
}
