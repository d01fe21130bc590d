/**
 * The typed view of a contract: its tools, pools, requirements, HITL rows, failure entries,
 * budgets and trigger as plain data with the JSON Pointer of each clause (so that every outcome
 * of the dry run can point at the clause that produced it), names read by `normaliseName`.
 * Built once per model (WeakMap); tolerant of any data (a contract with errors still runs as
 * far as it can).
 */
import { contractLikeSection } from './recognition.ts';
import type { ParsedContract } from './types.ts';
import { normaliseName, unquote } from './names.ts';
import { normaliseDuration } from './values.ts';
import { normaliseVersion } from './version.ts';
import { arr, obj, str } from './data.ts';

/** A tool declared in TOOLS. */
export interface ToolView {
  readonly name: string;
  readonly pointer: string;
  readonly description: string;
  readonly whenToUse?: string;
  readonly whenNotToUse?: string;
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  /** True when each call needs approval (the tool's flag or BUDGETS `requires_approval`). */
  readonly requiresApproval: boolean;
  /** Pointer of the clause that asks for approval. */
  readonly approvalPointer?: string;
  /** Timeout of one call (ms): `tool_timeouts`, the tool's `timeout`, else 30 s. */
  readonly timeoutMs: number;
  readonly timeoutPointer?: string;
}

/** One MEMORY_REQUIREMENTS entry. */
export interface RequirementView {
  readonly pool: string;
  readonly pointer: string;
  readonly required: boolean;
  readonly filters: readonly { readonly field: string; readonly value: unknown }[];
  readonly topK: number;
  /** Weight in context assembly: the requirement's, the pool's default, else an equal share. */
  readonly weight: number;
}

/** One HUMAN_IN_THE_LOOP row. */
export interface HitlView {
  readonly scenario: string;
  readonly pointer: string;
  readonly condition: string;
  readonly requiredAction: string;
  readonly sla: string;
  readonly onTimeout: 'reject' | 'escalate';
  /** What one approval covers: `call` (the default) or `run` (docs/dry-run.md §3). */
  readonly scope: 'call' | 'run';
}

/** One FAILURE_PROTOCOL entry. */
export interface FailureView {
  readonly pointer: string;
  readonly condition: string;
  readonly actions: readonly string[];
  readonly code?: string;
  readonly scenario?: string;
  readonly fallback?: string;
  readonly alertChannel?: string;
  readonly severity?: string;
  readonly maxWait?: string;
}

/** One CONSTRAINTS entry. */
export interface ConstraintView {
  readonly pointer: string;
  readonly type: string;
  readonly format?: string;
  readonly schema?: Readonly<Record<string, unknown>>;
  readonly rule?: string;
  readonly check?: string;
  readonly language?: string;
}

/** A required entity of TRIGGER. */
export interface EntityView {
  readonly name: string;
  readonly pointer: string;
  readonly pattern?: string;
}

/** One MEMORY_CONTRACT row: a layer and the roles that may write it (the cell as written). */
export interface LayerView {
  readonly layer: string;
  readonly pointer: string;
  readonly writeBy: string;
}

