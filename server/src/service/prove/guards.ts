/**
 * The `vacuous-guard` obligation (docs/prove.md): a safety guard whose `check` reads a property
 * of the answer that OUTPUT_SCHEMA lets the answer omit (the check is then unknown, and the dry
 * run lets the answer pass), or that no answer the schema allows can fail. The witness is an
 * answer that passes the schema and the guard. Pure.
 */
import { arr, obj } from '../model/data.ts';
import { parseExpression } from '../model/expression.ts';
import { evaluate } from '../run/engine/expression.ts';
import { schemaProblem } from '../run/engine/tools.ts';
import type { ProveContext } from './context.ts';
import type { Expr } from '../model/expression.ts';
import { sampleValue } from './domain.ts';
import { namesRead } from './search.ts';
import { SmtProblem } from './smt.ts';
import type { ProveFinding, ProveSolver } from './types.ts';

const answerScope = (answer: unknown) => ({ output: answer, input: { query: '', entities: {} }, memory: {}, names: [], file: () => undefined });

/**
 * Whether no answer OUTPUT_SCHEMA allows fails the guard: the solver finds no model of "the
 * fields the guard reads, each as the schema allows, and the guard false". Parts not modelled are
 * left unconstrained, so "no model" is a proof; without a solver nothing is claimed.
 */
async function neverFails(solver: ProveSolver | undefined, expr: Expr, schema: Readonly<Record<string, unknown>>, fields: readonly string[], required: ReadonlySet<string>): Promise<boolean> {
  if (!solver) return false;
  const props = obj(schema['properties']) ?? {};
  const p = new SmtProblem();
  const specs = new Map(fields.map((f) => [`output.${f}`, { name: `output.${f}`, schema: props[f], optional: !required.has(f) }]));
  const t = p.truth(expr, (path) => {
    const spec = specs.get(path.text);
    return spec ? p.name(spec) : path.steps.length === 0 ? 'absent' : undefined;
  });
  p.assert(t.no);
  return (await solver.check(p.query())).status === 'unsat';
}

export async function vacuousGuards(c: ProveContext, solver: ProveSolver | undefined): Promise<ProveFinding[]> {
  const schema = c.view.outputSchema;
  const props = obj(schema?.['properties']);
  if (!schema || !props) return [];
  const required = new Set(arr(schema['required']).filter((r): r is string => typeof r === 'string'));
  const base = (sampleValue(schema) ?? {}) as Record<string, unknown>;
  const out: ProveFinding[] = [];
  for (const g of c.view.constraints.filter((x) => x.type === 'safety_guard' && x.check)) {
    const parsed = parseExpression(g.check!);
    if (!parsed.ok) continue;
    const fields = namesRead(parsed.expr).filter((n) => n.startsWith('output.')).map((n) => n.slice('output.'.length));
    const at = { pointer: g.pointer, range: c.range(g.pointer) };
    const optional = fields.find((f) => !required.has(f));
    if (optional !== undefined) {
      const answer = { ...base };
      delete answer[optional];
      if (schemaProblem(schema, answer) === undefined && evaluate(parsed.expr, answerScope(answer)).value !== false) {
        out.push({ obligation: 'vacuous-guard', message: { id: 'prove.vacuous-guard.optional', args: { check: g.check!, property: optional } }, ...at, proved: true, qualified: [], witness: { kind: 'answer', answer } });
        continue;
      }
    }
    if (fields.length > 0 && (await neverFails(solver, parsed.expr, schema, fields, required))) {
      out.push({ obligation: 'vacuous-guard', message: { id: 'prove.vacuous-guard.range', args: { check: g.check! } }, ...at, proved: true, qualified: [], witness: { kind: 'answer', answer: base } });
    }
  }
  return out;
}
