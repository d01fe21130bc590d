/**
 * A dry run's trace as OpenTelemetry span data following the GenAI semantic conventions
 * (docs/tracing.md): one `invoke_agent` span for the run, with a `search_memory` span per
 * retrieval, a `chat` span per model step and an `execute_tool` span per tool call as its children;
 * checks are `gen_ai.evaluation.result` events, human decisions, conditions and protocol entries
 * events too. Plain data in and out: the OpenTelemetry SDK and the OTLP encodings live in the
 * Node hosts (`server/src/node/otlpExport.ts`). The trace is already redacted; the contract's PII
 * fields are applied again so that a trace written before they were named leaks nothing either.
 */
import { sha256Hex } from '../../util/sha256.ts';
import { contractView } from '../../model/contractView.ts';
import type { ParsedContract } from '../../model/types.ts';
import { Redactor } from './redact.ts';
import type { TraceEvent } from './trace.ts';

export type SpanAttributeValue = string | number | boolean | readonly string[];
export type SpanAttributes = Readonly<Record<string, SpanAttributeValue>>;

export interface SpanEventData {
  readonly name: string;
  /** Epoch milliseconds. */
  readonly timeMs: number;
  readonly attributes: SpanAttributes;
}

export interface SpanData {
  /** 32 hex digits, the same for every span of a run. */
  readonly traceId: string;
  /** 16 hex digits, derived from the run id and the event that opens the span (re-exports match). */
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  /** `client` for calls out of the agent (the model, a tool, a memory pool), `internal` for the run. */
  readonly kind: 'internal' | 'client';
  readonly startMs: number;
  readonly endMs: number;
  readonly attributes: SpanAttributes;
  readonly events: readonly SpanEventData[];
  readonly status: { readonly code: 'unset' | 'ok' | 'error'; readonly message?: string };
}

export interface TraceSpansOptions {
  /** The run's contract, when it can be read: its COMPLIANCE `pii_fields` are applied again to every exported value. */
  readonly contract?: ParsedContract;
}

/** Longest text put in one attribute (a prompt, a result): backends drop larger values. */
const MAX_TEXT = 8192;

type Mutable = { -readonly [K in keyof SpanData]: SpanData[K] } & { attributes: Record<string, SpanAttributeValue>; events: SpanEventData[] };

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const text = (v: unknown): string => {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? '';
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s;
};
const time = (e: TraceEvent): number => {
  const t = Date.parse(e.timestamp);
  return Number.isFinite(t) ? t : 0;
};
/** Attributes without the undefined ones. */
const attrs = (o: Record<string, SpanAttributeValue | undefined>): Record<string, SpanAttributeValue> =>
  Object.fromEntries(Object.entries(o).filter((kv): kv is [string, SpanAttributeValue] => kv[1] !== undefined));

/** The label of a check's result (`gen_ai.evaluation.score.label`) by the event's status. */
const EVALUATION_LABEL: Readonly<Record<string, string>> = { success: 'pass', failure: 'fail', invalid: 'fail', skipped: 'not_checkable', unknown: 'unknown', timeout: 'fail', pending: 'unknown' };

/**
 * The spans of one run's events (a trace as `verifyTrace` returns it). A run without its
 * `task_end` (interrupted) ends at its last event with an unset status.
 */
export async function traceSpans(events: readonly TraceEvent[], options: TraceSpansOptions = {}): Promise<SpanData[]> {
  const first = events[0];
  if (!first) return [];
  const redactor = runRedactor(events, options);
  const state = await rootState(first, events[events.length - 1]!);
  for (const e of events) {
    await addEvent(state, e);
    state.previous = time(e);
  }
  const { root, spans } = state;
  root.attributes['gen_ai.usage.input_tokens'] = state.input;
  root.attributes['gen_ai.usage.output_tokens'] = state.output;
  return spans.map((s) => ({ ...s, attributes: redactor.apply(s.attributes), events: s.events.map((x) => ({ ...x, attributes: redactor.apply(x.attributes) })), status: redactor.apply(s.status) }));
}

/** The redactor of a run: the contract's `pii_fields`, and every value the run's payloads and tool arguments hold under them. */
function runRedactor(events: readonly TraceEvent[], options: TraceSpansOptions): Redactor {
  const redactor = new Redactor(options.contract ? contractView(options.contract).piiFields : []);
  for (const e of events) {
    redactor.learn(e.payload);
    const args = e.event_type === 'tool_call' ? str(e.payload['arguments']) : undefined;
    if (args) redactor.learn(parsed(args));
  }
  return redactor;
}

