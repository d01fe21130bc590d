/**
 * The plain data of conformance (docs/conformance.md): spans as observed in a production trace
 * (from OTLP or from our own trace), the clauses of a contract they are graded against, and the
 * grade of each clause with its evidence.
 */
import type { Range } from '../types.ts';

/** An attribute value as OTLP carries it, read into plain JSON. */
export type ObservedValue = string | number | boolean | null | readonly ObservedValue[] | { readonly [key: string]: ObservedValue };

/** Where a span was read: its file and, when known, the 1-based line (of a one-request-per-line file). */
export interface SpanSource {
  readonly file: string;
  readonly line?: number;
}

/** One span as read from a trace: only what grading needs. */
export interface ObservedSpan {
  /** Hex; the spans of one run share it. */
  readonly traceId: string;
  readonly spanId: string;
  readonly name: string;
  /** Epoch milliseconds of the span's end (0 when unknown): orders the answers of a run. */
  readonly endMs: number;
  /** Epoch milliseconds of the span's start (absent: its end): orders the tool calls of a run. */
  readonly startMs?: number;
  readonly attributes: Readonly<Record<string, ObservedValue>>;
  readonly events: readonly { readonly name: string; readonly attributes: Readonly<Record<string, ObservedValue>> }[];
  readonly status: 'unset' | 'ok' | 'error';
  /** Where it was read (absent: received over the network, or made in memory). */
  readonly source?: SpanSource;
}

/** What a clause promises, as graded. */
export type ClauseKind = 'tool' | 'arguments' | 'approval' | 'boundary' | 'sequence' | 'tools' | 'steps' | 'tokens' | 'failure' | 'error-codes' | 'output' | 'pool' | 'pools' | 'hitl';

/** One clause of the contract that a trace can exercise or violate. */
export interface Clause {
  /** The clause's JSON Pointer into the contract data: its id. */
  readonly pointer: string;
  readonly kind: ClauseKind;
  /** The tool, pool, scenario or code it is about ('' for a whole section). */
  readonly name: string;
  readonly range: Range;
}

/** A message by id and arguments (localised by the adapters). */
export interface ConformanceMessage {
  readonly id: string;
  readonly args: Readonly<Record<string, string | number>>;
}

/** One observation behind a grade: the run, the span and what was seen. */
export interface Evidence {
  /** The run's id (`gen_ai.conversation.id` of its `invoke_agent` span, else the trace id). */
  readonly run: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly message: ConformanceMessage;
  /** Where the span was read, when from a file. */
  readonly source?: SpanSource;
}

export type Grade = 'exercised' | 'never' | 'violated';
/** `attested`: every run carried what the clause needs; `qualified`: some did not (see `qualifications`). */
export type Verdict = 'attested' | 'qualified';

export interface ClauseGrade extends Clause {
  readonly grade: Grade;
  /** How many times the traces exercised the clause (calls, runs, answers). */
  readonly exercised: number;
  readonly violations: number;
  readonly verdict: Verdict;
  /** Why the verdict is qualified, each reason with how many times it occurred. */
  readonly qualifications: readonly ConformanceMessage[];
  /** The first violations (at most `MAX_EVIDENCE`), in the order they were read. */
  readonly evidence: readonly Evidence[];
}

export interface ConformanceReport {
  readonly runs: number;
  readonly spans: number;
  readonly clauses: readonly ClauseGrade[];
  readonly violations: number;
}

/** The most violations kept as evidence per clause (the count is exact). */
export const MAX_EVIDENCE = 20;
