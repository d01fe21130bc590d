/**
 * Grading a contract against observed spans (docs/conformance.md, "Grading"): fed one span at a
 * time in any order, so that a host can stream a file of a million spans through it; it keeps per
 * clause counters and at most `MAX_EVIDENCE` violations, and per run only counters, the calls that
 * still wait for an approval and the verdict on the latest answer. `finish()` grades every clause:
 * exercised N times, never exercised, or violated (with the runs and span ids), attested or
 * qualified. Pure.
 */
import { compiledSchema } from '../validate/ajv.ts';
import type { ParsedContract } from '../model/types.ts';
import { contractClauses, type ContractClauses } from './clauses.ts';
import { normaliseName } from '../model/names.ts';
import type { Boundary } from '../model/boundaries.ts';
import { answerOf, argumentsOf, count, decisionsOf, isFinalChat, operationOf, text, toolOf } from './observe.ts';
import { MAX_EVIDENCE, type ClauseGrade, type ConformanceMessage, type ConformanceReport, type Evidence, type ObservedSpan, type SpanSource } from './types.ts';

/** A violation as seen; its run's id is filled in when the run is graded (its root may come later). */
type Seen = Omit<Evidence, 'run'> & { run?: string };

interface Tally {
  exercised: number;
  violations: number;
  evidence: Seen[];
  /** Qualification message id → count. */
  qualified: Map<string, number>;
}

interface PendingCall {
  readonly spanId: string;
  readonly source?: SpanSource;
  readonly tool: string;
  readonly callId?: string;
}

/** A call of a tool a sequence boundary names, kept until its run is graded. */
interface SequencedCall {
  readonly tool: string;
  readonly spanId: string;
  readonly source?: SpanSource;
  readonly startMs: number;
  readonly endMs: number;
  /** The call ran (its span's status is not an error: a refused or failed call). */
  readonly ok: boolean;
}

interface RunState {
  run?: string;
  /** Calls of the tools sequence boundaries name (at most `MAX_PENDING`). */
  calls?: SequencedCall[];
  /** Evidence this run gave before its id was known. */
  seen?: Seen[];
  steps: number;
  tokens: number;
  /** The latest model step: when it ended and its tokens (a budget crossed before it was not stopped). */
  lastStepEnd: number;
  lastStepTokens: number;
  root?: SpanRef & { readonly failed: boolean };
  errorCode?: SpanRef & { readonly code: string };
  /** Whether the run shows approvals at all (a decision, or the root's `agents_md.approvals.recorded`). */
  approvalsVisible: boolean;
  /** Gates that a human decided on: `call:<id>`, `span:<id>` or `tool:<name>` (a HUMAN_IN_THE_LOOP row naming the tool). */
  decided?: Set<string>;
  pending?: PendingCall[];
  /** The latest answer: when it ended, where, and what is wrong with it (undefined: it conforms). */
  answer?: SpanRef & { readonly endMs: number; readonly fromRoot: boolean; readonly problem?: ConformanceMessage };
}

/** A span as evidence points at it: its id and where it was read. */
type SpanRef = Pick<ObservedSpan, 'spanId' | 'source'>;
const ref = (s: SpanRef): SpanRef => (s.source ? { spanId: s.spanId, source: s.source } : { spanId: s.spanId });

/** Runs whose pending approvals are kept in full; beyond it a run keeps counting. */
const MAX_PENDING = 1000;
/** Runs whose `invoke_agent` span was read wait for this many more to end before they are graded (late child spans). */
export const ENDED_WINDOW = 1000;
/** At most this many runs are held at once: beyond it the one read first is graded (a run with no `invoke_agent` span never ends). */
export const MAX_OPEN_RUNS = 10_000;

