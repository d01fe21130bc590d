/**
 * Eval assertions beyond outcome and codes (docs/dry-run.md, "Assertions"): on the answer (equal,
 * containing a text, matching a JSON Schema, or making a check expression true), on the tool
 * trajectory (exact, in order, in any order: the three ways Google ADK's eval matches one), on
 * the calls made with their arguments, and on the contract clauses the run acted on. Pure.
 */
import type { Expectation } from '../snapshot/snapshot.ts';
import type { TraceEvent } from '../trace/trace.ts';
import { equal, evaluate, showValue } from '../engine/expression.ts';
import { parseExpression } from '../../model/expression.ts';
import { schemaProblem } from '../engine/tools.ts';
import { refText } from '../runMessage.ts';

/** A failed assertion: what was expected and what the run did, as short texts. */
export interface Failed {
  readonly field: 'answer' | 'trajectory' | 'call' | 'clause';
  readonly expected: string;
  readonly actual: string;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined'));
const short = (s: string, max = 120): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

function answerFailures(a: NonNullable<Expectation['answer']>, answer: unknown): Failed[] {
  const out: Failed[] = [];
  const got = answer === undefined ? '—' : short(text(answer));
  if ('equals' in a && !equal(answer, a.equals)) out.push({ field: 'answer', expected: `= ${short(text(a.equals))}`, actual: got });
  if (a.contains !== undefined && !(answer !== undefined && text(answer).includes(a.contains))) out.push({ field: 'answer', expected: `containing "${a.contains}"`, actual: got });
  if (a.schema) {
    const p = answer === undefined ? undefined : schemaProblem(a.schema, answer);
    if (answer === undefined || p) out.push({ field: 'answer', expected: 'schema', actual: p ? `${got} (${refText(p.expected)})` : got });
  }
  if (a.check !== undefined) {
    const parsed = parseExpression(a.check);
    const r = parsed.ok ? evaluate(parsed.expr, { output: answer, input: { query: '', entities: {} }, memory: {}, names: [], file: () => undefined }) : undefined;
    if (r?.value !== true) out.push({ field: 'answer', expected: `check ${a.check}`, actual: parsed.ok ? showValue(r?.value === 'unknown' ? undefined : r?.value) : refText(parsed.error) });
  }
  return out;
}

/** True when `expected` appears in `actual` in order (other tools may come between). */
function inOrder(expected: readonly string[], actual: readonly string[]): boolean {
  let i = 0;
  for (const t of actual) if (t === expected[i]) i++;
  return i === expected.length;
}

/** True when every expected tool ran, as often as listed, in any order. */
function anyOrder(expected: readonly string[], actual: readonly string[]): boolean {
  const left = [...actual];
  return expected.every((t) => {
    const i = left.indexOf(t);
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  });
}

/** True when `args` has every key of `want` with an equal value. */
function includes(args: unknown, want: Readonly<Record<string, unknown>>): boolean {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return false;
  return Object.entries(want).every(([k, v]) => Object.prototype.hasOwnProperty.call(args, k) && equal((args as Record<string, unknown>)[k], v));
}

const parseArgs = (raw: unknown): unknown => {
  try {
    return typeof raw === 'string' ? JSON.parse(raw) : raw;
  } catch {
    return undefined;
  }
};

/** The clauses a run acted on: conditions that fired or were true, pauses, FAILURE_PROTOCOL entries applied, the outcome's clause. */
export function clausesActedOn(events: readonly TraceEvent[]): Set<string> {
  const out = new Set<string>();
  for (const e of events) {
    const p = e.payload as Record<string, unknown>;
    if (e.event_type === 'condition' && p['state'] !== 'true' && p['state'] !== 'fired') continue;
    if (!['condition', 'human_input', 'protocol', 'task_end'].includes(e.event_type)) continue;
    for (const k of ['pointer', 'protocol_pointer']) if (typeof p[k] === 'string') out.add(p[k] as string);
    for (const k of ['failures', 'hitl']) if (Array.isArray(p[k])) for (const x of p[k] as unknown[]) out.add(String(x));
  }
  return out;
}

/** The assertions of `expect` that the run did not meet. */
export function failedAssertions(expect: Expectation, run: { readonly answer?: unknown; readonly tools: readonly string[]; readonly events: readonly TraceEvent[] }): Failed[] {
  const out: Failed[] = [];
  if (expect.answer) out.push(...answerFailures(expect.answer, run.answer));
  const tr = expect.trajectory;
  if (tr) {
    const ok = tr.order === 'in_order' ? inOrder(tr.tools, run.tools) : tr.order === 'any_order' ? anyOrder(tr.tools, run.tools) : tr.tools.join('\u0000') === run.tools.join('\u0000');
    if (!ok) out.push({ field: 'trajectory', expected: `${tr.order} [${tr.tools.join(', ')}]`, actual: `[${run.tools.join(', ')}]` });
  }
  const calls = run.events.filter((e) => e.event_type === 'tool_call').map((e) => ({ tool: String(e.payload['tool']), args: parseArgs(e.payload['arguments']) }));
  for (const c of expect.calls ?? []) {
    if (calls.some((x) => x.tool === c.tool && (!c.arguments || includes(x.args, c.arguments)))) continue;
    const made = calls.filter((x) => x.tool === c.tool).map((x) => short(text(x.args), 60));
    out.push({ field: 'call', expected: `${c.tool}${c.arguments ? ` ${short(text(c.arguments), 60)}` : ''}`, actual: made.length > 0 ? made.join('; ') : 'not called' });
  }
  const acted = clausesActedOn(run.events);
  for (const c of expect.clauses ?? []) {
    if (acted.has(c)) continue;
    out.push({ field: 'clause', expected: c, actual: acted.size > 0 ? [...acted].join(', ') : '—' });
  }
  return out;
}
