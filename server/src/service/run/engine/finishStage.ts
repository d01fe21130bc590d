/**
 * How a dry run ends (docs/dry-run.md, "Outcomes"): the FAILURE_PROTOCOL entry that handles a
 * failure (its protocol step, alert and fallback answer), the outcome with its message and
 * clause, and the `task_end` event with the run's figures.
 */
import { locate } from '../../model/locate.ts';
import type { ModelError } from '../llm/llmProvider.ts';
import { fallbackAnswer, handlerFor } from './failureProtocol.ts';
import { OUTCOME_CODES, type OutcomeStatus } from '../messages.ts';
import { outcomeText, withArgMessages } from '../runMessage.ts';
import type { Failure, Outcome, RunResult } from './runTypes.ts';
import type { RunState } from './runState.ts';

/**
 * The failure a provider's error ends the run with. A scripted model that runs out of steps is a
 * path the snapshot does not script (often the other answer to a human question): said so, with the
 * decision that led there, rather than as an unusable answer of a model called "scripted".
 */
export function modelFailure(s: RunState, e: ModelError): Failure {
  if (e.code === 'CANCELLED') return { code: 'CANCELLED', args: {} };
  if (e.detail?.id === 'detail.script-exhausted') {
    const args = { step: Number(e.detail.args['step']), steps: Number(e.detail.args['steps']) };
    const human = [...s.recorder.events].reverse().find((ev) => ev.event_type === 'human_response')?.payload;
    return human && typeof human['subject'] === 'string'
      ? { code: e.code, variant: 'script-exhausted-after-human', args: { ...args, decision: String(human['decision']), subject: human['subject'] } }
      : { code: e.code, variant: 'script-exhausted', args };
  }
  return { code: e.code, ...(e.detail ? withArgMessages({ provider: s.o.provider.id }, { detail: e.detail }) : { args: { provider: s.o.provider.id, detail: e.message } }) };
}

/** Applies the handling FAILURE_PROTOCOL entry, records `task_end` and returns the result. */
export async function finish(s: RunState, failure: Failure, answer: unknown): Promise<RunResult> {
  const spec = OUTCOME_CODES[failure.code];
  let status: OutcomeStatus = spec.status;
  const messageId = failure.variant ? `outcome.${failure.code}.${failure.variant}` : `outcome.${failure.code}`;
  let protocol: Outcome['protocol'];
  if (failure.code !== 'OK' && failure.code !== 'CANCELLED') {
    const entry = failure.entry ?? handlerFor(s.view, failure.code, { ...(failure.scenario ? { scenario: failure.scenario } : {}), pending: s.pending });
    if (entry) {
      const fb = fallbackAnswer(entry, (name) => s.o.file?.(name));
      await s.emit('protocol', 'protocol', 'success', { condition: entry.condition, trigger: failure.code, actions: entry.actions, ...(entry.code ? { error_code: entry.code } : {}), ...(fb ? { fallback: fb.source } : {}), pointer: entry.pointer });
      if (entry.alertChannel) await s.emit('alert', 'protocol', 'success', { channel: entry.alertChannel, severity: entry.severity ?? null, error_code: entry.code ?? null, pointer: entry.pointer });
      if (fb) {
        status = 'fallback';
        answer = fb.text;
      }
      const range = locate(s.o.contract, entry.pointer)?.value;
      protocol = { pointer: entry.pointer, condition: entry.condition, ...(entry.code ? { errorCode: entry.code } : {}), ...(range ? { range } : {}) };
    }
  }
  if (failure.code !== 'OK') s.path.push(failure.code);
  const range = failure.pointer ? locate(s.o.contract, failure.pointer)?.value : undefined;
  const argMessages = failure.argMessages ? { argMessages: failure.argMessages } : {};
  const message = outcomeText({ messageId, args: failure.args, ...argMessages, ...(protocol ? { protocol } : {}) });
  const outcome: Outcome = {
    status,
    code: failure.code,
    message,
    messageId,
    args: failure.args,
    ...argMessages,
    ...(failure.pointer ? { clause: { pointer: failure.pointer, ...(range ? { range } : {}) } } : {}),
    ...(protocol ? { protocol } : {}),
  };
  const stats = s.stats();
  await s.emit('task_end', 'runner', status === 'success' ? 'success' : 'failure', {
    outcome: status,
    code: failure.code,
    message,
    message_id: messageId,
    args: failure.args,
    ...(failure.argMessages ? { arg_messages: failure.argMessages } : {}),
    ...(failure.pointer ? { pointer: failure.pointer } : {}),
    ...(protocol ? { error_code: protocol.errorCode ?? null, protocol_pointer: protocol.pointer, protocol_condition: protocol.condition } : {}),
    ...(answer !== undefined ? { answer } : {}),
    stats: { steps: stats.steps, tokens: stats.tokens, tools: stats.tools, human_decisions: stats.humanDecisions, path: stats.path },
    timing: { elapsed_ms: stats.elapsedMs, real_ms: Math.round(s.sim.real) },
  });
  return { outcome, ...(answer !== undefined ? { answer } : {}), stats, events: s.recorder.events };
}
