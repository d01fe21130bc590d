/**
 * The clauses of a contract that production traces can exercise or violate (docs/conformance.md,
 * "Clauses"): each declared tool, its input schema and its approval, the ❌ boundaries that forbid
 * a tool, TOOLS as a whole (no undeclared tool), the step and token budgets, each
 * FAILURE_PROTOCOL entry and the protocol as a whole (no unknown code), OUTPUT_SCHEMA, each pool
 * and MEMORY_POOLS as a whole, each HUMAN_IN_THE_LOOP scenario. Pure; read from the typed view.
 */
import { contractView, type ContractView } from '../model/contractView.ts';
import { locate } from '../model/locate.ts';
import { normaliseName } from '../model/names.ts';
import { arr, obj } from '../model/data.ts';
import type { ParsedContract } from '../model/types.ts';
import type { Range } from '../types.ts';
import { forbidsTool } from '../validate/rules/agent-identity.ts';
import { boundaryForms, boundaryTools, type Boundary } from '../model/boundaries.ts';
import type { Clause, ClauseKind } from './types.ts';

/** The clauses and the lookups grading needs. */
export interface ContractClauses {
  readonly view: ContractView;
  readonly clauses: readonly Clause[];
  /** Tool name → pointer of the ❌ boundary that forbids it. */
  readonly forbidden: ReadonlyMap<string, string>;
  /** Declared error code → pointer of its FAILURE_PROTOCOL entry. */
  readonly codes: ReadonlyMap<string, string>;
  /** HUMAN_IN_THE_LOOP scenario → the declared tools its row names (its sign-off gates their calls). */
  readonly gates: ReadonlyMap<string, readonly string[]>;
  /** The ❌ boundaries on the order or count of calls (model/boundaries.ts), graded per run. */
  readonly sequences: readonly Boundary[];
  /** The tools those boundaries name: their calls are kept per run until it is graded. */
  readonly sequenced: ReadonlySet<string>;
}

const ZERO: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
const TOKEN = /`([A-Za-z_][\w.-]*)`/g;

/** From the field's key (`- **Input Schema**:`) to the end of its value: a lens above the key, not inside a code block. */
function clauseRange(model: ParsedContract, pointer: string): Range {
  const span = locate(model, pointer);
  if (!span) return ZERO;
  return span.key ? { start: span.key.start, end: span.value.end } : span.value;
}

/** The gradable clauses of a contract, in the contract's order of sections. */
export function contractClauses(model: ParsedContract): ContractClauses {
  const view = contractView(model);
  const clauses: Clause[] = [];
  const add = (kind: ClauseKind, pointer: string | undefined, name = '') => {
    if (pointer === undefined) return;
    clauses.push({ pointer, kind, name, range: clauseRange(model, pointer) });
  };
  const forbidden = new Map<string, string>();
  const identity = obj((model.data as Record<string, unknown>)['identity']);
  arr(identity?.['hard_boundaries']).forEach((b, i) => {
    const text = String(b);
    if (!text.includes('❌')) return;
    for (const m of text.matchAll(TOKEN)) {
      const name = normaliseName(m[1]);
      if (!name || forbidden.has(name) || !forbidsTool(text, m[1]!)) continue;
      forbidden.set(name, `/identity/hard_boundaries/${i}`);
      add('boundary', `/identity/hard_boundaries/${i}`, name);
    }
  });
  const sequences = boundaryForms(model).filter((b) => b.kind !== 'forbid');
  for (const b of sequences) add('sequence', b.pointer, normaliseName(b.tool));
  if (view.tools.size > 0 || forbidden.size > 0) add('tools', '/tools');
  for (const tool of view.tools.values()) {
    add('tool', tool.pointer, tool.name);
    if (tool.inputSchema) add('arguments', `${tool.pointer}/input_schema`, tool.name);
    if (tool.requiresApproval) add('approval', tool.approvalPointer ?? tool.pointer, tool.name);
  }
  if (view.pools.size > 0) add('pools', '/memory_pools');
  for (const [name, pool] of view.pools) add('pool', pool.pointer, name);
  add('steps', view.budgets.maxStepsPointer, String(view.budgets.maxSteps));
  if (view.budgets.tokenBudget !== undefined) add('tokens', view.budgets.tokenPointer, String(view.budgets.tokenBudget));
  const codes = new Map<string, string>();
  if (view.failures.length > 0) add('error-codes', '/failure_protocol');
  for (const f of view.failures) {
    if (f.code && !codes.has(f.code)) codes.set(f.code, f.pointer);
    add('failure', f.pointer, f.code ?? (f.condition.length > 60 ? `${f.condition.slice(0, 60)}…` : f.condition));
  }
  if (view.outputSchema) add('output', '/output_schema');
  const gates = new Map<string, string[]>();
  for (const h of view.hitl) {
    add('hitl', h.pointer, h.scenario);
    const row = `${h.condition} ${h.requiredAction}`;
    gates.set(h.scenario, [...view.tools.keys()].filter((t) => new RegExp(`(?<![\\w])${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`).test(row)));
  }
  const sequenced = new Set(sequences.flatMap((b) => boundaryTools(b).map((t) => normaliseName(t))));
  return { view, clauses, forbidden, codes, gates, sequences, sequenced };
}
