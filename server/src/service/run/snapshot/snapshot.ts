/**
 * The dry-run snapshot (docs/dry-run.md "Snapshot files"): the mocked world one contract is run
 * against. This module holds the typed model and its conversion from validated data; parsing and
 * diagnostics are in snapshotValidate.ts, the format in schemas/snapshot.schema.json and
 * docs/dry-run.md.
 */
import type { TokenUsage } from '../llm/llmProvider.ts';

/** Health of a memory pool in the snapshot. */
export type PoolStatus = 'healthy' | 'unavailable' | 'stale';

/** A memory pool's mocked state. */
export interface PoolState {
  readonly status: PoolStatus;
  /** ISO 8601 date-time of the last update, if given. */
  readonly updatedAt?: string;
  readonly records: readonly Readonly<Record<string, unknown>>[];
}

/** What a tool answers to one call: the result, or the error message (neither: `null`). */
export interface MockAnswer {
  readonly output?: unknown;
  readonly error?: string;
  /** Simulated duration (ms). */
  readonly delayMs: number;
}

/** One mocked answer of a tool, or a sequence of them given in turn (the last repeats). */
export interface ToolMock extends MockAnswer {
  /** Arguments the call must contain (by value); absent: any call. */
  readonly match?: Readonly<Record<string, unknown>>;
  /** Answers of the 1st, 2nd, … call this mock answers; instead of its own `output`/`error`. */
  readonly sequence?: readonly MockAnswer[];
}

/** A tool call the scripted model makes. */
export interface ScriptCall {
  readonly name: string;
  /** Arguments as JSON text, or exactly as written for malformed output. */
  readonly rawArguments: string;
}

/** Fields every scripted step may have. */
interface StepCommon {
  /** Prose conditions this step fires by name. */
  readonly fire: readonly string[];
  readonly usage?: TokenUsage;
  /** Simulated duration of the step (ms). */
  readonly delayMs: number;
}

/** One answer of the scripted model (repeats already expanded). */
export type ScriptStep =
  | (StepCommon & { readonly kind: 'calls'; readonly calls: readonly ScriptCall[]; readonly say?: string })
  | (StepCommon & { readonly kind: 'final'; readonly text: string });

/** A human decision, as scripted or as answered by a host. */
export type HumanDecision = 'approve' | 'reject' | 'timeout';

/** What `agents-md eval` checks after a query's run. */
export interface Expectation {
  readonly outcome?: 'success' | 'fallback' | 'failure' | 'cancelled';
  readonly code?: string;
  readonly errorCode?: string;
  readonly tools?: readonly string[];
  /** Assertions on the answer (docs/dry-run.md, "Assertions"). */
  readonly answer?: { readonly equals?: unknown; readonly contains?: string; readonly schema?: Readonly<Record<string, unknown>>; readonly check?: string };
  /** The tools that ran, matched `exact`ly, `in_order` (others may come between) or in `any_order`. */
  readonly trajectory?: { readonly tools: readonly string[]; readonly order: 'exact' | 'in_order' | 'any_order' };
  /** Calls that must have been made: this tool, with arguments that include these. */
  readonly calls?: readonly { readonly tool: string; readonly arguments?: Readonly<Record<string, unknown>> }[];
  /** Contract clauses (JSON Pointers) the run must have acted on: fired, paused for, applied, or ended at. */
  readonly clauses?: readonly string[];
}

/** One query of a snapshot. */
export interface SnapshotQuery {
  readonly id: string;
  /** Index in the snapshot's `queries` (for positions and messages). */
  readonly index: number;
  readonly description?: string;
  readonly query: string;
  readonly entities: Readonly<Record<string, string | number | boolean>>;
  readonly data: Readonly<Record<string, unknown>>;
  readonly fire: readonly string[];
  /** Pool states of this query: the snapshot's, with this query's overrides applied. */
  readonly pools: Readonly<Record<string, PoolState>>;
  /** Tool mocks of this query: the snapshot's, with this query's overrides applied. */
  readonly tools: Readonly<Record<string, readonly ToolMock[]>>;
  readonly model: readonly ScriptStep[];
  readonly human: Readonly<Record<string, HumanDecision>>;
  readonly expect?: Expectation;
}

/** A whole snapshot. */
export interface Snapshot {
  /** The contract path as written (relative to the snapshot file). */
  readonly contract?: string;
  readonly description?: string;
  /** The dry run's clock, ISO 8601; absent: the time of the run. */
  readonly now?: string;
  readonly queries: readonly SnapshotQuery[];
}

/** Most expanded steps one query may script (repeats included): every run ends. */
export const MAX_SCRIPT_STEPS = 10_000;

type Raw = Record<string, any>;

function pool(raw: Raw | undefined, base?: PoolState): PoolState {
  const r = raw ?? {};
  const updatedAt = typeof r['updated_at'] === 'string' ? r['updated_at'] : base?.updatedAt;
  return {
    status: r['status'] ?? base?.status ?? 'healthy',
    ...(updatedAt !== undefined ? { updatedAt } : {}),
    records: Array.isArray(r['records']) ? r['records'] : (base?.records ?? []),
  };
}