/** The contract as the dry run, the diff and the features see it. */
export interface ContractView {
  readonly name: string;
  readonly kind: ParsedContract['kind'];
  /** The declared version without its leading `v`, or undefined when there is none. */
  readonly version?: string;
  /** The versions of the VERSIONING & AUDIT rows, without their leading `v`. */
  readonly auditVersions: ReadonlySet<string>;
  readonly layers: readonly LayerView[];
  /** For a free-form file, the title of its first heading that looks like a contract section (model/recognition.ts). */
  readonly contractLike?: string;
  readonly intentPatterns: readonly { readonly pattern: string; readonly pointer: string }[];
  readonly entities: readonly EntityView[];
  readonly pools: ReadonlyMap<string, { readonly pointer: string; readonly weight?: number }>;
  readonly requirements: readonly RequirementView[];
  readonly freshness: ReadonlyMap<string, { readonly pointer: string; readonly kind: string; readonly updatedBefore?: string; readonly staleAfter?: string }>;
  readonly tools: ReadonlyMap<string, ToolView>;
  readonly constraints: readonly ConstraintView[];
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  readonly hitl: readonly HitlView[];
  readonly failures: readonly FailureView[];
  readonly budgets: {
    readonly maxSteps: number;
    readonly maxStepsPointer?: string;
    readonly tokenBudget?: number;
    readonly tokenPointer?: string;
    readonly timeoutMs: number;
    readonly timeoutPointer?: string;
    readonly maxResultChars: number;
    readonly breaker?: { readonly failures: number; readonly cooldownMs: number; readonly pointer: string };
  };
  /** Field names COMPLIANCE says are PII (redacted in the trace). */
  readonly piiFields: readonly string[];
  readonly identity: Readonly<Record<string, unknown>>;
  readonly compliance: Readonly<Record<string, unknown>>;
}

/** Default step limit when neither BUDGETS nor TASK gives one (the "simple" task size). */
export const DEFAULT_MAX_STEPS = 20;
/** Default run timeout when BUDGETS gives none (ms). */
export const DEFAULT_TIMEOUT_MS = 5 * 60_000;
/** Default tool timeout: 30 s. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
/** Default truncation of tool results: 1200 characters. */
export const DEFAULT_MAX_RESULT_CHARS = 1200;
/** Default `top_k` of a memory requirement. */
export const DEFAULT_TOP_K = 5;

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration (`30s`, `5m`, `2 小时`) in ms, or undefined when it is not one. */
export function durationMs(text: unknown): number | undefined {
  if (typeof text === 'number') return text * 1000;
  const n = typeof text === 'string' ? normaliseDuration(text) : undefined;
  if (!n) return undefined;
  const v = Number(n.slice(0, -1)) * (UNIT_MS[n.slice(-1)] ?? 1000);
  return Number.isFinite(v) ? v : undefined;
}

const COMPLEXITY_STEPS: Record<string, number> = { simple: 20, medium: 50, complex: 100 };

/** `{ [key]: value }` when the value is defined, else `{}`: for optional fields of a view. */
function some<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}
const schemaObj = (v: unknown): Record<string, unknown> | undefined => obj(v);

const cache = new WeakMap<ParsedContract, ContractView>();

/**
 * The last result of each part of the view (or of a rule's, built from section values) with the
 * data values it was built from: an edit leaves the other sections' values the same objects
 * (parse/parseContract.ts), so their parts are not built again (a keystroke builds the view anew:
 * docs/performance.md).
 */
const lastParts = new Map<(...inputs: never[]) => unknown, { readonly inputs: readonly unknown[]; readonly value: unknown }>();
export function part<A extends unknown[], T>(build: (...inputs: A) => T, ...inputs: A): T {
  const last = lastParts.get(build);
  if (last && last.inputs.length === inputs.length && last.inputs.every((v, i) => v === inputs[i])) return last.value as T;
  const value = build(...inputs);
  lastParts.set(build, { inputs, value });
  return value;
}

/**
 * Parts of the view from one section's value, for a reader that needs no more: a rule that reads
 * the whole model runs again on every keystroke, one that reads these sections' values only when
 * they change (validate/ruleCache.ts).
 */
export const hitlView = (rows: unknown): HitlView[] => part(hitlOf, rows);
export const failuresView = (entries: unknown): FailureView[] => part(failuresOf, entries);
export const constraintsView = (constraints: unknown): ConstraintView[] => part(constraintsOf, constraints);

/**
 * The error code of a step that returns one without saying "error_code": ``return `MEMORY_UNAVAILABLE` ``,
 * ``返回 `X` `` (docs/dry-run.md, "Failure protocol forms"). The contract reader takes the labelled forms.
 */
const RETURNED_CODE = /^\s*(?:[Rr]eturns?|RETURN|返回)\s*[:：]?\s*`([A-Z][A-Z0-9_]*)`\s*[.。]?\s*$/;

