/**
 * The dry-run engine (docs/dry-run.md): boot-time validation → entity extraction and trigger
 * match → retrieval per MEMORY_REQUIREMENTS → context assembly → the system prompt → the loop
 * (model step; tool calls validated, mocked, checked, truncated; budgets; repeated calls) →
 * output verification → FAILURE_PROTOCOL and HUMAN_IN_THE_LOOP. Every step is a trace event
 * (trace.ts) handed to the host as it happens; every outcome has a code (catalogue.ts) and the
 * JSON Pointer of the contract clause that produced it. The stages live beside it: tool calls
 * (toolStage.ts), human decisions and conditions (humanStage.ts), budgets (budgetStage.ts) and
 * the end (finishStage.ts); the state they share is `RunState` (runState.ts).
 *
 * Host-agnostic: the model is an injected `ModelProvider`, human decisions an injected `decide`,
 * resource files an injected reader, time an injected clock; the run is cancelled through an
 * `AbortSignal`. It always ends: steps, tokens and (simulated plus real) time are bounded, with
 * defaults when the contract has no BUDGETS, and a provider that ignores the signal is raced.
 */
import { ModelError } from '../llm/llmProvider.ts';
import type { RequirementView } from '../../model/contractView.ts';
import { checkPool, extractEntity, matchTrigger } from './boot.ts';
import { assembleContext, resolveTemplate, retrieve, type ResolvedFilter } from './retrieval.ts';
import { buildSystemPrompt } from './prompt.ts';
import { verifyOutput } from './verify.ts';
import { messageFields, refText, withArgMessages, type MessageRef } from '../runMessage.ts';
import { boundedTraceValue, type TraceRecorder } from '../trace/trace.ts';
import { Finish, OUTPUT_RETRIES, type Failure, type RunOptions, type RunResult } from './runTypes.ts';
import { RunState } from './runState.ts';
import { applyPending, checkpoint, fire } from './humanStage.ts';
import { checkBudgets, checkSteps, modelStep } from './budgetStage.ts';
import { toolCall } from './toolStage.ts';
import { finish, modelFailure } from './finishStage.ts';

export { scriptedDecisions, LOOP_REPEATS, MAX_CONSECUTIVE_FAILURES, OUTPUT_RETRIES, type Clause, type Decide, type HumanAnswer, type HumanRequest, type Outcome, type RunOptions, type RunResult, type RunStats } from './runTypes.ts';

/** Most tool calls handled in one step. */
const MAX_CALLS_PER_STEP = 64;

/** One run of one query: the loop over `RunState`. Internal: `runQuery` is the entry point. */
class Run extends RunState {
  /** Checks of the accepted answer that could not be made (not checkable, or unknown). */
  private unchecked = 0;

  async run(): Promise<RunResult> {
    const q = this.o.query;
    await this.emit('task_start', 'runner', 'success', {
      run: { ...(this.o.meta ?? {}), now: this.o.now ?? new Date(this.clock()).toISOString() },
      contract_name: this.view.name,
      query_id: q.id,
      query: q.query,
      provider: this.o.provider.id,
      budgets: { max_steps: this.view.budgets.maxSteps, token_budget: this.view.budgets.tokenBudget ?? null, timeout_ms: this.view.budgets.timeoutMs, max_result_chars: this.view.budgets.maxResultChars },
    });
    let answer: unknown;
    let failure: Failure;
    try {
      this.cancelled();
      await this.boot();
      await this.retrieveMemory();
      const prompt = buildSystemPrompt(this.view, this.contextBlocks, this.entities);
      await this.emit('prompt', 'prompt', 'success', { chars: prompt.length, tools: [...this.view.tools.keys()], text: prompt });
      this.messages.push({ role: 'system', content: prompt }, { role: 'user', content: q.query });
      answer = await this.loop();
      // An answer is only as good as the checks the dry run could make: say how many it could not.
      failure = this.unchecked > 0 ? { code: 'OK', variant: 'unchecked', args: { steps: this.steps, unchecked: this.unchecked } } : { code: 'OK', args: { steps: this.steps } };
    } catch (e) {
      if (e instanceof Finish) failure = e.failure;
      else if (e instanceof ModelError) failure = modelFailure(this, e);
      else throw e;
    }
    return finish(this, failure, answer);
  }

