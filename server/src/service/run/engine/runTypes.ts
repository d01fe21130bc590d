/**
 * What a dry run takes and gives (docs/dry-run.md): the options, the outcome and figures, the
 * human pause, and the `Finish` a stage throws to end the run. Plain data; the stages are
 * engine.ts (the loop), toolStage.ts, humanStage.ts, budgetStage.ts and finishStage.ts.
 */
import type { ParsedContract } from '../../parse/parseContract.ts';
import type { Range } from '../../types.ts';
import type { ModelProvider } from '../llm/llmProvider.ts';
import type { HumanDecision, SnapshotQuery } from '../snapshot/snapshot.ts';
import type { FailureView } from '../../model/contractView.ts';
import type { OutcomeCode, OutcomeStatus } from '../messages.ts';
import type { MessageRef } from '../runMessage.ts';
import type { EventSink, TraceEvent } from '../trace/trace.ts';

/** A pause that waits for a human (`human_input`, answered by `human_response`). */
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
  /** A HITL pause: what one approval covers (`call` or `run`) and what it binds to (the call and the condition's values). */
  readonly scope?: 'call' | 'run';
  readonly binding?: Binding;
  /** The clause that asks for the pause. */
  readonly pointer: string;
}

/** What a HITL approval is bound to: the call when the condition reads its arguments, and the values the condition read. */
export interface Binding {
  readonly tool?: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
  readonly values: Readonly<Record<string, unknown>>;
}

/** A decision with who made it (a person's name, recorded in the trace as `decided_by`). */
export interface HumanAnswer {
  readonly decision: HumanDecision;
  readonly by: string;
}

/**
 * Answers a pause. Resolves when the human (or a script) decides; `timeout` means nobody answered
 * within the SLA. A person's answer names who decided (docs/dry-run.md, "Human decisions").
 */
export type Decide = (request: HumanRequest) => Promise<HumanDecision | HumanAnswer>;

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

/** Figures of one run (the eval's per-version figures are built from these). */
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
  /** A fork: the original events up to the fork point, replayed rather than emitted. */
  readonly fork?: { readonly prefix: readonly TraceEvent[]; readonly namespace: string; readonly payload: Readonly<Record<string, unknown>> };
}

/** Consecutive failures of one tool with one code that end the run (retry at most three times). */
export const MAX_CONSECUTIVE_FAILURES = 3;
/** Identical calls (same tool, same arguments) that count as a loop. */
export const LOOP_REPEATS = 3;
/** Corrections of the final answer (format, schema) the model gets (the third layer). */
export const OUTPUT_RETRIES = 1;

export interface Failure {
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
export class Finish {
  constructor(readonly failure: Failure) {}
}
