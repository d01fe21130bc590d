/**
 * Budgets of a dry run (docs/dry-run.md, "Budgets"): time (simulated plus real), tokens and
 * steps, and the model step raced against the time left so that a provider that ignores the
 * signal cannot hang the run.
 */
import { ModelError, type ModelStep } from '../llm/llmProvider.ts';
import { Finish } from './runTypes.ts';
import type { RunState } from './runState.ts';

/** Ends the run when it was cancelled or is over its time or token budget. */
export function checkBudgets(s: RunState): void {
  s.cancelled();
  const b = s.view.budgets;
  const elapsed = Math.round(s.sim.elapsed);
  if (elapsed > b.timeoutMs) throw new Finish({ code: 'BUDGET_EXCEEDED', variant: 'time', args: { used: elapsed, limit: b.timeoutMs }, ...(b.timeoutPointer ? { pointer: b.timeoutPointer } : {}) });
  if (b.tokenBudget !== undefined && s.tokens > b.tokenBudget) throw new Finish({ code: 'BUDGET_EXCEEDED', variant: 'tokens', args: { used: s.tokens, limit: b.tokenBudget }, ...(b.tokenPointer ? { pointer: b.tokenPointer } : {}) });
}

/** Ends the run when the next step would be over the step budget. */
export function checkSteps(s: RunState): void {
  const b = s.view.budgets;
  if (s.steps >= b.maxSteps) throw new Finish({ code: 'BUDGET_EXCEEDED', variant: 'steps', args: { used: s.steps, limit: b.maxSteps }, ...(b.maxStepsPointer ? { pointer: b.maxStepsPointer } : {}) });
}

/** One model step, bounded by the time left (the provider is raced, so one that ignores the signal cannot hang the run). */
export async function modelStep(s: RunState): Promise<ModelStep> {
  const remaining = Math.max(0, s.view.budgets.timeoutMs - s.sim.elapsed);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, Math.min(remaining, 2 ** 31 - 1));
  const onHostAbort = () => controller.abort();
  s.o.signal?.addEventListener('abort', onHostAbort, { once: true });
  try {
    const tools = [...s.view.tools.values()].map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema ?? { type: 'object' } }));
    const left = s.view.budgets.tokenBudget === undefined ? undefined : Math.max(1, s.view.budgets.tokenBudget - s.tokens);
    const step = s.o.provider.step({ messages: [...s.messages], tools, signal: controller.signal, ...(left !== undefined ? { maxTokens: left } : {}) });
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(new ModelError('CANCELLED', 'aborted')), { once: true });
      if (controller.signal.aborted) reject(new ModelError('CANCELLED', 'aborted'));
    });
    return await Promise.race([step, aborted]);
  } catch (e) {
    if (timedOut) throw new Finish({ code: 'BUDGET_EXCEEDED', variant: 'time', args: { used: Math.round(s.sim.elapsed), limit: s.view.budgets.timeoutMs }, ...(s.view.budgets.timeoutPointer ? { pointer: s.view.budgets.timeoutPointer } : {}) });
    if (s.o.signal?.aborted) throw new Finish({ code: 'CANCELLED', args: {} });
    throw e;
  } finally {
    clearTimeout(timer);
    s.o.signal?.removeEventListener('abort', onHostAbort);
  }
}
