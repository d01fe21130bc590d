/**
 * The dry-run engine (issue 4 item 2; brief §5): boot-time validation → entity extraction and
 * trigger match → retrieval per MEMORY_REQUIREMENTS → context assembly → the system prompt → the
 * loop (model step; tool calls validated, mocked, checked, truncated; budgets; repeated calls) →
 * output verification → FAILURE_PROTOCOL and HUMAN_IN_THE_LOOP. Every step is a trace event
 * (trace.ts) handed to the host as it happens; every outcome has a code (catalogue.ts) and the
 * JSON Pointer of the contract clause that produced it.
 *
 * Host-agnostic: the model is an injected `ModelProvider`, human decisions an injected `decide`,
 * resource files an injected reader, time an injected clock; the run is cancelled through an
 * `AbortSignal`. It always ends: steps, tokens and (simulated plus real) time are bounded, with
 * defaults when the contract has no BUDGETS, and a provider that ignores the signal is raced.
 */
import type { ParsedContract } from '../parse/parseContract.ts';
import type { Range } from '../types.ts';
import { locate } from '../model/locate.ts';
import { ModelError, type ChatMessage, type ModelProvider, type ModelStep, type ToolCall } from './llmProvider.ts';
import type { HumanDecision, SnapshotQuery } from './snapshot.ts';
import { contractView, type ContractView, type FailureView, type HitlView, type RequirementView, type ToolView } from '../model/contractView.ts';
import { checkPool, extractEntity, matchTrigger } from './boot.ts';
import { assembleContext, resolveTemplate, retrieve, type ResolvedFilter } from './retrieval.ts';
import { buildSystemPrompt } from './prompt.ts';
import { findMock, schemaProblem, truncate } from './tools.ts';
import { verifyOutput } from './verify.ts';
import { conditionOf, fallbackAnswer, failuresNamed, handlerFor, hitlNamed } from './failureProtocol.ts';
import { evaluate, type Scope } from './expression.ts';
import { resourceValues } from './resourceValues.ts';
import { OUTCOME_CODES, type OutcomeCode, type OutcomeStatus } from './messages.ts';
import { messageFields, outcomeText, refText, runMessage, withArgMessages, type MessageRef } from './runMessage.ts';
import { Redactor } from './redact.ts';
import { TraceRecorder, type EventSink, type EventSource, type EventStatus, type EventType, type TraceEvent } from './trace.ts';
import { canonicalJson } from '../util/canonicalJson.ts';

/** A pause that waits for a human (seed 004 §5.3: `human_input`, answered by `human_response`). */
export interface HumanRequest {
  /** `hitl`: a HUMAN_IN_THE_LOOP row fired; `tool_approval`: a tool that requires approval; `override`: a FAILURE_PROTOCOL wait. */
  readonly kind: 'hitl' | 'tool_approval' | 'override';
  /** What is decided: the scenario, the tool, or the failure entry's error code (else its condition). */
  readonly subject: string;
  /** Names a scripted decision may be keyed by. */
  readonly names: readonly string[];
  /** Why the run paused: a catalogue message id and its arguments. */
  readonly reasonId: string;
  readonly reasonArgs: Readonly<Record<string, string>>;
  /** How long the human has (`24h`), as the contract says; empty when it says nothing. */
  readonly sla: string;
  readonly onTimeout: 'reject' | 'escalate';
  readonly tool?: string;
  readonly arguments?: unknown;
  /** The clause that asks for the pause. */
  readonly pointer: string;
}

/** Answers a pause. Resolves when the human (or a script) decides; `timeout` means nobody answered within the SLA. */
export type Decide = (request: HumanRequest) => Promise<HumanDecision>;

/** A `Decide` from a snapshot query's `human` map (keys compared case-insensitively); unanswered pauses time out. */
export function scriptedDecisions(human: Readonly<Record<string, HumanDecision>>): Decide {
  const byName = new Map(Object.entries(human).map(([k, v]) => [k.trim().toLowerCase(), v]));
  return async (request) => {
    for (const n of request.names) {
      const d = byName.get(n.trim().toLowerCase());
      if (d) return d;
    }
    return 'timeout';
  };
}

/** Where an outcome comes from in the contract. */
export interface Clause {
  readonly pointer: string;
  /** The clause's range in the contract (LSP positions), when it can be located. */
  readonly range?: Range;
}

