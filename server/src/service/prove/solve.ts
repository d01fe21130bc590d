/**
 * The questions the gate obligations ask about one tool call (docs/prove.md, "The solver"): is
 * there an input the tool's schema allows for which no gate fires (`none`), or all of these gates
 * fire (`all`)? Asked of the SMT solver when there is one: "no model" proves that no such input
 * exists; a model is a witness once the dry run's own evaluator and schema check accept it (the
 * gates' boundary values preferred). Without a solver, or when it gives no answer, the candidate
 * search of search.ts answers, and its result is never "proved".
 */
import type { ToolView } from '../model/contractView.ts';
import { arr, obj } from '../model/data.ts';
import { evaluate } from '../run/engine/expression.ts';
import { schemaProblem } from '../run/engine/tools.ts';
import { boundaryScore, callDomains, callScope, qualifications, splitInput, type Gate, type ProveContext } from './context.ts';
import { sampleValue } from './domain.ts';
import { namesRead, search } from './search.ts';
import { SmtProblem, type NameSpec, type Truth } from './smt.ts';
import type { ProveMessage, ProveSolver } from './types.ts';

export type Want = 'none' | 'all';

/** Most boundaries tried for a witness (one solver check each). */
const MAX_BOUNDARIES = 6;

export interface CallAnswer {
  /** The witness input (the call's arguments and the request's data), boundary values first. */
  readonly best?: { readonly input: Record<string, unknown>; readonly data: Record<string, unknown> };
  /** Whether any input was found. */
  readonly any: boolean;
  /** Empty: the solver covered every input the schema allows (proved). */
  readonly qualified: readonly ProveMessage[];
  /** The solver found no model: no input exists, proved even where parts were not modelled (they were left unconstrained). */
  readonly none?: true;
}

const fires = (g: Gate, input: Readonly<Record<string, unknown>>, data: Readonly<Record<string, unknown>>): boolean => g.expr !== undefined && evaluate(g.expr, callScope(input, data)).value === true;

/** The gates that can fire at a call: those with a condition that does not read the answer. */
const callGates = (gates: readonly Gate[]) => gates.filter((g) => g.expr && !namesRead(g.expr).some((n) => n.startsWith('output.')));

function accepts(tool: ToolView, gates: readonly Gate[], want: Want, input: Record<string, unknown>, data: Record<string, unknown>): boolean {
  if (schemaProblem(tool.inputSchema, input) !== undefined) return false;
  return want === 'none' ? !gates.some((g) => fires(g, input, data)) : gates.every((g) => fires(g, input, data));
}

/** The candidate search (no solver, or no answer from it): never proved. */
function searched(c: ProveContext, tool: ToolView, gates: readonly Gate[], want: Want, why: readonly ProveMessage[]): CallAnswer {
  const { args, free, base } = callDomains(c, tool, gates.flatMap((g) => (g.expr ? [g.expr] : [])));
  const r = search([...args, ...free], base, (all) => {
    const { input, data } = splitInput(all, free);
    return accepts(tool, gates, want, input, data);
  }, want === 'none' ? 200 : 50);
  const best = [...r.found].sort((a, b) => boundaryScore(c, b) - boundaryScore(c, a))[0];
  return { ...(best ? { best: splitInput(best, free) } : {}), any: r.found.length > 0, qualified: [...why, ...qualifications(gates, [...args, ...free], r.exhaustive || r.found.length > 0, r.tried)] };
}

/** The problem for a call of `tool`: its arguments by schema, the other names free (the request's data); each gate's truth and what it could not model. */
function callProblem(tool: ToolView, gates: readonly Gate[]) {
  const p = new SmtProblem();
  const props = obj(tool.inputSchema?.['properties']) ?? {};
  const required = new Set(arr(tool.inputSchema?.['required']).filter((r): r is string => typeof r === 'string'));
  const spec = (name: string): NameSpec => (name in props ? { name, schema: props[name], optional: !required.has(name) } : { name, optional: true });
  const reasons: ProveMessage[] = [];
  const truths: Truth[] = [];
  for (const g of gates) {
    const before = new Set(p.unmodelledExpr);
    truths.push(p.truth(g.expr!, (path) => (path.root === 'output' ? 'absent' : path.steps.length === 0 ? p.name(spec(path.root)) : undefined)));
    for (const what of p.unmodelledExpr) if (!before.has(what)) reasons.push({ id: 'prove.reason.expression', args: { what, condition: g.row.condition } });
  }
  const freeNames = new Set([...new Set(gates.flatMap((g) => namesRead(g.expr!)))].filter((n) => !(n in props)));
  return { p, truths, reasons, freeNames };
}

/** Inputs of `tool` for which no gate fires (`none`) or every gate fires (`all`). */
export async function callInputs(c: ProveContext, solver: ProveSolver | undefined, tool: ToolView, allGates: readonly Gate[], want: Want): Promise<CallAnswer> {
  const gates = callGates(allGates);
  const prose: ProveMessage[] = allGates.filter((g) => !g.expr).map((g) => ({ id: 'prove.reason.prose', args: { scenario: g.row.scenario } }));
  if (!solver) return searched(c, tool, gates, want, [{ id: 'prove.reason.nosolver', args: {} }, ...prose]);
  if (want === 'all' && gates.length < allGates.length) return { any: false, qualified: prose };
  const { p, truths, reasons, freeNames } = callProblem(tool, gates);
  p.assert(want === 'none' ? `(and true ${truths.map((t) => `(not ${t.yes})`).join(' ')})` : `(and true ${truths.map((t) => t.yes).join(' ')})`);
  const qualified = [...prose, ...reasons, ...p.unmodelledSchema.map(({ keyword, name }) => ({ id: 'prove.reason.schema', args: { keyword, name } }))];
  const first = await solver.check(p.query());
  if (first.status === 'unsat') return { any: false, qualified, none: true };
  if (first.status === 'unknown') return searched(c, tool, gates, want, [{ id: 'prove.reason.solver', args: { reason: first.reason } }, ...prose]);
  // Boundary values first: each comparison with a constant made an equality, while a model remains.
  let values = first.values;
  const prefs: string[] = [];
  for (const term of [...new Set(p.boundaries)].slice(0, MAX_BOUNDARIES)) {
    const r = await solver.check(p.query([...prefs, term]));
    if (r.status === 'sat') (prefs.push(term), (values = r.values));
  }
  const base = (sampleValue(tool.inputSchema ?? { type: 'object' }) ?? {}) as Record<string, unknown>;
  for (const v of values === first.values ? [values] : [values, first.values]) {
    const all = p.decode(v, (schema) => sampleValue(schema));
    // The witness keeps the schema's order of properties: the names read take their model values in place.
    const input: Record<string, unknown> = { ...base };
    const data: Record<string, unknown> = {};
    for (const name of p.names()) if (!(name in all)) delete input[name];
    for (const [k, x] of Object.entries(all)) (freeNames.has(k) ? data : input)[k] = x;
    if (accepts(tool, gates, want, input, data)) return { best: { input, data }, any: true, qualified };
  }
  // The model is not an input the dry run accepts (a part not modelled decided it): search instead.
  return searched(c, tool, gates, want, [{ id: 'prove.reason.unconfirmed', args: {} }, ...prose]);
}