/** Grades one contract against a stream of spans. */
export class ConformanceGrader {
  private readonly c: ContractClauses;
  private readonly tallies = new Map<string, Tally>();
  /** The runs being read, in the order their first span came. */
  private readonly runs = new Map<string, RunState>();
  /** Trace ids of runs whose `invoke_agent` span was read, oldest first (graded once `ENDED_WINDOW` more have ended). */
  private readonly ended = new Set<string>();
  private graded = 0;
  /** Graded runs of a contract with a step budget: exercised, or qualified when no run recorded a model step. */
  private stepRuns = 0;
  private spans = 0;
  /** Whether any run recorded a model step: if none did, the producer does not record them. */
  private anySteps = false;

  constructor(model: ParsedContract) {
    this.c = contractClauses(model);
    for (const clause of this.c.clauses) this.tallies.set(clause.pointer, { exercised: 0, violations: 0, evidence: [], qualified: new Map() });
  }

  /** How many runs are held, not yet graded (bounded by `MAX_OPEN_RUNS`). */
  get openRuns(): number {
    return this.runs.size;
  }

  /** Reads one span. */
  add(span: ObservedSpan): void {
    this.spans++;
    const run = this.runOf(span.traceId);
    for (const d of decisionsOf(span)) {
      // A decision either way shows the gate held; a call that ran after a rejection has an error status or no result.
      run.approvalsVisible = true;
      const decided = (run.decided ??= new Set());
      if (d.callId) decided.add(`call:${d.callId}`);
      else if (operationOf(span) === 'execute_tool') decided.add(`span:${span.spanId}`);
      const hitl = d.scenario ? this.c.view.hitl.find((h) => h.scenario === d.scenario) : undefined;
      if (hitl) this.exercise(hitl.pointer);
      for (const tool of hitl ? (this.c.gates.get(hitl.scenario) ?? []) : []) decided.add(`tool:${tool}`);
      if (d.scenario && this.c.view.tools.has(d.scenario)) decided.add(`tool:${d.scenario}`);
    }
    for (const e of span.events) {
      const pointer = e.name === 'agents_md.protocol' ? text(e.attributes['agents_md.pointer']) : undefined;
      if (pointer && this.c.view.failures.some((f) => f.pointer === pointer)) this.exercise(pointer);
    }
    switch (operationOf(span)) {
      case 'invoke_agent':
        this.root(span, run);
        break;
      case 'chat':
      {
        run.steps++;
        const tokens = count(span.attributes['gen_ai.usage.input_tokens']) + count(span.attributes['gen_ai.usage.output_tokens']);
        run.tokens += tokens;
        if (span.endMs >= run.lastStepEnd) [run.lastStepEnd, run.lastStepTokens] = [span.endMs, tokens];
        this.anySteps = true;
        if (isFinalChat(span)) this.answer(span, run, false);
        break;
      }
      case 'execute_tool':
        this.tool(span, run);
        break;
      case 'search_memory':
        this.pool(span);
        break;
      default:
        break;
    }
  }

  /** The grades, clause by clause in the contract's order. */
  finish(): ConformanceReport {
    for (const traceId of [...this.runs.keys()]) this.close(traceId);
    const steps = this.c.view.budgets.maxStepsPointer;
    if (steps && this.stepRuns > 0) {
      if (this.anySteps) this.tallies.get(steps)!.exercised += this.stepRuns;
      else this.tallies.get(steps)!.qualified.set('conformance.qualified.steps-not-recorded', this.stepRuns);
      this.stepRuns = 0;
    }
    let violations = 0;
    const clauses = this.c.clauses.map((clause): ClauseGrade => {
      const t = this.tallies.get(clause.pointer)!;
      violations += t.violations;
      if (this.graded === 0) t.qualified.set('conformance.qualified.no-runs', 1);
      return {
        ...clause,
        grade: t.violations > 0 ? 'violated' : t.exercised > 0 ? 'exercised' : 'never',
        exercised: t.exercised,
        violations: t.violations,
        verdict: t.qualified.size > 0 ? 'qualified' : 'attested',
        qualifications: [...t.qualified].map(([id, n]) => ({ id, args: { count: n } })),
        evidence: t.evidence.map(({ run: known, ...e }) => {
          const run = known ?? e.traceId;
          return { run, ...e, message: { id: e.message.id, args: { ...e.message.args, run } } };
        }),
      };
    });
    return { runs: this.graded, spans: this.spans, clauses, violations };
  }