/** What building a run's spans keeps from event to event. */
interface SpanState {
  readonly traceId: string;
  /** The span id of an event (or `root`), stable for the run and query. */
  readonly spanId: (id: string) => Promise<string>;
  readonly provider: string | undefined;
  readonly model: string | undefined;
  readonly root: Mutable;
  readonly spans: Mutable[];
  /** Tool spans by their `tool_call` event id. */
  readonly tools: Map<string, Mutable>;
  chat: Mutable | undefined;
  /** The tool span whose checks and approvals come next. */
  open: Mutable | undefined;
  /** The time of the previous event: a model step starts there. */
  previous: number;
  input: number;
  output: number;
}

/** The run's root span (`invoke_agent`) and the ids of its trace, from its first and last events. */
async function rootState(first: TraceEvent, last: TraceEvent): Promise<SpanState> {
  const run = (first.payload['run'] ?? {}) as Record<string, unknown>;
  const runId = str(run['id']) ?? first.checksum;
  // An eval run holds one trace per query under one run id: the query tells their spans apart.
  const queryId = str(first.payload['query_id']);
  const key = queryId ? `${runId}\n${queryId}` : runId;
  const traceId = (await sha256Hex(`trace\n${key}`)).slice(0, 32);
  const spanId = async (id: string) => (await sha256Hex(`span\n${key}\n${id}`)).slice(0, 16);
  const agentName = str(first.payload['contract_name']) ?? 'agent';
  const provider = str(first.payload['provider']);
  const model = str(first.payload['model']);
  const root: Mutable = {
    traceId, spanId: await spanId('root'), name: `invoke_agent ${agentName}`, kind: 'internal', startMs: time(first), endMs: time(last),
    attributes: attrs({
      'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': agentName, 'gen_ai.provider.name': provider, 'gen_ai.request.model': model,
      'gen_ai.conversation.id': runId, 'agents_md.query.id': str(first.payload['query_id']), 'agents_md.contract.sha256': str(run['contract_sha256']),
    }),
    events: [], status: { code: 'unset' },
  };
  return { traceId, spanId, provider, model, root, spans: [root], tools: new Map(), chat: undefined, open: undefined, previous: time(first), input: 0, output: 0 };
}

const spanEvent = (span: Mutable, e: TraceEvent, name: string, a: Record<string, SpanAttributeValue | undefined>) =>
  span.events.push({ name, timeMs: time(e), attributes: attrs({ 'agents_md.event.id': e.event_id, ...a }) });

/** One event: a span of its own (memory search, model step, tool call), the end of one, or an event on one. */
async function addEvent(state: SpanState, e: TraceEvent): Promise<void> {
  const { traceId, root, spans, tools } = state;
  const p = e.payload;
  switch (e.event_type) {
    case 'memory_retrieval': {
      const pool = str(p['pool']) ?? '';
      const ms = num((p['timing'] as Record<string, unknown> | undefined)?.['ms']) ?? 0;
      spans.push({
        traceId, spanId: await state.spanId(e.event_id), parentSpanId: root.spanId, name: `search_memory ${pool}`, kind: 'client', startMs: time(e) - ms, endMs: time(e),
        attributes: attrs({ 'gen_ai.operation.name': 'search_memory', 'gen_ai.memory.store.name': pool, 'gen_ai.memory.search.result.count': num(p['returned']), 'agents_md.memory.matched': num(p['matched']), 'agents_md.pointer': str(p['pointer']) }),
        events: [], status: e.status === 'success' ? { code: 'unset' } : { code: 'error', message: e.status },
      });
      return;
    }
    case 'prompt':
      root.attributes['gen_ai.system_instructions'] = text(p['text']);
      return;
    case 'model_step':
      state.chat = await chatSpan(state, e);
      spans.push(state.chat);
      state.open = undefined;
      return;
    case 'tool_call': {
      const tool = str(p['tool']) ?? '';
      state.open = {
        traceId, spanId: await state.spanId(e.event_id), parentSpanId: root.spanId, name: `execute_tool ${tool}`, kind: 'internal', startMs: time(e), endMs: time(e),
        attributes: attrs({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool, 'gen_ai.tool.type': 'function', 'gen_ai.tool.call.id': str(p['call_id']), 'gen_ai.tool.call.arguments': text(p['arguments']) }),
        events: [], status: { code: 'unset' },
      };
      tools.set(e.event_id, state.open);
      spans.push(state.open);
      return;
    }
    case 'tool_result': {
      const span = tools.get(str(p['call_ref']) ?? '') ?? state.open;
      if (!span) return;
      span.endMs = time(e);
      if (p['result'] !== undefined) span.attributes['gen_ai.tool.call.result'] = text(p['result']);
      if (e.status !== 'success') {
        span.status = { code: 'error', ...(str(p['code']) ? { message: str(p['code'])! } : {}) };
        const code = str(p['code']);
        if (code) span.attributes['error.type'] = code;
      }
      return;
    }
    case 'task_end':
      return endRoot(root, p);
    default:
      return annotate(state, e);
  }
}

