/**
 * The scripted model (docs/model-providers.md: mocked by default, scripted, deterministic): a
 * `ModelProvider` that plays a snapshot query's steps. The step played is chosen from the request
 * itself (the number of assistant messages so far), so the provider keeps no state: a replay or a
 * fork that answers the first steps from a trace can hand over to it at any step.
 */
import { ModelError, type ModelProvider, type ModelRequest, type ModelStep, type TokenUsage } from './llmProvider.ts';
import type { ScriptStep } from '../snapshot/snapshot.ts';
import { estimateTokens } from './estimateTokens.ts';

/** Estimated usage of a step: the whole request as prompt, the step's text as completion. */
export function estimateUsage(request: ModelRequest, completion: string): TokenUsage {
  let prompt = 0;
  for (const m of request.messages) prompt += estimateTokens(m.content) + (m.toolCalls ?? []).reduce((s, c) => s + estimateTokens(c.name + c.rawArguments), 0);
  return { promptTokens: prompt, completionTokens: estimateTokens(completion) };
}

/** The identifier scripted runs show in the trace. */
export const SCRIPTED_PROVIDER_ID = 'scripted';

/** A provider that plays `steps` in order; asked for more, it fails with `MODEL_PROTOCOL_ERROR`. */
export function createScriptedModel(steps: readonly ScriptStep[]): ModelProvider {
  return {
    id: SCRIPTED_PROVIDER_ID,
    async step(request: ModelRequest): Promise<ModelStep> {
      if (request.signal?.aborted) throw ModelError.of('CANCELLED', { id: 'outcome.CANCELLED', args: {} });
      const assistant = request.messages.filter((m) => m.role === 'assistant');
      const index = assistant.length;
      const step = steps[index];
      if (!step) throw ModelError.of('MODEL_PROTOCOL_ERROR', { id: 'detail.script-exhausted', args: { step: index + 1, steps: steps.length } });
      if (step.kind === 'final') return { kind: 'final', text: step.text, usage: step.usage ?? estimateUsage(request, step.text) };
      let n = assistant.reduce((s, m) => s + (m.toolCalls?.length ?? 0), 0);
      const calls = step.calls.map((c) => ({ id: `call-${++n}`, name: c.name, rawArguments: c.rawArguments }));
      const text = step.say ?? '';
      return { kind: 'tool_calls', calls, ...(step.say !== undefined ? { text } : {}), usage: step.usage ?? estimateUsage(request, text + calls.map((c) => c.name + c.rawArguments).join('')) };
    },
  };
}