function returnedCode(actions: readonly unknown[]): { code?: string } {
  for (const a of actions) {
    const m = RETURNED_CODE.exec(String(a));
    if (m) return { code: m[1]! };
  }
  return {};
}
/** The dry run's view of a contract, computed once per model. Never throws. */
export function contractView(model: ParsedContract): ContractView {
  const hit = cache.get(model);
  if (hit) return hit;
  const d = model.data as Record<string, unknown>;
  const trigger = obj(d['trigger']) ?? {};
  const pools = part(poolsOf, d['memory_pools']);
  const version = d['version'];
  const view: ContractView = {
    name: normaliseName(obj(d['identity'])?.['name']) || normaliseName(d['name']) || 'agent',
    kind: model.kind,
    ...(version === undefined || version === null || version === '' ? {} : { version: normaliseVersion(version) }),
    auditVersions: new Set(arr(d['versioning']).map((r) => normaliseVersion(obj(r)?.['version']))),
    layers: arr(d['memory_contract']).flatMap((r, i): LayerView[] => {
      const o = obj(r);
      return o ? [{ layer: normaliseName(o['layer']), pointer: `/memory_contract/${i}`, writeBy: str(o['write_by']) ?? '' }] : [];
    }),
    ...some('contractLike', contractLikeSection(model)?.title),
    intentPatterns: arr(trigger['intent_patterns']).flatMap((p, i) => (unquote(p) ? [{ pattern: unquote(p), pointer: `/trigger/intent_patterns/${i}` }] : [])),
    entities: part(entitiesOf, trigger['required_entities']),
    pools,
    requirements: part(requirementsOf, d['memory_requirements'], pools),
    freshness: part(freshnessOf, d['memory_freshness']),
    tools: part(toolsOf, d['tools'], d['budgets']),
    constraints: constraintsView(d['constraints']),
    ...some('outputSchema', schemaObj(d['output_schema'])),
    hitl: hitlView(d['human_in_the_loop']),
    failures: failuresView(d['failure_protocol']),
    budgets: part(budgetsOf, d['budgets'], d['task']),
    piiFields: arr(obj(d['compliance'])?.['pii_fields']).map(normaliseName).filter(Boolean),
    identity: obj(d['identity']) ?? {},
    compliance: obj(d['compliance']) ?? {},
  };
  cache.set(model, view);
  return view;
}

/** MEMORY_POOLS by name (the first of a name), with their weights. */
function poolsOf(memoryPools: unknown) {
  const pools = new Map<string, { pointer: string; weight?: number }>();
  arr(memoryPools).forEach((p, i) => {
    const name = normaliseName(obj(p)?.['name']);
    const w = obj(p)?.['weight'];
    if (name && !pools.has(name)) pools.set(name, { pointer: `/memory_pools/${i}`, ...(typeof w === 'number' ? { weight: w } : {}) });
  });
  return pools;
}

/** MEMORY_REQUIREMENTS: a requirement's weight is its own, else its pool's, else an equal share. */
function requirementsOf(requirements: unknown, pools: ReadonlyMap<string, { pointer: string; weight?: number }>): RequirementView[] {
  const rawReqs = arr(requirements);
  return rawReqs.flatMap((r, i): RequirementView[] => {
    const o = obj(r);
    const pool = normaliseName(o?.['pool']);
    if (!o || !pool) return [];
    const w = typeof o['weight'] === 'number' ? o['weight'] : pools.get(pool)?.weight;
    return [
      {
        pool,
        pointer: `/memory_requirements/${i}`,
        required: o['required'] !== false,
        filters: arr(o['filters']).flatMap((f) => (obj(f) && str(obj(f)!['field']) ? [{ field: str(obj(f)!['field'])!, value: obj(f)!['value'] }] : [])),
        topK: typeof o['top_k'] === 'number' && o['top_k'] >= 1 ? Math.floor(o['top_k']) : DEFAULT_TOP_K,
        weight: typeof w === 'number' ? w : 1 / Math.max(1, rawReqs.length),
      },
    ];
  });
}

