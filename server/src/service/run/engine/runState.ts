/**
 * The state of one dry run, shared by its stages (engine.ts holds the loop; toolStage.ts,
 * humanStage.ts, budgetStage.ts and finishStage.ts the stages): the contract view, the messages
 * sent to the model, what was retrieved and counted, and the trace recorder every event goes
 * through (redacted first).
 */
import type { ChatMessage } from '../llm/llmProvider.ts';
import type { ToolMock } from '../snapshot/snapshot.ts';
import type { ContractView, FailureView, HitlView } from '../../model/contractView.ts';
import { contractView } from '../../model/contractView.ts';
import type { assembleContext } from './retrieval.ts';
import type { Scope } from './expression.ts';
import { resourceValues } from './resourceValues.ts';
import type { OutcomeCode } from '../messages.ts';
import { Redactor } from '../trace/redact.ts';
import { TraceRecorder, type EventSource, type EventStatus, type EventType, type TraceEvent } from '../trace/trace.ts';
import { Finish, type RunOptions, type RunStats } from './runTypes.ts';

/** Simulated time: real time since the start, less the time humans took to decide, plus mocked delays (not waited for unless `sleep` is given). */
export class SimClock {
  private extra = 0;
  /** Real time spent waiting for humans: a decision's SLA is its own clock, not the run's time budget. */
  private waited = 0;
  private readonly start: number;
  constructor(
    private readonly now: () => number,
    private readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>,
    /** The run's time budget: a real wait stops just past it, where the budget check ends the run. */
    private readonly budgetMs = Infinity,
  ) {
    this.start = now();
  }
  /** Lets `ms` pass; true when a real wait stopped at the time budget instead (the run is then over it). */
  async pass(ms: number, signal?: AbortSignal): Promise<boolean> {
    if (ms <= 0) return false;
    if (!this.sleep) {
      this.extra += ms;
      return false;
    }
    const left = Math.max(0, this.budgetMs - this.elapsed) + 1;
    await this.sleep(Math.min(ms, left), signal);
    return ms > left;
  }
  /** Leaves `ms` of real time out of the simulated time. */
  exclude(ms: number): void {
    this.waited += Math.max(0, ms);
  }
  get elapsed(): number {
    return this.now() - this.start - this.waited + this.extra;
  }
  get real(): number {
    return this.now() - this.start;
  }
}

/** The fields and helpers every stage uses; `Run` (engine.ts) adds the loop. */
export class RunState {
  readonly view: ContractView;
  readonly clock: () => number;
  readonly sim: SimClock;
  readonly recorder: TraceRecorder;
  readonly redactor: Redactor;
  readonly messages: ChatMessage[] = [];
  readonly entities: Record<string, string> = {};
  readonly memory: Record<string, readonly unknown[]> = {};
  private readonly fileCache = new Map<string, readonly unknown[] | undefined>();
  steps = 0;
  tokens = 0;
  readonly toolsRun: string[] = [];
  readonly path: string[] = [];
  humanDecisions = 0;
  /** The bindings each HITL row was approved for (humanStage.ts); a `Scope: run` row needs one. */
  readonly approvals = new Map<HitlView, Set<string>>();
  pending: FailureView[] = [];
  readonly callCounts = new Map<string, { count: number; result?: string }>();
  /** Calls answered so far by each mock with a `sequence` (snapshot.ts). */
  readonly mockCalls = new Map<ToolMock, number>();
  streak: { tool: string; code: OutcomeCode; count: number } | undefined;
  readonly breaker = new Map<string, { failures: number; openUntil: number }>();
  outputRetries = 0;
  contextBlocks: ReturnType<typeof assembleContext> = [];

  constructor(readonly o: RunOptions) {
    this.view = contractView(o.contract);
    this.clock = o.clock ?? Date.now;
    this.sim = new SimClock(this.clock, o.sleep, this.view.budgets.timeoutMs);
    this.recorder = new TraceRecorder({ now: this.clock, ...(o.onEvent ? { sink: o.onEvent } : {}), ...(o.fork ? { fork: o.fork } : {}) });
    this.redactor = new Redactor(this.view.piiFields);
    this.redactor.learn(o.query.data);
    this.redactor.learn(o.query.entities);
  }

  emit(type: EventType, source: EventSource, status: EventStatus, payload: Record<string, unknown>): Promise<TraceEvent> {
    return this.recorder.append(type, source, status, this.redactor.apply(payload));
  }

  file = (name: string): readonly unknown[] | undefined => {
    if (!this.fileCache.has(name)) {
      const text = this.o.file?.(name);
      this.fileCache.set(name, text === undefined ? undefined : resourceValues(name, text));
    }
    return this.fileCache.get(name);
  };

  scope(args?: Readonly<Record<string, unknown>>): Omit<Scope, 'output'> {
    return {
      input: { query: this.o.query.query, entities: this.entities },
      memory: this.memory,
      names: [...(args ? [args] : []), this.o.query.data, this.entities],
      file: this.file,
    };
  }

  stats(): RunStats {
    return { steps: this.steps, tokens: this.tokens, tools: [...this.toolsRun], humanDecisions: this.humanDecisions, path: [...this.path], elapsedMs: Math.round(this.sim.elapsed) };
  }

  cancelled(): void {
    if (this.o.signal?.aborted) throw new Finish({ code: 'CANCELLED', args: {} });
  }

  /** `p`, or a `CANCELLED` finish as soon as the host cancels. */
  raceCancel<T>(p: Promise<T>): Promise<T> {
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
}
