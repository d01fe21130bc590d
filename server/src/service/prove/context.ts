/**
 * What every obligation reads from one contract (docs/prove.md): the HITL rows with their parsed
 * conditions, each tool's declared side effects, where a clause is, and the scope a condition is
 * evaluated in at a tool call, as the dry run builds it (run/runState.ts). Pure.
 */
import type { ParsedContract } from '../parse/parseContract.ts';
import { contractView, type ContractView, type HitlView, type ToolView } from '../model/contractView.ts';
import { locate } from '../model/locate.ts';
import { arr, obj, str } from '../model/data.ts';
import type { Expr } from '../model/expression.ts';
import { conditionOf } from '../run/engine/failureProtocol.ts';
import type { Scope } from '../run/engine/expression.ts';
import type { Range } from '../types.ts';
import { constantsByName, domainOf, sampleValue, type Domain } from './domain.ts';
import { namesRead, unmodelled } from './search.ts';
import type { ProveMessage } from './types.ts';

export interface Gate {
  readonly row: HitlView;
  readonly expr?: Expr;
}

export interface ProveContext {
  readonly model: ParsedContract;
  readonly view: ContractView;
  readonly gates: readonly Gate[];
  readonly constants: Map<string, unknown[]>;
  readonly range: (pointer: string) => Range;
}

export function proveContext(model: ParsedContract): ProveContext {
  const view = contractView(model);
  const gates = view.hitl.map((row) => ({ row, ...(conditionOf(row) ? { expr: conditionOf(row)! } : {}) }));
  const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return {
    model,
    view,
    gates,
    constants: constantsByName(gates.flatMap((g) => (g.expr ? [g.expr] : []))),
    range: (pointer) => locate(model, pointer)?.value ?? zero,
  };
}

/** The side effects TOOLS declares for a tool (`write`, `external`…), or '' when none. */
export function sideEffects(c: ProveContext, tool: ToolView): string {
  return str(obj(arr(c.model.data['tools'])[Number(tool.pointer.split('/')[2])])?.['side_effects']) ?? '';
}

/** The scope of a condition at a call of a tool, as the dry run builds it: the arguments, then the request's data. */
export function callScope(input: Readonly<Record<string, unknown>>, data: Readonly<Record<string, unknown>>): Scope {
  return { input: { query: '', entities: {} }, memory: {}, names: [input, data], file: () => undefined };
}

/** The names to search at a call of `tool` for these conditions: its properties by schema, the others free (the request's data). */
export function callDomains(c: ProveContext, tool: ToolView, exprs: readonly Expr[]): { args: Domain[]; free: Domain[]; base: Record<string, unknown> } {
  const props = obj(tool.inputSchema?.['properties']) ?? {};
  const required = new Set(arr(tool.inputSchema?.['required']).filter((r): r is string => typeof r === 'string'));
  const names = [...new Set(exprs.flatMap(namesRead))].filter((n) => !n.startsWith('output.'));
  const args = names.filter((n) => n in props).map((n) => domainOf(n, props[n], c.constants.get(n) ?? [], !required.has(n)));
  const free = names.filter((n) => !(n in props)).map((n) => domainOf(n, undefined, c.constants.get(n) ?? [], false));
  const base = (sampleValue(tool.inputSchema ?? { type: 'object' }) ?? {}) as Record<string, unknown>;
  return { args, free, base };
}

/** Why a candidate search over these conditions and domains is qualified (beside the reason it was searched at all). */
export function qualifications(gates: readonly Gate[], domains: readonly Domain[], exhaustive: boolean, tried: number): ProveMessage[] {
  const out: ProveMessage[] = [];
  // The gates with a condition that fires at a call (solve.ts, callGates); prose ones are named by the caller.
  for (const g of gates) for (const what of g.expr ? unmodelled(g.expr) : []) out.push({ id: 'prove.reason.expression', args: { what, condition: g.row.condition } });
  for (const d of domains) for (const keyword of d.unmodelled) out.push({ id: 'prove.reason.schema', args: { keyword, name: d.name } });
  if (!exhaustive) out.push({ id: 'prove.reason.search', args: { count: tried } });
  return out;
}

/** Splits a searched input into the call's arguments and the request's data. */
export function splitInput(input: Readonly<Record<string, unknown>>, free: readonly Domain[]): { input: Record<string, unknown>; data: Record<string, unknown> } {
  const freeNames = new Set(free.map((d) => d.name));
  const args: Record<string, unknown> = {};
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) (freeNames.has(k) ? data : args)[k] = v;
  return { input: args, data };
}

/** How close an input is to a gate's boundary: names equal to a constant they are compared with count. */
export function boundaryScore(c: ProveContext, input: Readonly<Record<string, unknown>>): number {
  return Object.entries(input).filter(([k, v]) => (c.constants.get(k) ?? []).some((x) => x === v || (typeof x === 'number' && typeof v === 'number' && Math.abs(x - v) <= 1))).length;
}

