/**
 * A contract as Cedar policies and their schema (docs/enforcement.md): who may call which tool,
 * which calls need a human, which roles may read and write which memory layer. Every policy
 * carries the clause it came from (`@clause("file:line")`); a condition Cedar cannot decide
 * becomes "requires a human" with a comment that names the clause and why, never a permit.
 * Pure: plain text out; the engine that validates and evaluates it lives in node/cedarEngine.ts.
 */
import type { ParsedContract } from '../parse/parseContract.ts';
import { contractView, type ContractView, type HitlView } from '../model/contractView.ts';
import { conditionExpression } from '../model/condition.ts';
import { locate } from '../model/locate.ts';
import { arr, obj, str } from '../model/data.ts';
import { format } from '../l10n/format.ts';
import { cedarString, holds, Untranslatable, type CedarType, type NameTypes } from './cedarExpr.ts';

/** A tool a ❌ boundary forbids, and the line of that boundary (1-based). */
export interface ForbiddenTool {
  readonly name: string;
  readonly line: number;
}

/** A clause that Cedar cannot decide: its calls need a human. */
export interface HumanClause {
  readonly id: string;
  readonly clause: string;
  readonly reason: string;
}

export interface CedarExport {
  readonly schema: string;
  readonly policies: string;
  /** The clauses made "requires a human" because Cedar cannot decide them. */
  readonly humans: readonly HumanClause[];
  /** The principal of the agent's tool calls: `Agent::"<id>"`. */
  readonly agent: string;
  /** The names of `context.names` and their Cedar types (what a runtime passes). */
  readonly names: ReadonlyMap<string, CedarType>;
  readonly args: ReadonlyMap<string, CedarType>;
}

/** The approval a runtime puts in `context.approvals` once a human approved a HITL row or a tool call. */
export const hitlApproval = (scenario: string) => `hitl:${scenario}`;
export const toolApproval = (tool: string) => `tool:${tool}`;

/** The Cedar type of a JSON Schema property, when Cedar has one (numbers other than integers have none). */
function schemaType(s: unknown): CedarType | undefined {
  const o = obj(s);
  if (!o) return undefined;
  const types = (Array.isArray(o['type']) ? o['type'] : [o['type']]).filter((t) => t !== 'null');
  if (types.length !== 1) return undefined;
  const t = types[0];
  if (t === 'integer') return 'Long';
  if (t === 'string') return 'String';
  if (t === 'boolean') return 'Bool';
  if (t === 'array') {
    const item = schemaType(o['items']);
    return item && !item.startsWith('Set<') ? (`Set<${item}>` as CedarType) : undefined;
  }
  return undefined;
}

/** The argument types of every tool: a name typed differently by two tools keeps the first type. */
function argTypes(view: ContractView): Map<string, CedarType> {
  const out = new Map<string, CedarType>();
  for (const t of view.tools.values()) {
    const props = obj(t.inputSchema?.['properties']) ?? {};
    for (const [name, s] of Object.entries(props)) {
      const type = schemaType(s);
      if (type && !out.has(name)) out.set(name, type);
    }
  }
  return out;
}