/** How a run ended. */
export interface Outcome {
  readonly status: OutcomeStatus;
  readonly code: OutcomeCode;
  readonly message: string;
  readonly messageId: string;
  readonly args: Readonly<Record<string, string | number>>;
  /** Arguments that are messages themselves (their English text is in `args`), for `outcomeText` in another language. */
  readonly argMessages?: Readonly<Record<string, MessageRef>>;
  readonly clause?: Clause;
  /** The FAILURE_PROTOCOL entry that handled the failure, with its error code. */
  readonly protocol?: { readonly pointer: string; readonly condition: string; readonly errorCode?: string; readonly range?: Range };
}

/** Figures of one run (seed 003's per-version metrics are built from these). */
export interface RunStats {
  /** Model steps (rounds). */
  readonly steps: number;
  readonly tokens: number;
  /** Tools that ran, in order. */
  readonly tools: readonly string[];
  readonly humanDecisions: number;
  /** The decision path: `tool:<name>` per call that ran, `human:<decision>`, then `final` or the outcome code. */
  readonly path: readonly string[];
  /** Simulated time (mocked delays plus real time), ms. */
  readonly elapsedMs: number;
}

/** The result of a run. */
export interface RunResult {
  readonly outcome: Outcome;
  /** The verified answer, or the fallback answer of the entry that handled the failure. */
  readonly answer?: unknown;
  readonly stats: RunStats;
  readonly events: readonly TraceEvent[];
}

/** What a run needs. */
export interface RunOptions {
  readonly contract: ParsedContract;
  readonly query: SnapshotQuery;
  /** The snapshot's clock (ISO 8601); the host's clock when absent. */
  readonly now?: string;
  readonly provider: ModelProvider;
  readonly decide: Decide;
  /** Resource files' text by the name the contract uses (`vendor_whitelist.csv`); undefined when not available. */
  readonly file?: (name: string) => string | undefined;
  readonly signal?: AbortSignal;
  /** Receives every event as it is made. */
  readonly onEvent?: EventSink;
  /** The host's clock, ms since the epoch (default `Date.now`). */
  readonly clock?: () => number;
  /** Waits for real (`--real-delays`): mocked delays are then waited for instead of only counted. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Recorded in `task_start` under `run`: the run id, contract and snapshot paths and hashes (docs/dry-run.md). */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** A fork (seed 004 §4.1): the original events up to the fork point, replayed rather than emitted. */
  readonly fork?: { readonly prefix: readonly TraceEvent[]; readonly namespace: string; readonly payload: Readonly<Record<string, unknown>> };
}

/** Consecutive failures of one tool with one code that end the run (seed 004 §3.4: "retry at most three times"). */
export const MAX_CONSECUTIVE_FAILURES = 3;
/** Identical calls (same tool, same arguments) that count as a loop (seed 004 §4.3). */
export const LOOP_REPEATS = 3;
/** Corrections of the final answer (format, schema) the model gets (seed 004 §4.2, third layer). */
export const OUTPUT_RETRIES = 1;
/** Most tool calls handled in one step. */
const MAX_CALLS_PER_STEP = 64;
/** The checks of a tool call's arguments and result, as the trace names them. */
const INPUT_SCHEMA: MessageRef = { id: 'check.input-schema', args: {} };
const OUTPUT_SCHEMA: MessageRef = { id: 'check.output-schema', args: {} };

interface Failure {
  readonly code: OutcomeCode;
  readonly variant?: string;
  readonly args: Record<string, string | number>;
  readonly argMessages?: Readonly<Record<string, MessageRef>>;
  readonly pointer?: string;
  /** The HITL scenario a human failure came from. */
  readonly scenario?: string;
  /** The entry already chosen (a condition that fired). */
  readonly entry?: FailureView;
}

/** Thrown inside a run to end it; caught by `runQuery`. */
class Finish {
  constructor(readonly failure: Failure) {}
}

/** Simulated time: real time since the start plus mocked delays (not waited for unless `sleep` is given). */
class SimClock {
  private extra = 0;
  private readonly start: number;
  constructor(
    private readonly now: () => number,
    private readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>,
  ) {
    this.start = now();
  }
  async pass(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0) return;
    if (this.sleep) await this.sleep(ms, signal);
    else this.extra += ms;
  }
  get elapsed(): number {
    return this.now() - this.start + this.extra;
  }
  get real(): number {
    return this.now() - this.start;
  }
}

