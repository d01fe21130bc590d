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
import { constantsByName, domainOf, sampleValue } from './domain.ts';
import { namesRead, search, unmodelled } from './search.ts';
import type { ProveFinding, ProveMessage } from './types.ts';

const answerScope = (answer: unknown) => ({ output: answer, input: { query: '', entities: {} }, memory: {}, names: [], file: () => undefined });

export function vacuousGuards(c: ProveContext): ProveFinding[] {
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
    // A guard that no allowed answer fails: searched over the fields it reads, proved only.
    const constants = constantsByName([parsed.expr]);
    const domains = fields.map((f) => domainOf(f, props[f], constants.get(`output.${f}`) ?? [], false));
    const reasons: ProveMessage[] = [...unmodelled(parsed.expr).map((what) => ({ id: 'prove.reason.expression', args: { what, condition: g.check! } })), ...domains.flatMap((d) => d.unmodelled.map((keyword) => ({ id: 'prove.reason.schema', args: { keyword, name: d.name } })))];
    if (fields.length === 0 || reasons.length > 0) continue;
    const fails = search(domains, base, (answer) => schemaProblem(schema, answer) === undefined && evaluate(parsed.expr, answerScope(answer)).value === false);
    if (fails.found.length > 0 || !fails.exhaustive) continue;
    out.push({ obligation: 'vacuous-guard', message: { id: 'prove.vacuous-guard.range', args: { check: g.check! } }, ...at, proved: true, qualified: [], witness: { kind: 'answer', answer: base } });
  }
  return out;
}
