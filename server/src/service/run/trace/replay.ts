/**
 * Replaying and forking a run from its trace (docs/dry-run.md "The trace": replay and retry
 * are possible because the history is complete; a fork starts a new chain before an event). A replay re-executes the run with the model's answers and the human decisions taken
 * from the trace (so even a run against a real endpoint replays offline) and compares the events;
 * a fork re-executes up to an event the same way, then goes on with a live provider and new
 * decisions in a namespace of its own. Pure: the CLI reads and writes the files.
 */
import { ModelError, type ChatMessage, type ModelProvider, type ModelStep } from '../llm/llmProvider.ts';
import { runQuery, type Decide, type RunOptions } from '../engine/engine.ts';
import type { HumanDecision } from '../snapshot/snapshot.ts';
import { sameEvent, stablePayload, type TraceEvent } from './trace.ts';
import { canonicalJson } from '../../util/canonicalJson.ts';
import type { MessageRef } from '../runMessage.ts';

/** The identifier of the provider that answers from a trace. */
export const RECORDED_PROVIDER_ID = 'recorded';

/** The model steps recorded in `events` (one per `model_step`, in order). */
export function recordedSteps(events: readonly TraceEvent[]): ModelStep[] {
  return events
    .filter((e) => e.event_type === 'model_step')
    .map((e): ModelStep => {
      const p = e.payload as Record<string, any>;
      const usage = { promptTokens: Number(p['usage']?.['prompt_tokens'] ?? 0), completionTokens: Number(p['usage']?.['completion_tokens'] ?? 0) };
      if (p['kind'] === 'final') return { kind: 'final', text: String(p['text'] ?? ''), usage };
      const calls = (Array.isArray(p['calls']) ? p['calls'] : []).map((c: any) => ({ id: String(c.id), name: String(c.name), rawArguments: String(c.arguments) }));
      return { kind: 'tool_calls', calls, ...(typeof p['text'] === 'string' ? { text: p['text'] } : {}), usage };
    });
}

/**
 * A provider that answers the n-th step with the n-th recorded step (n = the number of assistant
 * messages in the request, as the scripted model counts), and hands later steps to `then`.
 * Keeps the `id` of the run it replays, so that the replayed trace says the same.
 */
export function recordedProvider(events: readonly TraceEvent[], then?: ModelProvider): ModelProvider {
  const steps = recordedSteps(events);
  const start = events.find((e) => e.event_type === 'task_start');
  const id = typeof start?.payload['provider'] === 'string' ? start.payload['provider'] : RECORDED_PROVIDER_ID;
  return {
    id,
    async step(request) {
      const index = request.messages.filter((m) => m.role === 'assistant').length;
      const step = steps[index];
      if (step) return step;
      if (then) return then.step(request);
      throw ModelError.of('MODEL_PROTOCOL_ERROR', { id: 'detail.trace-exhausted', args: { step: index + 1, steps: steps.length } });
    },
  };
}

/** Answers pauses with the decisions recorded in `events`, in order, then asks `then` (or times out). */
export function recordedDecisions(events: readonly TraceEvent[], then?: Decide): Decide {
  const decisions = events
    .filter((e) => e.event_type === 'human_response')
    .map((e) => {
      const decision = String(e.payload['decision']) as HumanDecision;
      const by = e.payload['decided_by'];
      return typeof by === 'string' ? { decision, by } : decision;
    });
  let next = 0;
  return async (request) => (next < decisions.length ? decisions[next++]! : then ? then(request) : 'timeout');
}

/**
 * The first difference between two runs (`index` 1-based, the original's event id, what differs
 * as a `replay.*` message), or undefined when they are the same step by step (timings
 * and timestamps aside).
 */
export function firstDifference(original: readonly TraceEvent[], replayed: readonly TraceEvent[]): { readonly index: number; readonly id: string; readonly detail: MessageRef } | undefined {
  const n = Math.max(original.length, replayed.length);
  for (let i = 0; i < n; i++) {
    const a = original[i];
    const b = replayed[i];
    if (!a || !b) return { index: i + 1, id: (a ?? b)!.event_id, detail: { id: a ? 'replay.ends' : 'replay.more', args: {} } };
    if (a.event_id !== b.event_id || !sameEvent(a, b)) {
      const detail: MessageRef =
        a.event_type !== b.event_type
          ? { id: 'replay.type', args: { before: a.event_type, after: b.event_type } }
          : a.status !== b.status
            ? { id: 'replay.status', args: { before: a.status, after: b.status } }
            : { id: 'replay.payload', args: { before: canonicalJson(stablePayload(a.payload)).slice(0, 120), after: canonicalJson(stablePayload(b.payload)).slice(0, 120) } };
      return { index: i + 1, id: a.event_id, detail };
    }
  }
  return undefined;
}

/** The events up to and including `eventId`, or undefined when the trace has no such event. */
export function eventsUpTo(events: readonly TraceEvent[], eventId: string): TraceEvent[] | undefined {
  const i = events.findIndex((e) => e.event_id === eventId);
  return i < 0 ? undefined : events.slice(0, i + 1);
}

/**
 * How a forked trace was made, for replaying it: the events before its last `fork` event (the
 * prefix the fork re-executed), that event's namespace (`fork-…/`) and payload. Undefined for a
 * trace that is not a fork.
 */
export function forkOf(events: readonly TraceEvent[]): { readonly prefix: readonly TraceEvent[]; readonly namespace: string; readonly payload: Readonly<Record<string, unknown>> } | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.event_type !== 'fork') continue;
    const slash = e.event_id.lastIndexOf('/');
    return { prefix: events.slice(0, i), namespace: slash < 0 ? '' : e.event_id.slice(0, slash + 1), payload: e.payload };
  }
  return undefined;
}

/**
 * The messages the model was sent at step `step` (1-based) of a recorded run: the run is
 * re-executed from its trace (recorded answers and decisions) and the request of that step is
 * kept. Undefined when the run never reached that step.
 */
export async function stepMessages(options: Omit<RunOptions, 'provider' | 'decide'> & { readonly events: readonly TraceEvent[]; readonly step: number }): Promise<readonly ChatMessage[] | undefined> {
  const { events, step, ...run } = options;
  const recorded = recordedProvider(events);
  let seen: readonly ChatMessage[] | undefined;
  const provider: ModelProvider = {
    id: recorded.id,
    step(request) {
      if (request.messages.filter((m) => m.role === 'assistant').length === step - 1) seen ??= request.messages;
      return recorded.step(request);
    },
  };
  await runQuery({ ...run, provider, decide: recordedDecisions(events) });
  return seen;
}
