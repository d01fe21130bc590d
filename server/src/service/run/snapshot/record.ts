/**
 * Recording a live run (docs/dry-run.md, "Recording a live run"): the model's answers of a run,
 * taken from its trace, written into the query's `model` script of the snapshot, so that the same
 * query replays offline with the scripted model, step for step: the same calls with the same
 * argument text, the same answers, the reported tokens as `usage` and the model's latency as
 * `delay_ms`. Pure: the CLI reads and writes the file.
 */
import { parseDocument } from 'yaml';
import type { ScriptStep } from './snapshot.ts';
import type { TraceEvent } from '../trace/trace.ts';

type Json = Record<string, unknown>;

/** A call's arguments as a script writes them: an object when the scripted model would write the same text from it, else the raw text. */
function argumentsOf(raw: string): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { raw_arguments: raw };
  }
  const plain = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && JSON.stringify(parsed) === raw;
  return plain ? { arguments: parsed } : { raw_arguments: raw };
}

/**
 * The script steps of the model answers in `events` (one per `model_step`). `script`: the
 * query's steps the run was given, whose `fire` lists the recorded steps keep.
 */
export function recordedScript(events: readonly TraceEvent[], script: readonly ScriptStep[] = []): Json[] {
  return events
    .filter((e) => e.event_type === 'model_step')
    .map((e, i) => {
      const p = e.payload as Record<string, any>;
      const calls: { name: string; arguments: string }[] = (Array.isArray(p['calls']) ? p['calls'] : []).map((c: any) => ({ name: String(c.name), arguments: String(c.arguments) }));
      const fire = script[i]?.fire ?? [];
      const latency = Number(p['timing']?.['latency_ms'] ?? 0);
      const step: Json =
        p['kind'] === 'final'
          ? { final: String(p['text'] ?? '') }
          : calls.length === 1
            ? { call: calls[0]!.name, ...argumentsOf(calls[0]!.arguments) }
            : { calls: calls.map((c) => ({ name: c.name, ...argumentsOf(c.arguments) })) };
      return {
        ...step,
        ...(p['kind'] !== 'final' && typeof p['text'] === 'string' && p['text'] !== '' ? { say: p['text'] } : {}),
        ...(fire.length > 0 ? { fire: [...fire] } : {}),
        usage: { prompt_tokens: Number(p['usage']?.['prompt_tokens'] ?? 0), completion_tokens: Number(p['usage']?.['completion_tokens'] ?? 0) },
        ...(Number.isFinite(latency) && latency > 0 ? { delay_ms: Math.round(latency) } : {}),
      };
    });
}

/**
 * The snapshot text with the `model` script of query `queryId` replaced by `steps`: a YAML
 * snapshot keeps its comments and layout elsewhere, a JSON one stays JSON. Undefined when the
 * snapshot has no such query.
 */
export function withRecordedScript(text: string, queryId: string, steps: readonly Json[], syntax: 'yaml' | 'json'): string | undefined {
  if (syntax === 'json') {
    const data = JSON.parse(text) as { queries?: Json[] };
    const query = data.queries?.find((q) => q?.['id'] === queryId);
    if (!query) return undefined;
    query['model'] = steps;
    return `${JSON.stringify(data, null, 2)}\n`;
  }
  const doc = parseDocument(text);
  const queries = (doc.toJS({ maxAliasCount: 1000 }) as { queries?: { id?: unknown }[] } | null)?.queries;
  const index = Array.isArray(queries) ? queries.findIndex((q) => q?.id === queryId) : -1;
  if (index < 0) return undefined;
  doc.setIn(['queries', index, 'model'], doc.createNode(steps));
  return String(doc);
}