/** MEMORY_FRESHNESS by source. */
function freshnessOf(memoryFreshness: unknown) {
  const freshness = new Map<string, { pointer: string; kind: string; updatedBefore?: string; staleAfter?: string }>();
  arr(memoryFreshness).forEach((f, i) => {
    const o = obj(f);
    const source = normaliseName(o?.['source']);
    if (!o || !source) return;
    freshness.set(source, {
      pointer: `/memory_freshness/${i}`,
      kind: str(o['kind']) ?? 'static',
      ...some('updatedBefore', str(o['updated_before'])),
      ...some('staleAfter', str(o['stale_after'])),
    });
  });
  return freshness;
}

/** TOOLS by name, with approval (the tool's own flag or BUDGETS' list) and timeout (BUDGETS' per tool, the tool's own, the default). */
function toolsOf(toolList: unknown, budgetsValue: unknown): Map<string, ToolView> {
  const tools = new Map<string, ToolView>();
  arr(toolList).forEach((t, i) => {
    const o = obj(t);
    const name = normaliseName(o?.['name']);
    if (!o || !name || tools.has(name)) return;
    // An unchanged tool at the same index, under the same BUDGETS, reads as it did.
    const kept = toolViews.get(o);
    if (kept && kept.index === i && kept.budgets === budgetsValue) return void tools.set(name, kept.view);
    const view = toolView(o, name, i, budgetsValue);
    toolViews.set(o, { index: i, budgets: budgetsValue, view });
    tools.set(name, view);
  });
  return tools;
}
const toolViews = new WeakMap<object, { readonly index: number; readonly budgets: unknown; readonly view: ToolView }>();

function toolView(o: Record<string, unknown>, name: string, i: number, budgetsValue: unknown): ToolView {
  const budgets = obj(budgetsValue) ?? {};
  const listed = arr(budgets['requires_approval']).map(normaliseName).indexOf(name);
  const timeouts = obj(budgets['tool_timeouts']) ?? {};
  const timeoutKey = Object.keys(timeouts).find((k) => normaliseName(k) === name);
  const perTool = timeoutKey !== undefined ? durationMs(timeouts[timeoutKey]) : undefined;
  const own = durationMs(o['timeout']);
  return {
    name,
    pointer: `/tools/${i}`,
    description: str(o['description']) ?? '',
    ...some('whenToUse', str(o['when_to_use'])),
    ...some('whenNotToUse', str(o['when_not_to_use'])),
    ...some('inputSchema', schemaObj(o['input_schema'])),
    ...some('outputSchema', schemaObj(o['output_schema'])),
    requiresApproval: o['requires_approval'] === true || listed >= 0,
    ...(o['requires_approval'] === true ? { approvalPointer: `/tools/${i}/requires_approval` } : listed >= 0 ? { approvalPointer: `/budgets/requires_approval/${listed}` } : {}),
    timeoutMs: perTool ?? own ?? DEFAULT_TOOL_TIMEOUT_MS,
    ...(perTool !== undefined ? { timeoutPointer: `/budgets/tool_timeouts/${timeoutKey!.replace(/~/g, '~0').replace(/\//g, '~1')}` } : own !== undefined ? { timeoutPointer: `/tools/${i}/timeout` } : {}),
  };
}

function constraintsOf(constraints: unknown): ConstraintView[] {
  return arr(constraints).flatMap((c, i): ConstraintView[] => {
    const o = obj(c);
    if (!o) return [];
    return [
      {
        pointer: `/constraints/${i}`,
        type: str(o['type']) ?? '',
        ...some('format', str(o['format'])),
        ...some('schema', schemaObj(o['schema'])),
        ...some('rule', str(o['rule'])),
        ...some('check', str(o['check'])),
        ...some('language', str(o['language'])),
      },
    ];
  });
}

