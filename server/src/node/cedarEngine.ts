/**
 * Cedar's official engine (`@cedar-policy/cedar-wasm`, WebAssembly) over a contract's export
 * (service/export/cedar.ts): validating the policies against the schema, and the decision on one
 * tool call, as the dry run names decisions (docs/enforcement.md). Loaded on first use: only the
 * commands that need it pay for it.
 */
import { createRequire } from 'node:module';
import { hitlApproval, toolApproval, type CedarExport, type CedarType } from '../service/index.ts';

type Engine = typeof import('@cedar-policy/cedar-wasm/nodejs');
let engine: Engine | undefined;

/** The engine, loaded once (its module reads the .wasm beside it). */
export function cedarEngine(): Engine {
  engine ??= createRequire(import.meta.url)('@cedar-policy/cedar-wasm/nodejs') as Engine;
  return engine;
}

/** The schema and policy errors of an export; empty when they validate (strict mode). Warnings (mixed scripts in a Chinese name) are not errors. */
export function validateExport(x: Pick<CedarExport, 'schema' | 'policies'>): string[] {
  const r = cedarEngine().validate({ schema: x.schema, policies: { staticPolicies: x.policies }, validationSettings: { mode: 'strict' } });
  if (r.type === 'failure') return r.errors.map((e) => e.message);
  return r.validationErrors.map((e) => `${e.policyId}: ${e.error.message}`);
}

/** What the contract decides on a call (the dry run's words): allowed, needs a human, refused. */
export type Decision = 'allowed' | 'human' | 'refused';

type CedarValue = string | number | boolean | CedarValue[];

/** A JSON value as the Cedar type the schema gives, or undefined when it is not one (the attribute is then left out). */
function asCedar(v: unknown, type: CedarType): CedarValue | undefined {
  if (type === 'Long') return typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
  if (type === 'String') return typeof v === 'string' ? v : undefined;
  if (type === 'Bool') return typeof v === 'boolean' ? v : undefined;
  if (!Array.isArray(v)) return undefined;
  const items = v.map((x) => asCedar(x, type.slice(4, -1) as CedarType));
  return items.every((x) => x !== undefined) ? (items as CedarValue[]) : undefined;
}

function record(values: Readonly<Record<string, unknown>>, types: ReadonlyMap<string, CedarType>): Record<string, CedarValue> {
  const out: Record<string, CedarValue> = {};
  for (const [name, type] of types) {
    if (!Object.prototype.hasOwnProperty.call(values, name)) continue;
    const v = asCedar(values[name], type);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** One tool call as a runtime asks: its arguments, the request's names, the approvals granted so far, the resource files' values. */
export interface CallRequest {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly names: Readonly<Record<string, unknown>>;
  readonly approvals: ReadonlySet<string>;
  readonly files: ReadonlyMap<string, readonly unknown[]>;
}

/** Every approval the policies could ask for (to tell "needs a human" from "refused"). */
function allApprovals(x: CedarExport): Set<string> {
  return new Set([...x.policies.matchAll(/context\.approvals\.contains\("((?:[^"\\]|\\.)*)"\)/g)].map((m) => JSON.parse(`"${m[1]!}"`) as string));
}

/** The `@id` of each policy, in order: the engine names a policy of a text `policy<N>`. */
function policyIds(x: CedarExport): string[] {
  return [...x.policies.matchAll(/^@id\("((?:[^"\\]|\\.)*)"\)$/gm)].map((m) => JSON.parse(`"${m[1]!}"`) as string);
}
const ownId = (ids: readonly string[], engineId: string): string => ids[Number(/^policy(\d+)$/.exec(engineId)?.[1] ?? NaN)] ?? engineId;

function authorise(x: CedarExport, call: CallRequest, approvals: ReadonlySet<string>): { allow: boolean; reasons: string[]; errors: string[] } {
  const entities = [...call.files].map(([name, values]) => ({ uid: { type: 'File', id: name }, attrs: { values: values.filter((v): v is string => typeof v === 'string') }, parents: [] }));
  const r = cedarEngine().isAuthorized({
    principal: { type: 'Agent', id: x.agent.slice('Agent::'.length).replace(/^"|"$/g, '') },
    action: { type: 'Action', id: 'call-tool' },
    resource: { type: 'Tool', id: call.tool },
    context: { approvals: [...approvals], args: record(call.args, x.args), names: record(call.names, x.names) },
    schema: x.schema,
    validateRequest: true,
    policies: { staticPolicies: x.policies },
    entities,
  });
  if (r.type === 'failure') throw new Error(r.errors.map((e) => e.message).join('; '));
  const ids = policyIds(x);
  return { allow: r.response.decision === 'allow', reasons: r.response.diagnostics.reason.map((id) => ownId(ids, id)), errors: r.response.diagnostics.errors.map((e) => e.error.message) };
}

/**
 * Cedar's decision on a call: allowed with the approvals granted so far; needs a human when it is
 * allowed once every approval the policies name is granted; refused otherwise. `reasons`: the
 * policies that denied it with the approvals granted so far.
 */
export function decideCall(x: CedarExport, call: CallRequest): { decision: Decision; reasons: readonly string[]; errors: readonly string[] } {
  const now = authorise(x, call, call.approvals);
  if (now.allow) return { decision: 'allowed', reasons: [], errors: now.errors };
  const all = authorise(x, call, new Set([...call.approvals, ...allApprovals(x)]));
  return { decision: all.allow ? 'human' : 'refused', reasons: now.reasons, errors: [...now.errors, ...all.errors] };
}

/** Cedar's decision on a memory write (or read) by a role. */
export function decidePool(x: CedarExport, role: string, layer: string, action: 'write-pool' | 'read-pool' = 'write-pool'): Decision {
  const r = cedarEngine().isAuthorized({
    principal: { type: 'Role', id: role },
    action: { type: 'Action', id: action },
    resource: { type: 'Pool', id: layer },
    context: {},
    schema: x.schema,
    validateRequest: true,
    policies: { staticPolicies: x.policies },
    entities: [],
  });
  if (r.type === 'failure') throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.response.decision === 'allow' ? 'allowed' : 'refused';
}

export { hitlApproval, toolApproval };