  private runOf(traceId: string): RunState {
    let run = this.runs.get(traceId);
    if (!run) {
      this.runs.set(traceId, (run = { steps: 0, tokens: 0, lastStepEnd: -Infinity, lastStepTokens: 0, approvalsVisible: false }));
      if (this.runs.size > MAX_OPEN_RUNS) this.close(this.runs.keys().next().value!);
    }
    return run;
  }

  /** Grades a run and forgets it: a span of its trace read later starts a run of its own. */
  private close(traceId: string): void {
    const run = this.runs.get(traceId);
    if (!run) return;
    this.runs.delete(traceId);
    this.ended.delete(traceId);
    this.graded++;
    this.finishRun(traceId, run);
    for (const e of run.seen ?? []) e.run = run.run ?? traceId;
  }

  /** A run whose root was read is graded once `ENDED_WINDOW` runs have ended after it. */
  private ending(traceId: string): void {
    this.ended.delete(traceId);
    this.ended.add(traceId);
    if (this.ended.size > ENDED_WINDOW) this.close(this.ended.values().next().value!);
  }

  private root(span: ObservedSpan, run: RunState): void {
    run.root = { ...ref(span), failed: span.status === 'error' };
    this.ending(span.traceId);
    const conversation = text(span.attributes['gen_ai.conversation.id']);
    const query = text(span.attributes['agents_md.query.id']);
    if (conversation) run.run = query ? `${conversation}/${query}` : conversation;
    if (span.attributes['agents_md.approvals.recorded'] === true) run.approvalsVisible = true;
    const code = text(span.attributes['agents_md.error_code']);
    if (code) run.errorCode = { ...ref(span), code };
    if (span.attributes['gen_ai.output.messages'] !== undefined) this.answer(span, run, true);
  }

  private tool(span: ObservedSpan, run: RunState): void {
    const name = toolOf(span);
    if (this.c.sequenced.has(name) && (run.calls ??= []).length < MAX_PENDING)
      run.calls.push({ tool: name, ...ref(span), startMs: span.startMs ?? span.endMs, endMs: span.endMs, ok: span.status !== 'error' });
    const declared = this.c.view.tools.get(name);
    const refused = span.status === 'error';
    const forbidden = this.c.forbidden.get(name);
    if (this.c.clauses.some((c) => c.kind === 'tools')) this.exercise('/tools');
    if (forbidden) {
      this.exercise(forbidden);
      if (!refused) this.violate(forbidden, span, { id: 'conformance.violation.forbidden-tool', args: { tool: name } });
      return;
    }
    if (!declared) {
      if (!refused) this.violate('/tools', span, { id: 'conformance.violation.undeclared-tool', args: { tool: name } });
      return;
    }
    this.exercise(declared.pointer);
    if (declared.inputSchema) this.checkArguments(span, declared.inputSchema, `${declared.pointer}/input_schema`, name, refused);
    if (declared.requiresApproval && !refused) {
      const pointer = declared.approvalPointer ?? declared.pointer;
      this.exercise(pointer);
      const callId = text(span.attributes['gen_ai.tool.call.id']);
      run.pending ??= [];
      if (run.pending.length < MAX_PENDING) run.pending.push({ ...ref(span), tool: name, ...(callId ? { callId } : {}) });
    }
  }

  private checkArguments(span: ObservedSpan, schema: Readonly<Record<string, unknown>>, pointer: string, tool: string, refused: boolean): void {
    const args = argumentsOf(span);
    if (!args) {
      this.qualify(pointer, 'conformance.qualified.arguments-not-recorded');
      return;
    }
    this.exercise(pointer);
    if (refused) return;
    const detail = 'unparsable' in args ? 'not JSON' : schemaDetail(schema, args.value);
    if (detail !== undefined) this.violate(pointer, span, { id: 'conformance.violation.arguments', args: { tool, detail } });
  }