const short = (v: unknown, max = 160): string => {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

/** One run of one query. Internal: `runQuery` is the entry point. */
class Run {
  private readonly view: ContractView;
  private readonly clock: () => number;
  private readonly sim: SimClock;
  private readonly recorder: TraceRecorder;
  private readonly redactor: Redactor;
  private readonly messages: ChatMessage[] = [];
  private readonly entities: Record<string, string> = {};
  private readonly memory: Record<string, readonly unknown[]> = {};
  private readonly fileCache = new Map<string, readonly unknown[] | undefined>();
  private steps = 0;
  private tokens = 0;
  private readonly toolsRun: string[] = [];
  private readonly path: string[] = [];
  private humanDecisions = 0;
  private readonly askedRows = new Set<HitlView>();
  private pending: FailureView[] = [];
  private readonly callCounts = new Map<string, { count: number; result?: string }>();
  private streak: { tool: string; code: OutcomeCode; count: number } | undefined;
  private readonly breaker = new Map<string, { failures: number; openUntil: number }>();
  private outputRetries = 0;

  constructor(private readonly o: RunOptions) {
    this.view = contractView(o.contract);
    this.clock = o.clock ?? Date.now;
    this.sim = new SimClock(this.clock, o.sleep);
    this.recorder = new TraceRecorder({ now: this.clock, ...(o.onEvent ? { sink: o.onEvent } : {}), ...(o.fork ? { fork: o.fork } : {}) });
    this.redactor = new Redactor(this.view.piiFields);
    this.redactor.learn(o.query.data);
    this.redactor.learn(o.query.entities);
  }

  private emit(type: EventType, source: EventSource, status: EventStatus, payload: Record<string, unknown>): Promise<TraceEvent> {
    return this.recorder.append(type, source, status, this.redactor.apply(payload));
  }

  private file = (name: string): readonly unknown[] | undefined => {
    if (!this.fileCache.has(name)) {
      const text = this.o.file?.(name);
      this.fileCache.set(name, text === undefined ? undefined : resourceValues(name, text));
    }
    return this.fileCache.get(name);
  };

  private scope(args?: Readonly<Record<string, unknown>>): Omit<Scope, 'output'> {
    return {
      input: { query: this.o.query.query, entities: this.entities },
      memory: this.memory,
      names: [...(args ? [args] : []), this.o.query.data, this.entities],
      file: this.file,
    };
  }

  private stats(): RunStats {
    return { steps: this.steps, tokens: this.tokens, tools: [...this.toolsRun], humanDecisions: this.humanDecisions, path: [...this.path], elapsedMs: Math.round(this.sim.elapsed) };
  }

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
      failure = { code: 'OK', args: { steps: this.steps } };
    } catch (e) {
      if (e instanceof Finish) failure = e.failure;
      else if (e instanceof ModelError) failure = this.modelFailure(e);
      else throw e;
    }
    return this.finish(failure, answer);
  }

  private contextBlocks: ReturnType<typeof assembleContext> = [];

  private cancelled(): void {
    if (this.o.signal?.aborted) throw new Finish({ code: 'CANCELLED', args: {} });
  }

  private async boot(): Promise<void> {
    const v = this.view;
    const q = this.o.query;
    if (v.kind === 'freeform') throw new Finish({ code: 'CONTRACT_NOT_RUNNABLE', ...withArgMessages({}, { reason: { id: 'reason.freeform', args: {} } }) });
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

  private async retrieveMemory(): Promise<void> {
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
        records: got.records,
        pointer: req.pointer,
        timing: { ms },
      });
    }
    this.contextBlocks = assembleContext(parts);
    await this.emit('context_assembly', 'context', 'success', {
      pools: this.contextBlocks.map((c) => ({ pool: c.pool, weight: c.weight, records: c.lines.length, dropped: c.dropped, chars: c.lines.reduce((s, l) => s + l.length, 0) })),
    });
    await this.fire(q.fire, 'memory');
    await this.checkpoint('memory', this.scope());
    await this.applyPending();
  }

  /**
   * Conditions fired by name (the snapshot's `fire` lists): FAILURE_PROTOCOL entries become
   * pending (they handle a failure of this step, or apply at its end); HITL rows pause now.
   * Returns whether a HITL row was approved (it then covers the approval of this step's calls).
   */
  private async fire(names: readonly string[], where: 'memory' | 'tool' | 'final'): Promise<boolean> {
    const rows: HitlView[] = [];
    for (const name of names) {
      const fs = failuresNamed(this.view, name);
      const hs = hitlNamed(this.view, name);
      await this.emit('condition', 'protocol', fs.length + hs.length > 0 ? 'success' : 'unknown', { condition: name, state: 'fired', where, failures: fs.map((f) => f.pointer), hitl: hs.map((h) => h.pointer) });
      for (const f of fs) if (!this.pending.includes(f)) this.pending.push(f);
      for (const h of hs) if (!this.askedRows.has(h) && !rows.includes(h)) rows.push(h);
    }
    return this.askRows(rows);
  }

  /** Pauses for each HITL row; a rejection or a timeout ends the run. Returns whether any was approved. */
  private async askRows(rows: readonly HitlView[], args?: Readonly<Record<string, unknown>>): Promise<boolean> {
    let approved = false;
    for (const row of rows) {
      this.askedRows.add(row);
      const d = await this.ask({ kind: 'hitl', subject: row.scenario, names: [row.scenario, row.condition], reasonId: 'reason.hitl', reasonArgs: { condition: row.condition }, sla: row.sla, onTimeout: row.onTimeout, pointer: row.pointer, ...(args ? { arguments: args } : {}) });
      if (d !== 'approve') throw new Finish(this.humanFailure(d, row.scenario, row.sla, row.onTimeout, row.pointer, row.scenario));
      approved = true;
    }
    return approved;
  }

  /**
   * Evaluates the backticked conditions at a checkpoint (after retrieval, before each tool call
   * with its arguments, on the final answer): HITL rows that are true pause; FAILURE_PROTOCOL
   * entries that are true become pending. On the final answer, rows that stay false or unknown
   * are shown too (never silently passed). Returns whether a HITL row was approved.
   */
  private async checkpoint(where: 'memory' | 'tool' | 'final', scope: Scope, args?: Readonly<Record<string, unknown>>): Promise<boolean> {
    const rows: HitlView[] = [];
    for (const row of this.view.hitl) {
      if (this.askedRows.has(row)) continue;
      const expr = conditionOf(row);
      if (!expr) continue;
      const r = evaluate(expr, scope);
      if (r.value === true) {
        await this.emit('condition', 'protocol', 'success', { condition: row.condition, state: 'true', where, pointer: row.pointer });
        rows.push(row);
      } else if (where === 'final') {
        await this.emit('condition', 'protocol', r.value === false ? 'success' : 'unknown', { condition: row.condition, state: String(r.value), missing: r.missing, where, pointer: row.pointer });
      }
    }
    const approved = await this.askRows(rows, args);
    for (const entry of this.view.failures) {
      const expr = conditionOf(entry);
      if (!expr || this.pending.includes(entry)) continue;
      if (evaluate(expr, scope).value !== true) continue;
      await this.emit('condition', 'protocol', 'success', { condition: entry.condition, state: 'true', where, pointer: entry.pointer });
      this.pending.push(entry);
    }
    return approved;
  }

  /** Applies the conditions that fired and were not consumed by a failure: each ends the run, unless a human overrides its wait. */
  private async applyPending(): Promise<void> {
    while (this.pending.length > 0) {
      const entry = this.pending[this.pending.length - 1]!;
      if (entry.maxWait) {
        const d = await this.ask({ kind: 'override', subject: entry.code ?? entry.condition, names: [entry.code ?? '', entry.condition].filter(Boolean), reasonId: 'reason.override', reasonArgs: { wait: entry.maxWait }, sla: entry.maxWait, onTimeout: 'reject', pointer: entry.pointer });
        if (d === 'approve') {
          this.pending.pop();
          continue;
        }
      }
      throw new Finish({ code: 'CONDITION_FIRED', args: { condition: entry.condition }, pointer: entry.pointer, entry });
    }
  }

  private humanFailure(d: HumanDecision, subject: string, sla: string, onTimeout: 'reject' | 'escalate', pointer: string, scenario?: string): Failure {
    const code: OutcomeCode = d === 'reject' ? 'HUMAN_REJECTED' : onTimeout === 'escalate' ? 'ESCALATED' : 'HUMAN_TIMEOUT';
    // A pause with no SLA (a tool approval) has its own wording of the timeout.
    const variant = !sla && code !== 'HUMAN_REJECTED' ? { variant: 'no-sla' } : {};
    return { code, ...variant, args: sla ? { subject, sla } : { subject }, pointer, ...(scenario ? { scenario } : {}) };
  }

  /** Pauses for a human decision; a host cancellation ends the wait. */
  private async ask(request: HumanRequest): Promise<HumanDecision> {
    const input = await this.emit('human_input', 'human', 'pending', { kind: request.kind, subject: request.subject, ...messageFields('reason', { id: request.reasonId, args: request.reasonArgs }), sla: request.sla, on_timeout: request.onTimeout, pointer: request.pointer, ...(request.tool ? { tool: request.tool } : {}), ...(request.arguments !== undefined ? { arguments: request.arguments } : {}) });
    const decision = await this.raceCancel(this.o.decide(request));
    const valid: HumanDecision = decision === 'approve' || decision === 'reject' ? decision : 'timeout';
    this.humanDecisions++;
    this.path.push(`human:${valid}`);
    await this.emit('human_response', 'human', valid === 'approve' ? 'success' : valid === 'reject' ? 'failure' : 'timeout', { decision: valid, subject: request.subject, input_ref: input.event_id });
    return valid;
  }

  private raceCancel<T>(p: Promise<T>): Promise<T> {
    const signal = this.o.signal;
    if (!signal) return p;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(new Finish({ code: 'CANCELLED', args: {} }));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      p.then(
        (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }

  private checkBudgets(): void {
    this.cancelled();
    const b = this.view.budgets;
    const elapsed = Math.round(this.sim.elapsed);
    if (elapsed > b.timeoutMs) throw new Finish({ code: 'BUDGET_EXCEEDED', variant: 'time', args: { used: elapsed, limit: b.timeoutMs }, ...(b.timeoutPointer ? { pointer: b.timeoutPointer } : {}) });
    if (b.tokenBudget !== undefined && this.tokens > b.tokenBudget) throw new Finish({ code: 'BUDGET_EXCEEDED', variant: 'tokens', args: { used: this.tokens, limit: b.tokenBudget }, ...(b.tokenPointer ? { pointer: b.tokenPointer } : {}) });
  }

  /** One model step, bounded by the time left (the provider is raced, so one that ignores the signal cannot hang the run). */
  private async modelStep(): Promise<ModelStep> {
    const remaining = Math.max(0, this.view.budgets.timeoutMs - this.sim.elapsed);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, remaining);
    const onHostAbort = () => controller.abort();
    this.o.signal?.addEventListener('abort', onHostAbort, { once: true });
    try {
      const tools = [...this.view.tools.values()].map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema ?? { type: 'object' } }));
      const left = this.view.budgets.tokenBudget === undefined ? undefined : Math.max(1, this.view.budgets.tokenBudget - this.tokens);
      const step = this.o.provider.step({ messages: [...this.messages], tools, signal: controller.signal, ...(left !== undefined ? { maxTokens: left } : {}) });
      const aborted = new Promise<never>((_, reject) => {
        controller.signal.addEventListener('abort', () => reject(new ModelError('CANCELLED', 'aborted')), { once: true });
        if (controller.signal.aborted) reject(new ModelError('CANCELLED', 'aborted'));
      });
      return await Promise.race([step, aborted]);
    } catch (e) {
      if (timedOut) throw new Finish({ code: 'BUDGET_EXCEEDED', variant: 'time', args: { used: Math.round(this.sim.elapsed), limit: this.view.budgets.timeoutMs }, ...(this.view.budgets.timeoutPointer ? { pointer: this.view.budgets.timeoutPointer } : {}) });
      if (this.o.signal?.aborted) throw new Finish({ code: 'CANCELLED', args: {} });
      throw e;
    } finally {
      clearTimeout(timer);
      this.o.signal?.removeEventListener('abort', onHostAbort);
    }
  }

  private modelFailure(e: ModelError): Failure {
    if (e.code === 'CANCELLED') return { code: 'CANCELLED', args: {} };
    return { code: e.code, ...(e.detail ? withArgMessages({ provider: this.o.provider.id }, { detail: e.detail }) : { args: { provider: this.o.provider.id, detail: e.message } }) };
  }

  private async loop(): Promise<unknown> {
    const b = this.view.budgets;
    for (;;) {
      this.checkBudgets();
      if (this.steps >= b.maxSteps) throw new Finish({ code: 'BUDGET_EXCEEDED', variant: 'steps', args: { used: this.steps, limit: b.maxSteps }, ...(b.maxStepsPointer ? { pointer: b.maxStepsPointer } : {}) });
      const index = this.steps;
      const step = await this.modelStep();
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
      });
      this.checkBudgets();
      const fired = script?.fire ?? [];
      if (step.kind === 'tool_calls') {
        this.messages.push({ role: 'assistant', content: step.text ?? '', toolCalls: step.calls });
        const approved = await this.fire(fired, 'tool');
        for (const call of step.calls.slice(0, MAX_CALLS_PER_STEP)) await this.toolCall(call, approved);
        await this.applyPending();
        continue;
      }
      this.messages.push({ role: 'assistant', content: step.text });
      await this.emit('final_output', 'planner', 'success', { text: step.text });
      await this.fire(fired, 'final');
      const verified = await this.verify(step.text);
      if (verified.retry) continue;
      return verified.answer;
    }
  }

  private async verify(text: string): Promise<{ retry: boolean; answer?: unknown }> {
    const scope = this.scope();
    const v = verifyOutput(text, this.view, scope);
    for (const c of v.checks) {
      await this.emit('validation', 'validator', c.status, { subject: 'output', ...messageFields('check', { id: c.checkId, args: c.checkArgs }), ...(c.detail ? messageFields('detail', c.detail) : {}), pointer: c.pointer });
    }
    if (v.failure) {
      // A condition fired by this step handles the failure; otherwise the model may correct its answer once.
      if (v.failure.retryable && this.outputRetries < OUTPUT_RETRIES && this.pending.length === 0) {
        this.outputRetries++;
        const id = v.failure.code === 'OUTPUT_FORMAT_INVALID' ? 'feedback.format-retry' : 'feedback.schema-retry';
        this.messages.push({ role: 'user', content: runMessage(id, v.failure.args) });
        return { retry: true };
      }
      throw new Finish({ code: v.failure.code, args: v.failure.args, ...(v.failure.argMessages ? { argMessages: v.failure.argMessages } : {}), pointer: v.failure.pointer });
    }
    await this.checkpoint('final', { ...scope, output: v.answer });
    await this.applyPending();
    this.path.push('final');
    return { retry: false, answer: v.answer };
  }

  /** Records a failed call and ends the run when the same tool fails the same way too often. */
  private async callFailed(call: ToolCall, tool: string, code: OutcomeCode, feedback: MessageRef, extra: Record<string, unknown>, status: EventStatus, callRef: string, outcome: Pick<Failure, 'args' | 'argMessages'>, pointer?: string): Promise<void> {
    // The model reads the feedback in English; the trace keeps its id for readers in other languages.
    await this.emit('tool_result', 'executor', status, { call_id: call.id, call_ref: callRef, tool, code, ...messageFields('detail', feedback), ...extra });
    this.messages.push({ role: 'tool', toolCallId: call.id, content: refText(feedback) });
    this.streak = this.streak && this.streak.tool === tool && this.streak.code === code ? { ...this.streak, count: this.streak.count + 1 } : { tool, code, count: 1 };
    // With a circuit breaker, errors and timeouts are the breaker's business (seed 004 §5.1): the planner decides.
    const breakerHandles = (code === 'TOOL_ERROR' || code === 'TOOL_TIMEOUT') && this.view.budgets.breaker !== undefined;
    if (this.streak.count >= MAX_CONSECUTIVE_FAILURES && !breakerHandles) throw new Finish({ code, args: { ...outcome.args, tool, count: this.streak.count }, ...(outcome.argMessages ? { argMessages: outcome.argMessages } : {}), ...(pointer ? { pointer } : {}) });
  }

  private breakerFailure(tool: ToolView): void {
    const cfg = this.view.budgets.breaker;
    if (!cfg) return;
    const s = this.breaker.get(tool.name) ?? { failures: 0, openUntil: 0 };
    s.failures++;
    if (s.failures >= cfg.failures) s.openUntil = this.sim.elapsed + cfg.cooldownMs;
    this.breaker.set(tool.name, s);
  }

  /** One tool call: validated, approved, mocked, checked. `approved`: a HITL row fired by this step was approved. */
  private async toolCall(call: ToolCall, approved: boolean): Promise<void> {
    const callEvent = await this.emit('tool_call', 'planner', 'success', { call_id: call.id, tool: call.name, arguments: call.rawArguments });
    const ref = callEvent.event_id;
    const tool = this.view.tools.get(call.name);
    if (!tool) {
      const feedback = { id: 'feedback.unknown-tool', args: { tool: call.name, tools: [...this.view.tools.keys()].join(', ') || '—' } };
      return this.callFailed(call, call.name, 'UNKNOWN_TOOL', feedback, {}, 'invalid', ref, { args: {} }, '/tools');
    }
    let args: unknown;
    try {
      args = JSON.parse(call.rawArguments);
    } catch (e) {
      const detail = String((e as Error).message).split('\n')[0]!;
      await this.emit('validation', 'validator', 'invalid', { subject: tool.name, ...messageFields('check', INPUT_SCHEMA), detail, pointer: `${tool.pointer}/input_schema` });
      return this.callFailed(call, tool.name, 'INVALID_INPUT', { id: 'feedback.invalid-json', args: { tool: tool.name, detail } }, {}, 'invalid', ref, withArgMessages({}, { detail: { id: 'detail.not-json', args: { detail } } }), `${tool.pointer}/input_schema`);
    }
    const problem = schemaProblem(tool.inputSchema, args);
    const inputDetail: MessageRef | undefined = problem ? { id: 'detail.schema', args: { expected: problem.expected, got: problem.got } } : undefined;
    await this.emit('validation', 'validator', problem ? 'invalid' : 'success', { subject: tool.name, ...messageFields('check', INPUT_SCHEMA), ...(problem && inputDetail ? { ...messageFields('detail', inputDetail), expected: refText(problem.expected), got: problem.got } : {}), pointer: `${tool.pointer}/input_schema` });
    if (problem && inputDetail) {
      return this.callFailed(call, tool.name, 'INVALID_INPUT', { id: 'feedback.invalid-input', args: { tool: tool.name, expected: problem.expected, got: problem.got } }, {}, 'invalid', ref, withArgMessages({}, { detail: inputDetail }), `${tool.pointer}/input_schema`);
    }
    const key = `${tool.name}\u0000${canonicalJson(args)}`;
    const seen = this.callCounts.get(key) ?? { count: 0 };
    seen.count++;
    this.callCounts.set(key, seen);
    if (seen.count >= LOOP_REPEATS) throw new Finish({ code: 'LOOP_DETECTED', args: { tool: tool.name, count: seen.count }, pointer: tool.pointer });
    const breaker = this.breaker.get(tool.name);
    if (breaker && breaker.openUntil > this.sim.elapsed) {
      const feedback = { id: 'feedback.circuit-open', args: { tool: tool.name, failures: breaker.failures, cooldown: Math.round(breaker.openUntil - this.sim.elapsed) } };
      return this.callFailed(call, tool.name, 'CIRCUIT_OPEN', feedback, {}, 'failure', ref, { args: {} }, this.view.budgets.breaker?.pointer);
    }
    const argObj = args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
    this.redactor.learn(argObj);
    const approvedByRow = (await this.checkpoint('tool', { ...this.scope(argObj) }, argObj)) || approved;
    if (tool.requiresApproval && !approvedByRow) {
      const d = await this.ask({ kind: 'tool_approval', subject: tool.name, names: [tool.name], reasonId: 'reason.tool-approval', reasonArgs: {}, sla: '', onTimeout: 'reject', tool: tool.name, arguments: args, pointer: tool.approvalPointer ?? tool.pointer });
      if (d !== 'approve') throw new Finish(this.humanFailure(d, tool.name, '', 'reject', tool.approvalPointer ?? tool.pointer));
    }
    const mock = findMock(this.o.query.tools[tool.name], args);
    if (!mock) throw new Finish({ code: 'TOOL_NOT_MOCKED', args: { tool: tool.name, arguments: short(args) }, pointer: tool.pointer });
    await this.sim.pass(Math.min(mock.delayMs, tool.timeoutMs), this.o.signal);
    if (mock.delayMs > tool.timeoutMs) {
      this.breakerFailure(tool);
      const feedback = { id: 'feedback.tool-timeout', args: { tool: tool.name, limit: tool.timeoutMs } };
      return this.callFailed(call, tool.name, 'TOOL_TIMEOUT', feedback, { ms: mock.delayMs, limit: tool.timeoutMs }, 'timeout', ref, { args: { limit: tool.timeoutMs } }, tool.timeoutPointer ?? tool.pointer);
    }
    if (mock.error !== undefined) {
      this.breakerFailure(tool);
      return this.callFailed(call, tool.name, 'TOOL_ERROR', { id: 'feedback.tool-error', args: { tool: tool.name, detail: mock.error } }, {}, 'failure', ref, { args: { detail: mock.error } }, tool.pointer);
    }
    const output = 'output' in mock ? mock.output : null;
    this.redactor.learn(output);
    const outProblem = schemaProblem(tool.outputSchema, output);
    const outputDetail: MessageRef | undefined = outProblem ? { id: 'detail.schema', args: { expected: outProblem.expected, got: outProblem.got } } : undefined;
    await this.emit('validation', 'validator', outputDetail ? 'invalid' : 'success', { subject: tool.name, ...messageFields('check', OUTPUT_SCHEMA), ...(outputDetail ? messageFields('detail', outputDetail) : {}), pointer: `${tool.pointer}/output_schema` });
    if (outputDetail) {
      this.breakerFailure(tool);
      const outcome = withArgMessages({}, { detail: outputDetail });
      return this.callFailed(call, tool.name, 'TOOL_OUTPUT_INVALID', { id: 'feedback.output-invalid', args: { tool: tool.name, detail: outcome.args['detail']! } }, { output }, 'invalid', ref, outcome, `${tool.pointer}/output_schema`);
    }
    this.breaker.delete(tool.name);
    this.streak = undefined;
    const full = JSON.stringify(output) ?? 'null';
    const cut = truncate(full, this.view.budgets.maxResultChars);
    const identical = seen.result === full;
    seen.result = full;
    let content = cut.text;
    if (cut.truncated) content += `\n${runMessage('feedback.truncated', { shown: cut.text.length, total: cut.total })}`;
    if (identical) content += `\n${runMessage('feedback.identical', { tool: tool.name })}`;
    this.messages.push({ role: 'tool', toolCallId: call.id, content });
    this.toolsRun.push(tool.name);
    this.path.push(`tool:${tool.name}`);
    await this.emit('tool_result', 'executor', 'success', { call_id: call.id, call_ref: ref, tool: tool.name, result: cut.truncated ? cut.text : output, truncated: cut.truncated, chars: cut.total, identical, timing: { simulated_ms: mock.delayMs } });
  }

  private async finish(failure: Failure, answer: unknown): Promise<RunResult> {
    const spec = OUTCOME_CODES[failure.code];
    let status: OutcomeStatus = spec.status;
    const messageId = failure.variant ? `outcome.${failure.code}.${failure.variant}` : `outcome.${failure.code}`;
    let protocol: Outcome['protocol'];
    if (failure.code !== 'OK' && failure.code !== 'CANCELLED') {
      const entry = failure.entry ?? handlerFor(this.view, failure.code, { ...(failure.scenario ? { scenario: failure.scenario } : {}), pending: this.pending });
      if (entry) {
        const fb = fallbackAnswer(entry, (name) => this.o.file?.(name));
        await this.emit('protocol', 'protocol', 'success', { condition: entry.condition, trigger: failure.code, actions: entry.actions, ...(entry.code ? { error_code: entry.code } : {}), ...(fb ? { fallback: fb.source } : {}), pointer: entry.pointer });
        if (entry.alertChannel) await this.emit('alert', 'protocol', 'success', { channel: entry.alertChannel, severity: entry.severity ?? null, error_code: entry.code ?? null, pointer: entry.pointer });
        if (fb) {
          status = 'fallback';
          answer = fb.text;
        }
        const range = locate(this.o.contract, entry.pointer)?.value;
        protocol = { pointer: entry.pointer, condition: entry.condition, ...(entry.code ? { errorCode: entry.code } : {}), ...(range ? { range } : {}) };
      }
    }
    if (failure.code !== 'OK') this.path.push(failure.code);
    const range = failure.pointer ? locate(this.o.contract, failure.pointer)?.value : undefined;
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
    const stats = this.stats();
    await this.emit('task_end', 'runner', status === 'success' ? 'success' : 'failure', {
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
      timing: { elapsed_ms: stats.elapsedMs, real_ms: Math.round(this.sim.real) },
    });
    return { outcome, ...(answer !== undefined ? { answer } : {}), stats, events: this.recorder.events };
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