function answer(m: Raw): MockAnswer {
  return {
    ...('output' in m ? { output: m['output'] } : {}),
    ...(typeof m['error'] === 'string' ? { error: m['error'] } : {}),
    delayMs: typeof m['delay_ms'] === 'number' ? m['delay_ms'] : 0,
  };
}

function mocks(raw: unknown): ToolMock[] {
  return (Array.isArray(raw) ? raw : []).map((m: Raw) => ({
    ...(m['match'] !== undefined ? { match: m['match'] } : {}),
    ...answer(m),
    ...(Array.isArray(m['sequence']) && m['sequence'].length > 0 ? { sequence: (m['sequence'] as Raw[]).map(answer) } : {}),
  }));
}

/** JSON text of scripted arguments (`arguments`) or the raw text (`raw_arguments`). */
function argumentsText(c: Raw): string {
  if (typeof c['raw_arguments'] === 'string') return c['raw_arguments'];
  return JSON.stringify(c['arguments'] ?? {});
}

function steps(raw: unknown): ScriptStep[] {
  const out: ScriptStep[] = [];
  for (const s of (Array.isArray(raw) ? raw : []) as Raw[]) {
    const common = {
      fire: Array.isArray(s['fire']) ? (s['fire'] as string[]) : [],
      ...(s['usage'] ? { usage: { promptTokens: s['usage']['prompt_tokens'] ?? 0, completionTokens: s['usage']['completion_tokens'] ?? 0 } } : {}),
      delayMs: typeof s['delay_ms'] === 'number' ? s['delay_ms'] : 0,
    };
    let step: ScriptStep;
    if ('final' in s) {
      const f = s['final'];
      step = { ...common, kind: 'final', text: typeof f === 'string' ? f : JSON.stringify(f, null, 2) };
    } else {
      const calls: ScriptCall[] = typeof s['call'] === 'string' ? [{ name: s['call'], rawArguments: argumentsText(s) }] : ((s['calls'] ?? []) as Raw[]).map((c) => ({ name: String(c['name']), rawArguments: argumentsText(c) }));
      step = { ...common, kind: 'calls', calls, ...(typeof s['say'] === 'string' ? { say: s['say'] } : {}) };
    }
    const repeat = typeof s['repeat'] === 'number' ? s['repeat'] : 1;
    for (let i = 0; i < repeat && out.length < MAX_SCRIPT_STEPS; i++) out.push(step);
  }
  return out;
}

/**
 * Builds the typed snapshot from data that passed schemas/snapshot.schema.json (snapshotValidate.ts
 * guarantees it). Query-level `pools` and `tools` are merged over the snapshot's.
 */
export function toSnapshot(data: Raw): Snapshot {
  const pools: Record<string, PoolState> = {};
  for (const [name, p] of Object.entries((data['pools'] ?? {}) as Record<string, Raw>)) pools[name] = pool(p);
  const tools: Record<string, ToolMock[]> = {};
  for (const [name, t] of Object.entries((data['tools'] ?? {}) as Record<string, unknown>)) tools[name] = mocks(t);
  const queries = ((data['queries'] ?? []) as Raw[]).map((q, index): SnapshotQuery => {
    const qPools = { ...pools };
    for (const [name, p] of Object.entries((q['pools'] ?? {}) as Record<string, Raw>)) qPools[name] = pool(p, pools[name]);
    const qTools = { ...tools };
    for (const [name, t] of Object.entries((q['tools'] ?? {}) as Record<string, unknown>)) qTools[name] = mocks(t);
    const e = q['expect'] as Raw | undefined;
    return {
      id: String(q['id']),
      index,
      ...(typeof q['description'] === 'string' ? { description: q['description'] } : {}),
      query: String(q['query']),
      entities: (q['entities'] ?? {}) as Record<string, string>,
      data: (q['data'] ?? {}) as Record<string, unknown>,
      fire: (q['fire'] ?? []) as string[],
      pools: qPools,
      tools: qTools,
      model: steps(q['model']),
      human: (q['human'] ?? {}) as Record<string, HumanDecision>,
      ...(e
        ? {
            expect: {
              ...(e['outcome'] ? { outcome: e['outcome'] } : {}),
              ...(e['code'] ? { code: e['code'] } : {}),
              ...(e['error_code'] ? { errorCode: e['error_code'] } : {}),
              ...(Array.isArray(e['tools']) ? { tools: e['tools'] } : {}),
              ...(e['answer'] && typeof e['answer'] === 'object' ? { answer: e['answer'] } : {}),
              ...(e['trajectory'] && typeof e['trajectory'] === 'object' ? { trajectory: { tools: [], order: 'exact', ...(e['trajectory'] as object) } } : {}),
              ...(Array.isArray(e['calls']) ? { calls: e['calls'] } : {}),
              ...(Array.isArray(e['clauses']) ? { clauses: e['clauses'] } : {}),
            },
          }
        : {}),
    };
  });
  return {
    ...(typeof data['contract'] === 'string' ? { contract: data['contract'] } : {}),
    ...(typeof data['description'] === 'string' ? { description: data['description'] } : {}),
    ...(typeof data['now'] === 'string' ? { now: data['now'] } : {}),
    queries,
  };
}
