/**
 * Human decisions and conditions in a dry run (docs/dry-run.md, "Human in the loop and failure
 * protocol"): conditions fired by name, backticked conditions evaluated at checkpoints, the
 * pauses for a human, and the FAILURE_PROTOCOL entries left pending until they apply.
 */
import type { HumanDecision } from '../snapshot/snapshot.ts';
import type { HitlView } from '../../model/contractView.ts';
import { conditionOf, failuresNamed, hitlNamed } from './failureProtocol.ts';
import { evaluate, exprPaths, pathValue, type Scope } from './expression.ts';
import type { Expr } from '../../model/expression.ts';
import { canonicalJson } from '../../util/canonicalJson.ts';
import type { OutcomeCode } from '../messages.ts';
import { messageFields } from '../runMessage.ts';
import { Finish, type Binding, type Failure, type HumanRequest } from './runTypes.ts';
import type { RunState } from './runState.ts';

export type Where = 'memory' | 'tool' | 'final';

/**
 * Conditions fired by name (the snapshot's `fire` lists): FAILURE_PROTOCOL entries become
 * pending (they handle a failure of this step, or apply at its end); HITL rows pause now.
 * Returns whether a HITL row was approved (it then covers the approval of this step's calls).
 */
export async function fire(s: RunState, names: readonly string[], where: Where): Promise<boolean> {
  const rows: HitlView[] = [];
  for (const name of names) {
    const fs = failuresNamed(s.view, name);
    const hs = hitlNamed(s.view, name);
    await s.emit('condition', 'protocol', fs.length + hs.length > 0 ? 'success' : 'unknown', { condition: name, state: 'fired', where, failures: fs.map((f) => f.pointer), hitl: hs.map((h) => h.pointer) });
    for (const f of fs) if (!s.pending.includes(f)) s.pending.push(f);
    for (const h of hs) if (!covered(s, h, firedKey(s)) && !rows.includes(h)) rows.push(h);
  }
  return askRows(s, rows.map((row) => ({ row, key: firedKey(s) })));
}

/** A row fired by name binds to the step that fired it: its approval covers that step's calls. */
const firedKey = (s: RunState): string => `step:${s.steps}`;

/** Whether a row's approval already covers `key`: any approval for a `Scope: run` row, else one for the same binding. */
function covered(s: RunState, row: HitlView, key: string): boolean {
  const keys = s.approvals.get(row);
  return keys !== undefined && (row.scope === 'run' || keys.has(key));
}

/**
 * What an approval of `row` at this checkpoint binds to (docs/dry-run.md §3): the values the
 * condition read and, when it reads an argument of the call, the tool and its arguments.
 */
function bindingOf(expr: Expr, scope: Scope, call?: { readonly tool: string; readonly args: Readonly<Record<string, unknown>> }): Binding {
  const paths = exprPaths(expr);
  const values = Object.fromEntries(paths.map((p) => [p.text, pathValue(p, scope) ?? null]));
  const readsCall = call !== undefined && paths.some((p) => Object.prototype.hasOwnProperty.call(call.args, p.root));
  return readsCall ? { tool: call.tool, arguments: call.args, values } : { values };
}

/** Pauses for each HITL row; a rejection or a timeout ends the run. Returns whether any was approved; an approval is kept for its binding. */
async function askRows(s: RunState, rows: readonly { row: HitlView; key: string; binding?: Binding }[], args?: Readonly<Record<string, unknown>>): Promise<boolean> {
  let approved = false;
  for (const { row, key, binding } of rows) {
    const d = await ask(s, { kind: 'hitl', subject: row.scenario, names: [row.scenario, row.condition], reasonId: 'reason.hitl', reasonArgs: { condition: row.condition }, sla: row.sla, onTimeout: row.onTimeout, pointer: row.pointer, scope: row.scope, ...(binding ? { binding } : {}), ...(args ? { arguments: args } : {}) });
    if (d !== 'approve') throw new Finish(humanFailure(d, row.scenario, row.sla, row.onTimeout, row.pointer, row.scenario));
    s.approvals.set(row, (s.approvals.get(row) ?? new Set()).add(key));
    approved = true;
  }
  return approved;
}

/**
 * Evaluates the backticked conditions at a checkpoint (after retrieval, before each tool call
 * with its arguments, on the final answer): HITL rows that are true pause unless an approval
 * already covers this binding (the same call and values, or any for `Scope: run`);
 * FAILURE_PROTOCOL entries that are true become pending. On the final answer, rows never
 * approved that stay false or unknown are shown too (never silently passed). Returns whether a
 * HITL row was approved.
 */
export async function checkpoint(s: RunState, where: Where, scope: Scope, call?: { readonly tool: string; readonly args: Readonly<Record<string, unknown>> }): Promise<boolean> {
  const rows: { row: HitlView; key: string; binding: Binding }[] = [];
  for (const row of s.view.hitl) {
    const expr = conditionOf(row);
    if (!expr || covered(s, row, firedKey(s))) continue;
    const r = evaluate(expr, scope);
    const binding = bindingOf(expr, scope, call);
    const key = canonicalJson(binding);
    if (r.value === true) {
      if (covered(s, row, key)) continue;
      await s.emit('condition', 'protocol', 'success', { condition: row.condition, scenario: row.scenario, state: 'true', where, pointer: row.pointer });
      rows.push({ row, key, binding });
    } else if (where === 'final' && !s.approvals.has(row)) {
      await s.emit('condition', 'protocol', r.value === false ? 'success' : 'unknown', { condition: row.condition, scenario: row.scenario, state: String(r.value), missing: r.missing, where, pointer: row.pointer });
    }
  }
  const approved = await askRows(s, rows, call?.args);
  for (const entry of s.view.failures) {
    const expr = conditionOf(entry);
    if (!expr || s.pending.includes(entry)) continue;
    if (evaluate(expr, scope).value !== true) continue;
    await s.emit('condition', 'protocol', 'success', { condition: entry.condition, state: 'true', where, pointer: entry.pointer });
    s.pending.push(entry);
  }
  return approved;
}

