/**
 * The run's event log (docs/dry-run.md "The trace"): every step of a dry run is an
 * event with an id, a type from a closed set, a timestamp, its source module, a payload, the
 * previous event's id, a status and a checksum. Events are appended, never changed; one event is
 * one JSONL line. The checksum chains the events: it is the SHA-256 of the previous event's
 * checksum, a line feed, and the canonical JSON of the event without its checksum, so changing
 * any event breaks every checksum after it.
 */
import { canonicalJson } from '../../util/canonicalJson.ts';
import { sha256Hex } from '../../util/sha256.ts';

/** The closed set of event types. */
export const EVENT_TYPES = [
  'task_start',
  'trigger_match',
  'entity_extraction',
  'memory_check',
  'memory_retrieval',
  'context_assembly',
  'prompt',
  'model_step',
  'tool_call',
  'tool_result',
  'validation',
  'condition',
  'human_input',
  'human_response',
  'protocol',
  'alert',
  'final_output',
  'task_end',
  'fork',
  'correction',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Event statuses. `pending`: waiting for a human; `skipped`: not checkable or not needed. */
export const EVENT_STATUSES = ['success', 'failure', 'invalid', 'timeout', 'pending', 'skipped', 'unknown'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** The module that produced an event (`source`, to find who is responsible). */
export type EventSource = 'runner' | 'router' | 'boot' | 'retriever' | 'context' | 'prompt' | 'planner' | 'executor' | 'validator' | 'protocol' | 'human';

/** One event (fields as in docs/dry-run.md "The trace"). `timestamp` is ISO 8601 (UTC, ms). */
export interface TraceEvent {
  readonly event_id: string;
  readonly event_type: EventType;
  readonly timestamp: string;
  readonly source: EventSource;
  readonly status: EventStatus;
  /** The previous event's id; null for the first event of a chain. */
  readonly prev_event: string | null;
  /** Plain JSON data. Durations measured on the machine are under `timing` (replays ignore them). */
  readonly payload: Readonly<Record<string, unknown>>;
  readonly checksum: string;
}

/** The event without its checksum: what the checksum covers. */
export type UnsignedEvent = Omit<TraceEvent, 'checksum'>;

/** The checksum of `event` after the event whose checksum is `previous` ('' for the first). */
export function eventChecksum(previous: string, event: UnsignedEvent): Promise<string> {
  const { event_id, event_type, timestamp, source, status, prev_event, payload } = event;
  return sha256Hex(`${previous}\n${canonicalJson({ event_id, event_type, timestamp, source, status, prev_event, payload })}`);
}

/** One JSONL line of an event (with its line feed), fields in the documented order. */
export function eventLine(e: TraceEvent): string {
  return `${JSON.stringify({ event_id: e.event_id, event_type: e.event_type, timestamp: e.timestamp, source: e.source, status: e.status, prev_event: e.prev_event, payload: e.payload, checksum: e.checksum })}\n`;
}

/** The id of the `n`-th event (1-based) of a chain, in a namespace ('' or `fork-…/`). */
export function eventId(namespace: string, n: number): string {
  return `${namespace}evt_${String(n).padStart(4, '0')}`;
}

/** Where events go as they are made (a file writer, a UI stream); may be async. */
export type EventSink = (event: TraceEvent) => void | Promise<void>;

/**
 * Builds the chain: ids, previous ids, timestamps and checksums, and hands each event to the
 * sink before the next one is made (so a host sees events as they happen).
 *
 * For a fork, `prefix` holds the original events up to the fork point: the run is
 * re-executed and each event it makes is matched against the prefix instead of being emitted
 * (the original stays as it was); after the prefix a `fork` event starts the new namespace.
 */
export class TraceRecorder {
  readonly events: TraceEvent[] = [];
  private lastChecksum = '';
  private namespace = '';
  private readonly prefix: readonly TraceEvent[];
  private replayed = 0;
  private seq = 0;
  /** Set when a re-executed prefix event differs from the original: the fork cannot continue. */
  divergence?: { readonly index: number; readonly expected: TraceEvent; readonly actual: Omit<UnsignedEvent, 'event_id' | 'timestamp' | 'prev_event'> };

  constructor(
    private readonly options: {
      readonly now: () => number;
      readonly sink?: EventSink;
      /** Fork: the original events up to and including the fork point, and the fork's namespace and payload. */
      readonly fork?: { readonly prefix: readonly TraceEvent[]; readonly namespace: string; readonly payload: Readonly<Record<string, unknown>> };
    },
  ) {
    this.prefix = options.fork?.prefix ?? [];
  }

  /** The id the next event will get. */
  get nextId(): string {
    return this.replaying ? this.prefix[this.replayed]!.event_id : eventId(this.namespace, this.seq + 1);
  }

  private get replaying(): boolean {
    return this.replayed < this.prefix.length;
  }

  /** Appends an event and hands it to the sink. Returns the event (the original one while a fork replays its prefix). */
  async append(type: EventType, source: EventSource, status: EventStatus, payload: Record<string, unknown>): Promise<TraceEvent> {
    if (this.replaying) {
      const expected = this.prefix[this.replayed]!;
      if (!this.divergence && !sameEvent(expected, { event_type: type, source, status, payload })) {
        this.divergence = { index: this.replayed, expected, actual: { event_type: type, source, status, payload } };
      }
      this.replayed++;
      this.events.push(expected);
      this.lastChecksum = expected.checksum;
      this.seq = this.events.length;
      if (!this.replaying && this.options.fork) {
        this.namespace = this.options.fork.namespace;
        await this.emit('fork', 'runner', 'success', { ...this.options.fork.payload });
      }
      return expected;
    }
    return this.emit(type, source, status, payload);
  }

  private async emit(type: EventType, source: EventSource, status: EventStatus, payload: Record<string, unknown>): Promise<TraceEvent> {
    this.seq++;
    const unsigned: UnsignedEvent = {
      event_id: eventId(this.namespace, this.seq),
      event_type: type,
      timestamp: new Date(this.options.now()).toISOString(),
      source,
      status,
      prev_event: this.events.length > 0 ? this.events[this.events.length - 1]!.event_id : null,
      payload,
    };
    const event: TraceEvent = { ...unsigned, checksum: await eventChecksum(this.lastChecksum, unsigned) };
    this.lastChecksum = event.checksum;
    this.events.push(event);
    await this.options.sink?.(event);
    return event;
  }
}

/**
 * The payload without what differs between two executions of the same run: machine-measured
 * durations (`timing`) and the run's identity and clock (`run`: id, files, hashes, `now`).
 */
export function stablePayload(payload: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { timing: _timing, run: _run, ...rest } = payload;
  return rest;
}

/** True when two events are the same step of a run: type, source, status and payload apart from timings. */
export function sameEvent(a: Pick<TraceEvent, 'event_type' | 'source' | 'status' | 'payload'>, b: Pick<TraceEvent, 'event_type' | 'source' | 'status' | 'payload'>): boolean {
  return a.event_type === b.event_type && a.source === b.source && a.status === b.status && canonicalJson(stablePayload(a.payload)) === canonicalJson(stablePayload(b.payload));
}

/** Longest string a trace copies; a longer one is kept by its size and hash (docs/dry-run.md, "The trace"). */
export const TRACE_VALUE_CHARS = 65_536;

/**
 * `value` with every string longer than `TRACE_VALUE_CHARS` replaced by
 * `{ "$omitted": { "chars": …, "sha256": … } }`, so that a 5 MB field of a record is not copied
 * into the trace, yet the trace still tells which value it was. Values are at most 200 levels deep
 * (snapshotValidate.ts), so the walk is bounded.
 */
export async function boundedTraceValue(value: unknown): Promise<unknown> {
  if (typeof value === 'string') return value.length > TRACE_VALUE_CHARS ? { $omitted: { chars: value.length, sha256: await sha256Hex(value) } } : value;
  if (Array.isArray(value)) return Promise.all(value.map(boundedTraceValue));
  if (value && typeof value === 'object') return Object.fromEntries(await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await boundedTraceValue(v)] as const)));
  return value;
}