  private pool(span: ObservedSpan): void {
    const name = text(span.attributes['gen_ai.memory.store.name']) ?? span.name.replace(/^search_memory\s*/, '');
    const pool = this.c.view.pools.get(name);
    if (this.c.view.pools.size === 0) return;
    this.exercise('/memory_pools');
    if (pool) this.exercise(pool.pointer);
    else this.violate('/memory_pools', span, { id: 'conformance.violation.undeclared-pool', args: { pool: name } });
  }

  private answer(span: ObservedSpan, run: RunState, fromRoot: boolean): void {
    // The run's own answer (on `invoke_agent`) wins over its last model step's.
    if (run.answer && (run.answer.fromRoot && !fromRoot)) return;
    if (run.answer && run.answer.fromRoot === fromRoot && run.answer.endMs > span.endMs) return;
    const schema = this.c.view.outputSchema;
    const answer = answerOf(span);
    let problem: ConformanceMessage | undefined;
    if (schema && answer !== undefined) {
      let value: unknown;
      try {
        value = JSON.parse(answer);
      } catch {
        problem = { id: 'conformance.violation.answer-not-json', args: {} };
      }
      const detail = problem ? undefined : schemaDetail(schema, value);
      if (detail !== undefined) problem = { id: 'conformance.violation.answer', args: { detail } };
    }
    if (answer === undefined) problem = { id: 'conformance.qualified.answer-not-recorded', args: {} };
    run.answer = { ...ref(span), endMs: span.endMs, fromRoot, ...(problem ? { problem } : {}) };
  }

  private finishRun(traceId: string, run: RunState): void {
    const at = (span: SpanRef, message: ConformanceMessage): Seen => ({ traceId, ...span, message, run: run.run ?? traceId });
    const runSpan = ref(run.root ?? { spanId: traceId });
    const { budgets } = this.c.view;
    if (budgets.maxStepsPointer) {
      this.stepRuns++;
      if (run.steps > budgets.maxSteps) this.record(budgets.maxStepsPointer, at(runSpan, { id: 'conformance.violation.steps', args: { steps: run.steps, max: budgets.maxSteps } }));
    }
    if (budgets.tokenPointer && budgets.tokenBudget !== undefined && run.tokens > 0) {
      this.exercise(budgets.tokenPointer);
      // Crossing the budget in a step is stopped after that step; a model step after it is the overrun.
      if (run.tokens - run.lastStepTokens > budgets.tokenBudget) this.record(budgets.tokenPointer, at(runSpan, { id: 'conformance.violation.tokens', args: { tokens: run.tokens, max: budgets.tokenBudget } }));
    }
    this.finishCode(run, at);
    if (run.calls) this.finishSequences(run.calls, at);
    for (const call of run.pending ?? []) {
      const d = run.decided;
      if (d && (d.has(`span:${call.spanId}`) || d.has(`tool:${call.tool}`) || (call.callId && d.has(`call:${call.callId}`)))) continue;
      const pointer = this.c.view.tools.get(call.tool)!.approvalPointer ?? this.c.view.tools.get(call.tool)!.pointer;
      this.record(pointer, at(ref(call), { id: 'conformance.violation.no-approval', args: { tool: call.tool } }));
      if (!run.approvalsVisible) this.qualify(pointer, 'conformance.qualified.approvals-not-visible');
    }
    // A run that failed, or whose answer a declared FAILURE_PROTOCOL code replaced, gave no answer of its own.
    if (this.c.view.outputSchema && !run.root?.failed && !(run.errorCode && this.c.codes.has(run.errorCode.code))) {
      const a = run.answer;
      if (!a || a.problem?.id === 'conformance.qualified.answer-not-recorded') this.qualify('/output_schema', 'conformance.qualified.answer-not-recorded');
      else {
        this.exercise('/output_schema');
        if (a.problem) this.record('/output_schema', at(ref(a), a.problem));
      }
    }
  }