/** The roles of a MEMORY_CONTRACT cell: `LLM + Human Reviewer`, `BudgetBot (Auto), Human (Override)`. */
export function rolesOf(cell: string): string[] {
  return cell
    .replace(/[(（][^)）]*[)）]/g, '')
    .split(/[,，、;；+/]|\band\b|和|及/)
    .map((r) => r.replace(/`/g, '').trim())
    .filter((r) => r !== '' && r !== '-' && r !== '—');
}

/** A message of the export as Cedar comment lines (the policy file is in English, as the code it sits in). */
const comment = (id: string, args: Readonly<Record<string, string>> = {}): string[] => format(id, args, 'en').split('\n').map((l) => `// ${l}`);

function lineOf(model: ParsedContract, pointer: string): number {
  return (locate(model, pointer)?.value.start.line ?? 0) + 1;
}

interface Builder {
  readonly model: ParsedContract;
  readonly file: string;
  readonly out: string[];
  readonly humans: HumanClause[];
}

function policy(b: Builder, o: { id: string; pointer?: string; line?: number; what: string; effect: 'permit' | 'forbid'; scope: string; when?: string; unless?: string; human?: string }): void {
  const line = o.line ?? lineOf(b.model, o.pointer ?? '');
  b.out.push('', `// ${o.what}`);
  if (o.human) b.out.push(`// ${o.human}`);
  b.out.push(`@id(${cedarString(o.id)})`, `@clause(${cedarString(`${b.file}:${line}`)})`);
  if (o.human) b.out.push(`@requires_human(${cedarString(o.human)})`);
  b.out.push(`${o.effect} (${o.scope})${o.when ? `\nwhen { ${o.when} }` : ''}${o.unless ? `\nunless { ${o.unless} }` : ''};`);
  if (o.human) b.humans.push({ id: o.id, clause: `${b.file}:${line}`, reason: o.human });
}

/**
 * The tools a condition Cedar cannot decide holds back: every tool whose side effects are not
 * `none` or `read` (undeclared effects count as effects). Reading changes nothing a human signs off.
 */
function effectfulTools(b: Builder, view: ContractView): string[] {
  return [...view.tools.values()].filter((t) => !['none', 'read'].includes(str(obj(arr(b.model.data['tools'])[Number(t.pointer.split('/')[2])])?.['side_effects']) ?? '')).map((t) => t.name);
}

/** A HITL row whose condition Cedar cannot decide: every call of a tool with effects waits for its approval. */
function humanPolicy(b: Builder, row: HitlView, view: ContractView, o: { id: string; what: string; unless: string; human: string }): void {
  const tools = effectfulTools(b, view);
  if (tools.length === 0) {
    const clause = `${b.file}:${lineOf(b.model, row.pointer)}`;
    b.out.push('', `// ${o.what}`, ...comment('export.cedar.no-effects', { scenario: row.scenario, clause }));
    return;
  }
  const when = `[${tools.map((t) => `Tool::${cedarString(t)}`).join(', ')}].contains(resource)`;
  policy(b, { id: o.id, pointer: row.pointer, what: o.what, effect: 'forbid', scope: 'principal, action == Action::"call-tool", resource', when, unless: o.unless, human: o.human });
}

/** One HUMAN_IN_THE_LOOP row at a tool call: a forbid unless approved, when its condition is certainly true. */
function hitlPolicy(b: Builder, row: HitlView, view: ContractView, types: NameTypes): void {
  const id = hitlApproval(row.scenario);
  const unless = `context.approvals.contains(${cedarString(id)})`;
  const what = `HUMAN_IN_THE_LOOP "${row.scenario}": ${row.condition.replace(/\s+/g, ' ')}`;
  const scope = 'principal, action == Action::"call-tool", resource';
  const expr = conditionExpression(row.condition);
  if (!expr) {
    humanPolicy(b, row, view, { id, what, unless, human: format('export.cedar.prose', { scenario: row.scenario }, 'en') });
    return;
  }
  let when: string;
  try {
    when = holds(expr, true, types);
  } catch (e) {
    if (!(e instanceof Untranslatable)) throw e;
    const reason = format(e.reason, e.args, 'en');
    humanPolicy(b, row, view, { id, what, unless, human: format('export.cedar.untranslatable', { scenario: row.scenario, reason }, 'en') });
    return;
  }
  if (when === 'false') {
    const clause = `${b.file}:${lineOf(b.model, row.pointer)}`;
    b.out.push('', `// ${what}`, ...comment('export.cedar.final-only', { scenario: row.scenario, clause }));
    return;
  }
  policy(b, { id, pointer: row.pointer, what, effect: 'forbid', scope, when, unless });
}

function toolPolicies(b: Builder, view: ContractView, agent: string, forbidden: readonly ForbiddenTool[]): void {
  const banned = new Set(forbidden.map((f) => f.name));
  for (const f of forbidden) {
    policy(b, { id: `forbidden:${f.name}`, line: f.line, what: `AGENT_IDENTITY ❌ boundary: never call ${f.name}`, effect: 'forbid', scope: `principal, action == Action::"call-tool", resource == Tool::${cedarString(f.name)}` });
  }
  for (const t of view.tools.values()) {
    if (banned.has(t.name)) continue;
    const resource = `resource == Tool::${cedarString(t.name)}`;
    policy(b, { id: `tool:${t.name}`, pointer: t.pointer, what: format('export.cedar.comment.tool', { tool: t.name }, 'en'), effect: 'permit', scope: `principal == ${agent}, action == Action::"call-tool", ${resource}` });
    if (t.requiresApproval) {
      policy(b, { id: `approval:${t.name}`, pointer: t.approvalPointer ?? t.pointer, what: format('export.cedar.comment.approval', { tool: t.name }, 'en'), effect: 'forbid', scope: `principal, action == Action::"call-tool", ${resource}`, unless: `context.approvals.contains(${cedarString(toolApproval(t.name))})` });
    }
  }
}

function poolPolicies(b: Builder): void {
  arr(b.model.data['memory_contract']).forEach((r, i) => {
    const o = obj(r);
    const layer = str(o?.['layer'])?.trim();
    if (!o || !layer) return;
    for (const [column, action] of [['read_by', 'read-pool'], ['write_by', 'write-pool']] as const) {
      const cell = str(o[column]) ?? '';
      for (const role of rolesOf(cell)) {
        policy(b, { id: `${action}:${layer}:${role}`, pointer: `/memory_contract/${i}/${column}`, what: `MEMORY_CONTRACT ${layer}: ${column.replace('_', ' ')} ${cell}`, effect: 'permit', scope: `principal == Role::${cedarString(role)}, action == Action::${cedarString(action)}, resource == Pool::${cedarString(layer)}` });
      }
    }
  });
}

function recordType(types: ReadonlyMap<string, CedarType>): string {
  const fields = [...types].map(([n, t]) => `${cedarString(n)}?: ${t}`);
  return fields.length === 0 ? '{}' : `{\n  ${fields.join(',\n  ')}\n}`;
}


function schemaText(view: ContractView, file: string, types: NameTypes): string {
  const name = view.version ? `${view.name} ${view.version}` : view.name;
  return [
    ...comment('export.cedar.comment.schema', { name, file }),
    'entity Agent;',
    'entity Tool;',
    'entity Role;',
    'entity Pool;',
    ...comment('export.cedar.comment.file'),
    'entity File = { "values"?: Set<String> };',
    ...comment('export.cedar.comment.args'),
    `type Args = ${recordType(types.args)};`,
    ...comment('export.cedar.comment.names'),
    `type Names = ${recordType(types.names)};`,
    'action "call-tool" appliesTo {',
    '  principal: Agent,',
    '  resource: Tool,',
    '  context: { approvals: Set<String>, args: Args, names: Names }',
    '};',
    'action "read-pool", "write-pool" appliesTo { principal: Role, resource: Pool };',
    '',
  ].join('\n');
}

/** The Cedar policies and schema of a contract. `file`: the contract's name in `@clause` annotations. */
export function cedarExport(model: ParsedContract, o: { readonly file: string; readonly forbidden?: readonly ForbiddenTool[] }): CedarExport {
  const view = contractView(model);
  const agentId = view.name;
  const agent = `Agent::${cedarString(agentId)}`;
  const types: NameTypes = { args: argTypes(view), names: new Map() };
  const b: Builder = { model, file: o.file, out: [], humans: [] };
  toolPolicies(b, view, agent, o.forbidden ?? []);
  for (const row of view.hitl) hitlPolicy(b, row, view, types);
  poolPolicies(b);
  const head = comment('export.cedar.comment.policies', { name: view.version ? `${view.name} ${view.version}` : view.name, file: o.file });
  return { schema: schemaText(view, o.file, types), policies: `${[...head, ...b.out].join('\n')}\n`, humans: b.humans, agent, names: types.names, args: types.args };
}
