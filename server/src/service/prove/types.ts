/** The plain data of `agents-md prove` (docs/prove.md). */
import type { Range } from '../types.ts';

/** The obligations prove checks, by id (docs/prove.md). */
export const OBLIGATIONS = ['ungated-side-effect', 'dead-gate', 'shadowed-gate', 'vacuous-guard', 'forbidden-sequence'] as const;
export type Obligation = (typeof OBLIGATIONS)[number];

/** A message id and its arguments (localised by the adapter). */
export interface ProveMessage {
  readonly id: string;
  readonly args: Readonly<Record<string, string | number>>;
}

/** What makes a finding happen: a tool call with its arguments (and the request's data), or a final answer. */
export type Witness =
  | { readonly kind: 'call'; readonly tool: string; readonly input: Readonly<Record<string, unknown>>; readonly data: Readonly<Record<string, unknown>> }
  | { readonly kind: 'answer'; readonly answer: unknown };

export interface ProveFinding {
  readonly obligation: Obligation;
  readonly message: ProveMessage;
  /** The clause the finding is about (JSON Pointer) and its range in the contract. */
  readonly pointer: string;
  readonly range: Range;
  /** `proved`: the candidates covered every input the schemas allow; else what was not modelled. */
  readonly proved: boolean;
  readonly qualified: readonly ProveMessage[];
  /** Absent for a dead gate: no input fires it. */
  readonly witness?: Witness;
}

/** The sorts of the SMT-LIB constants a query reads back. */
export type SmtSort = 'Int' | 'Real' | 'Bool' | 'String';

/** One SMT-LIB query (declarations and assertions) and the constants whose values a model gives back. */
export interface SmtQuery {
  readonly smt: string;
  readonly read: readonly { readonly name: string; readonly sort: SmtSort }[];
}

export type SmtValue = number | string | boolean;

/** A solver's answer: a model of the read constants, no model at all, or no answer (a time limit, an error). */
export type SmtAnswer = { readonly status: 'sat'; readonly values: Readonly<Record<string, SmtValue>> } | { readonly status: 'unsat' } | { readonly status: 'unknown'; readonly reason: string };

/** An SMT solver (the adapters give Z3, node/z3Solver.ts); without one, prove falls back to its candidate search and proves nothing. */
export interface ProveSolver {
  readonly name: string;
  check(query: SmtQuery): Promise<SmtAnswer>;
}