  async boot(): Promise<void> {
    const v = this.view;
    const q = this.o.query;
    if (v.kind === 'freeform') {
      const reason: MessageRef = v.contractLike ? { id: 'reason.freeformLooksLike', args: { title: v.contractLike } } : { id: 'reason.freeform', args: {} };
      throw new Finish({ code: 'CONTRACT_NOT_RUNNABLE', ...withArgMessages({}, { reason }) });
    }
    if (v.intentPatterns.length === 0) await this.emit('trigger_match', 'router', 'skipped', { tried: 0 });
    else {
      const m = matchTrigger(v, q.query);
      if (!m.matched) {
        await this.emit('trigger_match', 'router', 'failure', { tried: m.tried, unusable: m.unusable, pointer: '/trigger/intent_patterns' });
        throw new Finish({ code: 'TRIGGER_NOT_MATCHED', args: {}, pointer: '/trigger/intent_patterns' });
      }
      await this.emit('trigger_match', 'router', 'success', { pattern: m.matched.pattern, pointer: m.matched.pointer, matched_text: m.matched.text, groups: m.groups, ...(m.unusable.length > 0 ? { unusable: m.unusable } : {}) });
      for (const e of v.entities) {
        const x = extractEntity(e, q.query, q.entities, m.groups);
        if (!x) {
          await this.emit('entity_extraction', 'router', 'failure', { entity: e.name, pointer: e.pointer });
          throw new Finish({ code: 'ENTITY_MISSING', args: { entity: e.name }, pointer: e.pointer });
        }
        this.entities[e.name] = x.value;
        await this.emit('entity_extraction', 'router', 'success', { entity: e.name, value: x.value, via: x.via, pointer: e.pointer });
      }
    }
    // Entities given by the snapshot that the contract does not declare are still usable in templates and conditions.
    for (const [k, val] of Object.entries(q.entities)) this.entities[k] ??= String(val);
    this.redactor.learn(this.entities);
    const now = this.o.now ? Date.parse(this.o.now) : this.clock();
    for (const req of v.requirements) {
      const state = q.pools[req.pool];
      const problem = checkPool(v, req, state, now);
      if (!problem) {
        await this.emit('memory_check', 'boot', 'success', { pool: req.pool, required: req.required, status: state!.status, updated_at: state!.updatedAt ?? null, pointer: req.pointer });
        continue;
      }
      const reason: MessageRef = { id: problem.reasonId, args: problem.args };
      if (!req.required) {
        await this.emit('memory_check', 'boot', 'skipped', { pool: req.pool, required: false, code: problem.code, ...messageFields('reason', reason), pointer: problem.pointer });
        continue;
      }
      await this.emit('memory_check', 'boot', 'failure', { pool: req.pool, required: true, code: problem.code, ...messageFields('reason', reason), pointer: problem.pointer });
      throw new Finish({ code: problem.code, ...withArgMessages({ pool: req.pool }, { reason }), pointer: problem.pointer });
    }
  }

  async retrieveMemory(): Promise<void> {
    const q = this.o.query;
    const parts: { req: RequirementView; records: readonly unknown[] }[] = [];
    for (const req of this.view.requirements) {
      const state = q.pools[req.pool];
      if (!state || state.status !== 'healthy') continue;
      const filters: ResolvedFilter[] = [];
      let missing: string | undefined;
      for (const f of req.filters) {
        const r = resolveTemplate(f.value, this.entities, q.query);
        if ('missing' in r) missing ??= r.missing;
        else filters.push({ field: f.field, value: r.value });
      }
      if (missing !== undefined) {
        await this.emit('memory_retrieval', 'retriever', 'skipped', { pool: req.pool, ...messageFields('reason', { id: 'reason.unresolved-filter', args: { entity: missing } }), pointer: req.pointer });
        if (req.required) throw new Finish({ code: 'ENTITY_MISSING', args: { entity: missing }, pointer: req.pointer });
        continue;
      }
      const t0 = this.clock();
      const got = retrieve(state.records, filters, req.topK);
      const ms = this.clock() - t0;
      this.memory[req.pool] = got.records;
      this.redactor.learn(got.records);
      parts.push({ req, records: got.records });
      await this.emit('memory_retrieval', 'retriever', 'success', {
        pool: req.pool,
        filters,
        top_k: req.topK,
        weight: req.weight,
        total: got.total,
        matched: got.matched,
        returned: got.records.length,
        records: await boundedTraceValue(got.records),
        pointer: req.pointer,
        timing: { ms },
      });
    }
    this.contextBlocks = assembleContext(parts);
    await this.emit('context_assembly', 'context', 'success', {
      pools: this.contextBlocks.map((c) => ({ pool: c.pool, weight: c.weight, records: c.lines.length, dropped: c.dropped, chars: c.lines.reduce((s, l) => s + l.length, 0) })),
    });
    await fire(this, q.fire, 'memory');
    await checkpoint(this, 'memory', this.scope());
    await applyPending(this);
  }