/** Applies the conditions that fired and were not consumed by a failure: each ends the run, unless a human overrides its wait. */
export async function applyPending(s: RunState): Promise<void> {
  while (s.pending.length > 0) {
    const entry = s.pending[s.pending.length - 1]!;
    if (entry.maxWait) {
      const d = await ask(s, { kind: 'override', subject: entry.code ?? entry.condition, names: [entry.code ?? '', entry.condition].filter(Boolean), reasonId: 'reason.override', reasonArgs: { wait: entry.maxWait }, sla: entry.maxWait, onTimeout: 'reject', pointer: entry.pointer });
      if (d === 'approve') {
        s.pending.pop();
        continue;
      }
    }
    throw new Finish({ code: 'CONDITION_FIRED', args: { condition: entry.condition }, pointer: entry.pointer, entry });
  }
}

/** The failure a human's rejection or silence ends the run with. */
export function humanFailure(d: HumanDecision, subject: string, sla: string, onTimeout: 'reject' | 'escalate', pointer: string, scenario?: string): Failure {
  const code: OutcomeCode = d === 'reject' ? 'HUMAN_REJECTED' : onTimeout === 'escalate' ? 'ESCALATED' : 'HUMAN_TIMEOUT';
  // A pause with no SLA (a tool approval) has its own wording of the timeout.
  const variant = !sla && code !== 'HUMAN_REJECTED' ? { variant: 'no-sla' } : {};
  return { code, ...variant, args: sla ? { subject, sla } : { subject }, pointer, ...(scenario ? { scenario } : {}) };
}

/** Pauses for a human decision; a host cancellation ends the wait. */
export async function ask(s: RunState, request: HumanRequest): Promise<HumanDecision> {
  const input = await s.emit('human_input', 'human', 'pending', { kind: request.kind, subject: request.subject, ...messageFields('reason', { id: request.reasonId, args: request.reasonArgs }), sla: request.sla, on_timeout: request.onTimeout, pointer: request.pointer, ...(request.scope ? { scope: request.scope } : {}), ...(request.binding ? { binding: request.binding } : {}), ...(request.tool ? { tool: request.tool } : {}), ...(request.arguments !== undefined ? { arguments: request.arguments } : {}) });
  const asked = s.clock();
  let answer: unknown;
  try {
    answer = await s.raceCancel(s.o.decide(request));
  } catch (e) {
    if (e instanceof Finish) throw e;
    // The host could not ask (the editor answered with an error): the run ends, its trace complete.
    answer = { error: e instanceof Error ? e.message : String(e) };
  }
  s.sim.exclude(s.clock() - asked);
  const valid = decisionOf(answer);
  const by = typeof answer === 'object' && answer !== null && typeof (answer as { by?: unknown }).by === 'string' ? (answer as { by: string }).by : undefined;
  s.humanDecisions++;
  if (valid === undefined) {
    const error = typeof answer === 'object' && answer !== null && 'error' in answer ? String((answer as { error: unknown }).error) : undefined;
    s.path.push('human:invalid');
    await s.emit('human_response', 'human', 'failure', { decision: 'invalid', subject: request.subject, input_ref: input.event_id, ...(error !== undefined ? { error } : { answer: shownAnswer(answer) }) });
    throw new Finish({ code: 'HUMAN_INVALID_ANSWER', ...(error !== undefined ? { variant: 'error', args: { subject: request.subject, detail: error } } : { args: { subject: request.subject, answer: shownAnswer(answer) } }), pointer: request.pointer });
  }
  s.path.push(`human:${valid}`);
  await s.emit('human_response', 'human', valid === 'approve' ? 'success' : valid === 'reject' ? 'failure' : 'timeout', { decision: valid, subject: request.subject, input_ref: input.event_id, ...(by ? { decided_by: by } : {}) });
  return valid;
}

/**
 * The decision an answer gives: `approve`, `reject` or `timeout` in any case and with spaces
 * around, alone or as `{ decision }`; undefined for anything else (`maybe`, `null`, an error), which
 * ends the run as `HUMAN_INVALID_ANSWER` rather than pass for silence (docs/dry-run.md).
 */
export function decisionOf(answer: unknown): HumanDecision | undefined {
  const raw = typeof answer === 'object' && answer !== null ? (answer as { decision?: unknown }).decision : answer;
  const d = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
  return d === 'approve' || d === 'reject' || d === 'timeout' ? d : undefined;
}

/** An invalid answer as quoted in the outcome: JSON, at most 80 characters. */
function shownAnswer(answer: unknown): string {
  const decision = typeof answer === 'object' && answer !== null && 'decision' in answer ? (answer as { decision: unknown }).decision : answer;
  const text = JSON.stringify(decision) ?? String(decision);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