  /**
   * The order, count and only-after-success boundaries over a run's calls in the order they
   * started. A call that did not run (error status: refused) breaks none: the gate held.
   */
  private finishSequences(calls: SequencedCall[], at: (span: SpanRef, m: ConformanceMessage) => Seen): void {
    calls.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
    for (const b of this.c.sequences) {
      const tool = normaliseName(b.tool);
      let seen = 0;
      for (const call of calls) {
        if (call.tool !== tool || !call.ok) continue;
        this.exercise(b.pointer);
        seen++;
        const message = sequenceProblem(b, calls, call, seen);
        if (message) this.record(b.pointer, at(ref(call), message));
      }
    }
  }

  private finishCode(run: RunState, at: (span: SpanRef, m: ConformanceMessage) => Seen): void {
    if (this.c.view.failures.length === 0) return;
    if (!run.root) this.qualify('/failure_protocol', 'conformance.qualified.root-not-recorded');
    else this.exercise('/failure_protocol');
    if (!run.errorCode) return;
    const entry = this.c.codes.get(run.errorCode.code);
    if (entry) this.exercise(entry);
    else this.record('/failure_protocol', at(ref(run.errorCode), { id: 'conformance.violation.error-code', args: { code: run.errorCode.code } }));
  }

  private exercise(pointer: string): void {
    const t = this.tallies.get(pointer);
    if (t) t.exercised++;
  }

  private qualify(pointer: string, id: string): void {
    const t = this.tallies.get(pointer);
    if (t) t.qualified.set(id, (t.qualified.get(id) ?? 0) + 1);
  }

  /** A violation seen on one span; the run's id is filled in by `finish()` (its root may come later). */
  private violate(pointer: string, span: ObservedSpan, message: ConformanceMessage): void {
    const seen: Seen = { traceId: span.traceId, ...ref(span), message };
    if (this.record(pointer, seen)) (this.runOf(span.traceId).seen ??= []).push(seen);
  }

  /** Counts a violation; whether its evidence was kept. */
  private record(pointer: string, evidence: Seen): boolean {
    const t = this.tallies.get(pointer);
    if (!t) return false;
    t.violations++;
    if (t.evidence.length >= MAX_EVIDENCE) return false;
    t.evidence.push(evidence);
    return true;
  }
}

/** What a call breaks of a sequence boundary, given the run's calls and that it is the `nth` call of its tool that ran. */
function sequenceProblem(b: Boundary, calls: readonly SequencedCall[], call: SequencedCall, nth: number): ConformanceMessage | undefined {
  if (b.kind === 'count') return nth > b.max ? { id: 'conformance.violation.count', args: { tool: call.tool, count: nth, max: b.max } } : undefined;
  if (b.kind !== 'order' && b.kind !== 'after-success') return undefined;
  const first = normaliseName(b.first);
  // An earlier call counts once it ended before this one started; for "after success" only one that ran.
  const before = calls.some((c) => c.tool === first && c.endMs <= call.startMs && c !== call && (b.kind === 'order' || c.ok));
  return before ? undefined : { id: `conformance.violation.${b.kind}`, args: { tool: call.tool, first } };
}

/** The first problem of a value against a schema, as text; undefined when it conforms or the schema does not compile. */
function schemaDetail(schema: Readonly<Record<string, unknown>>, value: unknown): string | undefined {
  const validate = compiledSchema(schema);
  if (!validate || validate(value)) return undefined;
  const e = validate.errors?.[0];
  if (!e) return 'invalid';
  const missing = (e.params as { missingProperty?: string }).missingProperty;
  return e.keyword === 'required' && missing ? `${e.instancePath || '/'} lacks required "${missing}"` : `${e.instancePath || '/'} ${e.message ?? e.keyword}`;
}

/** Grades a contract against spans already in memory (tests, small traces). */
export function gradeSpans(model: ParsedContract, spans: Iterable<ObservedSpan>): ConformanceReport {
  const g = new ConformanceGrader(model);
  for (const s of spans) g.add(s);
  return g.finish();
}