  async loop(): Promise<unknown> {
    for (;;) {
      checkBudgets(this);
      checkSteps(this);
      const index = this.steps;
      const step = await modelStep(this);
      this.steps++;
      const usage = step.usage;
      this.tokens += Math.max(0, usage.promptTokens) + Math.max(0, usage.completionTokens);
      const script = this.o.query.model[index];
      await this.sim.pass(script?.delayMs ?? 0, this.o.signal);
      await this.emit('model_step', 'planner', 'success', {
        step: this.steps,
        kind: step.kind,
        ...(step.kind === 'tool_calls' ? { calls: step.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.rawArguments })), ...(step.text ? { text: step.text } : {}) } : { text: step.text }),
        usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens },
        tokens_used: this.tokens,
        // The model's latency: the provider's wait for the answer plus the step's scripted delay (docs/dry-run.md, "Recording a live run").
        timing: { latency_ms: (step.latencyMs ?? 0) + (script?.delayMs ?? 0) },
      });
      checkBudgets(this);
      const fired = script?.fire ?? [];
      if (step.kind === 'tool_calls') {
        // Calls beyond the limit are dropped, visibly: the assistant message lists only the calls that are answered.
        const calls = step.calls.slice(0, MAX_CALLS_PER_STEP);
        this.messages.push({ role: 'assistant', content: step.text ?? '', toolCalls: calls });
        if (calls.length < step.calls.length) {
          const dropped = step.calls.slice(MAX_CALLS_PER_STEP);
          await this.emit('validation', 'validator', 'invalid', { subject: 'model', ...messageFields('check', { id: 'check.calls-per-step', args: { max: MAX_CALLS_PER_STEP } }), ...messageFields('detail', { id: 'detail.calls-dropped', args: { count: dropped.length, ids: dropped.map((c) => c.id).join(', ') } }), dropped: dropped.map((c) => c.id) });
        }
        const approved = await fire(this, fired, 'tool');
        for (const call of calls) await toolCall(this, call, approved);
        await applyPending(this);
        continue;
      }
      this.messages.push({ role: 'assistant', content: step.text });
      await fire(this, fired, 'final');
      const verified = await this.verify(step.text);
      if (verified.retry) continue;
      return verified.answer;
    }
  }

  async verify(text: string): Promise<{ retry: boolean; answer?: unknown }> {
    const scope = this.scope();
    const v = verifyOutput(text, this.view, scope);
    for (const c of v.checks) {
      await this.emit('validation', 'validator', c.status, { subject: 'output', ...messageFields('check', { id: c.checkId, args: c.checkArgs }), ...(c.detail ? messageFields('detail', c.detail) : {}), pointer: c.pointer });
    }
    // The answer is shown as final only once its checks are known (docs/dry-run.md, "Reading a run").
    await this.emit('final_output', 'planner', v.failure ? 'invalid' : 'success', { text, ...(v.failure ? { code: v.failure.code } : {}) });
    if (v.failure) {
      // A condition fired by this step handles the failure; otherwise the model may correct its answer once.
      if (v.failure.retryable && this.outputRetries < OUTPUT_RETRIES && this.pending.length === 0) {
        this.outputRetries++;
        const feedback: MessageRef = { id: v.failure.code === 'OUTPUT_FORMAT_INVALID' ? 'feedback.format-retry' : 'feedback.schema-retry', args: v.failure.args };
        this.messages.push({ role: 'user', content: refText(feedback) });
        await this.emit('correction', 'validator', 'success', { code: v.failure.code, ...messageFields('text', feedback) });
        return { retry: true };
      }
      throw new Finish({ code: v.failure.code, args: v.failure.args, ...(v.failure.argMessages ? { argMessages: v.failure.argMessages } : {}), pointer: v.failure.pointer });
    }
    await checkpoint(this, 'final', { ...scope, output: v.answer });
    await applyPending(this);
    this.path.push('final');
    this.unchecked = v.checks.filter((c) => c.status === 'skipped' || c.status === 'unknown').length;
    return { retry: false, answer: v.answer };
  }

  /** Set when a fork's re-executed prefix differed from the original trace. */
  get divergence(): TraceRecorder['divergence'] {
    return this.recorder.divergence;
  }
}

/**
 * Runs one query of a snapshot against a contract. Never throws for anything the contract, the
 * snapshot or the provider does; the outcome says what happened. Events reach `onEvent` as they
 * are made (a sink that throws, e.g. a full disk, does end the run with that error).
 */
export async function runQuery(options: RunOptions): Promise<RunResult & { readonly divergence?: TraceRecorder['divergence'] }> {
  const run = new Run(options);
  const result = await run.run();
  return { ...result, ...(run.divergence ? { divergence: run.divergence } : {}) };
}