/** A model step's `chat` span, from the previous event to this one, with its tokens counted for the run. */
async function chatSpan(state: SpanState, e: TraceEvent): Promise<Mutable> {
  const { provider, model } = state;
  const p = e.payload;
  const usage = (p['usage'] ?? {}) as Record<string, unknown>;
  const inTokens = num(usage['prompt_tokens']) ?? 0;
  const outTokens = num(usage['completion_tokens']) ?? 0;
  state.input += inTokens;
  state.output += outTokens;
  const calls = Array.isArray(p['calls']) ? (p['calls'] as Record<string, unknown>[]) : [];
  return {
    traceId: state.traceId, spanId: await state.spanId(e.event_id), parentSpanId: state.root.spanId, name: model ? `chat ${model}` : 'chat', kind: 'client', startMs: state.previous, endMs: time(e),
    attributes: attrs({
      'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': provider, 'gen_ai.request.model': model,
      'gen_ai.usage.input_tokens': inTokens, 'gen_ai.usage.output_tokens': outTokens,
      'gen_ai.response.finish_reasons': [p['kind'] === 'final' ? 'stop' : 'tool_calls'],
      'gen_ai.output.messages': JSON.stringify(calls.length > 0
        ? [{ role: 'assistant', parts: calls.map((c) => ({ type: 'tool_call', id: c['id'], name: c['name'], arguments: c['arguments'] })) }]
        : [{ role: 'assistant', parts: [{ type: 'text', content: text(p['text']) }] }]),
      'agents_md.step': num(p['step']),
    }),
    events: [], status: e.status === 'success' ? { code: 'unset' } : { code: 'error', message: e.status },
  };
}

/** The outcome of the run on its root span. */
function endRoot(root: Mutable, p: Record<string, unknown>): void {
  const outcome = str(p['outcome']);
  root.attributes['agents_md.outcome'] = outcome ?? '';
  if (str(p['code'])) root.attributes['agents_md.outcome.code'] = str(p['code'])!;
  if (str(p['error_code'])) root.attributes['agents_md.error_code'] = str(p['error_code'])!;
  root.status = outcome === 'success' ? { code: 'ok' } : { code: 'error', message: str(p['message']) ?? outcome ?? '' };
  if (outcome !== 'success' && str(p['code'])) root.attributes['error.type'] = str(p['code'])!;
}

/** An event that is a span event: on the open tool span, the last model step or the root, by what it concerns. */
function annotate(state: SpanState, e: TraceEvent): void {
  const { root, open, chat, spans } = state;
  const p = e.payload;
  switch (e.event_type) {
    case 'memory_check':
      spanEvent(root, e, 'agents_md.memory_check', { 'gen_ai.memory.store.name': str(p['pool']), 'agents_md.status': e.status, 'agents_md.memory.status': str(p['status']) });
      break;
    case 'validation': {
      // A check of a tool's call or result belongs to its tool span; a check of the answer to the step that gave it.
      const target = p['subject'] !== 'output' && open ? open : chat ?? root;
      spanEvent(target, e, 'gen_ai.evaluation.result', {
        'gen_ai.evaluation.name': str(p['check']), 'gen_ai.evaluation.score.label': EVALUATION_LABEL[e.status] ?? e.status,
        'gen_ai.evaluation.explanation': str(p['detail']), 'agents_md.subject': str(p['subject']), 'agents_md.pointer': str(p['pointer']),
      });
      break;
    }
    case 'human_input':
      spanEvent(p['kind'] === 'tool_approval' && open ? open : root, e, 'agents_md.human_input', { 'agents_md.subject': str(p['subject']), 'agents_md.reason': str(p['reason']), 'agents_md.sla': str(p['sla']) || undefined, 'agents_md.on_timeout': str(p['on_timeout']), 'agents_md.pointer': str(p['pointer']) });
      break;
    case 'human_response': {
      const pause = spans.find((s) => s.events.some((x) => x.attributes['agents_md.event.id'] === p['input_ref'])) ?? root;
      spanEvent(pause, e, 'agents_md.human_decision', { 'agents_md.subject': str(p['subject']), 'agents_md.decision': str(p['decision']), 'agents_md.decided_by': str(p['decided_by']) });
      break;
    }
    case 'condition':
      spanEvent(root, e, 'agents_md.condition', { 'agents_md.condition': str(p['condition']), 'agents_md.state': str(p['state']), 'agents_md.scenario': str(p['scenario']), 'agents_md.pointer': str(p['pointer']) });
      break;
    case 'protocol':
    case 'alert':
    case 'correction':
    case 'fork':
      spanEvent(e.event_type === 'correction' && chat ? chat : root, e, `agents_md.${e.event_type}`, { 'agents_md.error_code': str(p['error_code']) ?? str(p['code']), 'agents_md.condition': str(p['condition']), 'agents_md.channel': str(p['channel']), 'agents_md.pointer': str(p['pointer']) });
      break;
    default:
      break;
  }
}

function parsed(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}