function hitlOf(rows: unknown): HitlView[] {
  return arr(rows).flatMap((h, i): HitlView[] => {
    const o = obj(h);
    const scenario = normaliseName(o?.['scenario']);
    if (!o || !scenario) return [];
    return [{ scenario, pointer: `/human_in_the_loop/${i}`, condition: str(o['trigger_condition']) ?? '', requiredAction: str(o['required_action']) ?? '', sla: str(o['sla']) ?? '', onTimeout: o['on_timeout'] === 'escalate' ? 'escalate' : 'reject', scope: o['scope'] === 'run' ? 'run' : 'call' }];
  });
}

/** FAILURE_PROTOCOL, with the error code an entry returns (its own field, else what its actions say). */
function failuresOf(entries: unknown): FailureView[] {
  return arr(entries).flatMap((f, i): FailureView[] => {
    const o = obj(f);
    if (!o) return [];
    const opt = (k: string, key: string) => (str(o[k]) ? { [key]: normaliseName(o[k]) || str(o[k])! } : {});
    return [
      {
        pointer: `/failure_protocol/${i}`,
        condition: str(o['condition']) ?? '',
        actions: arr(o['actions']).map((a) => String(a)),
        ...(str(o['code']) ? opt('code', 'code') : returnedCode(arr(o['actions']))),
        ...opt('scenario', 'scenario'),
        ...opt('fallback', 'fallback'),
        ...opt('alert_channel', 'alertChannel'),
        ...opt('severity', 'severity'),
        ...opt('max_wait', 'maxWait'),
      },
    ];
  });
}

/** BUDGETS with defaults: max steps from BUDGETS, else TASK's, else its complexity. */
function budgetsOf(budgetsValue: unknown, taskValue: unknown): ContractView['budgets'] {
  const budgets = obj(budgetsValue) ?? {};
  const task = obj(taskValue) ?? {};
  const maxSteps = typeof budgets['max_steps'] === 'number' ? budgets['max_steps'] : typeof task['max_steps'] === 'number' ? task['max_steps'] : (COMPLEXITY_STEPS[String(task['complexity'])] ?? DEFAULT_MAX_STEPS);
  const maxStepsPointer = typeof budgets['max_steps'] === 'number' ? '/budgets/max_steps' : typeof task['max_steps'] === 'number' ? '/task/max_steps' : task['complexity'] ? '/task/complexity' : undefined;
  const timeout = durationMs(budgets['timeout']);
  const breaker = obj(budgets['circuit_breaker']);
  const breakerFailures = typeof breaker?.['failures'] === 'number' ? breaker['failures'] : undefined;
  const cooldown = durationMs(breaker?.['cooldown']);
  return {
    maxSteps: Math.max(1, Math.floor(maxSteps)),
    ...(maxStepsPointer ? { maxStepsPointer } : {}),
    ...(typeof budgets['token_budget'] === 'number' ? { tokenBudget: budgets['token_budget'], tokenPointer: '/budgets/token_budget' } : {}),
    timeoutMs: timeout ?? DEFAULT_TIMEOUT_MS,
    ...(timeout !== undefined ? { timeoutPointer: '/budgets/timeout' } : {}),
    maxResultChars: typeof budgets['max_result_chars'] === 'number' && budgets['max_result_chars'] >= 1 ? budgets['max_result_chars'] : DEFAULT_MAX_RESULT_CHARS,
    ...(breakerFailures !== undefined && cooldown !== undefined ? { breaker: { failures: breakerFailures, cooldownMs: cooldown, pointer: '/budgets/circuit_breaker' } } : {}),
  };
}

/** TRIGGER's required entities: a name, or a name with a pattern. */
function entitiesOf(required: unknown): EntityView[] {
  return arr(required).flatMap((e, i): EntityView[] => {
    if (typeof e === 'string') return normaliseName(e) ? [{ name: normaliseName(e), pointer: `/trigger/required_entities/${i}` }] : [];
    const o = obj(e);
    const name = normaliseName(o?.['name']);
    return name ? [{ name, pointer: `/trigger/required_entities/${i}`, ...some('pattern', str(o!['pattern'])) }] : [];
  });
}
