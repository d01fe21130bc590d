/**
 * One tool call in a dry run (docs/dry-run.md, "Tool calls"): the arguments parsed and checked
 * against `input_schema`, repeated calls counted, the circuit breaker, approval, the mock, its
 * delay against the tool's timeout, the result checked against `output_schema` and truncated.
 * A failed call is fed back to the model; the same failure too often ends the run.
 */
import type { ToolCall } from '../llm/llmProvider.ts';
import type { ToolView } from '../../model/contractView.ts';
import type { MockAnswer, ToolMock } from '../snapshot/snapshot.ts';
import { findMock, SCHEMA_UNUSABLE, schemaProblem, schemaUsable, truncate } from './tools.ts';
import type { OutcomeCode } from '../messages.ts';
import { messageFields, refText, runMessage, withArgMessages, type MessageRef } from '../runMessage.ts';
import type { EventStatus } from '../trace/trace.ts';
import { canonicalJson } from '../../util/canonicalJson.ts';
import { Finish, LOOP_REPEATS, MAX_CONSECUTIVE_FAILURES, type Failure } from './runTypes.ts';
import type { RunState } from './runState.ts';
import { ask, checkpoint, humanFailure } from './humanStage.ts';
import { checkBudgets } from './budgetStage.ts';
import { brokenBoundary, recordExecuted } from './boundaryStage.ts';

/** The checks of a tool call's arguments and result, as the trace names them. */
const INPUT_SCHEMA: MessageRef = { id: 'check.input-schema', args: {} };
const OUTPUT_SCHEMA: MessageRef = { id: 'check.output-schema', args: {} };

const short = (v: unknown, max = 160): string => {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

/** Records a failed call and ends the run when the same tool fails the same way too often. */
async function callFailed(s: RunState, call: ToolCall, tool: string, code: OutcomeCode, feedback: MessageRef, extra: Record<string, unknown>, status: EventStatus, callRef: string, outcome: Pick<Failure, 'args' | 'argMessages'>, pointer?: string): Promise<void> {
  // The model reads the feedback in English; the trace keeps its id for readers in other languages.
  await s.emit('tool_result', 'executor', status, { call_id: call.id, call_ref: callRef, tool, code, ...messageFields('detail', feedback), ...extra });
  s.messages.push({ role: 'tool', toolCallId: call.id, content: refText(feedback) });
  s.streak = s.streak && s.streak.tool === tool && s.streak.code === code ? { ...s.streak, count: s.streak.count + 1 } : { tool, code, count: 1 };
  // With a circuit breaker, errors and timeouts are the breaker's business: the planner decides.
  const breakerHandles = (code === 'TOOL_ERROR' || code === 'TOOL_TIMEOUT') && s.view.budgets.breaker !== undefined;
  if (s.streak.count >= MAX_CONSECUTIVE_FAILURES && !breakerHandles) throw new Finish({ code, args: { ...outcome.args, tool, count: s.streak.count }, ...(outcome.argMessages ? { argMessages: outcome.argMessages } : {}), ...(pointer ? { pointer } : {}) });
}

function breakerFailure(s: RunState, tool: ToolView): void {
  const cfg = s.view.budgets.breaker;
  if (!cfg) return;
  const b = s.breaker.get(tool.name) ?? { failures: 0, openUntil: 0 };
  b.failures++;
  if (b.failures >= cfg.failures) b.openUntil = s.sim.elapsed + cfg.cooldownMs;
  s.breaker.set(tool.name, b);
}

/** The answer a mock gives to this call: its own, or the next of its sequence (the last repeats). */
function nextAnswer(s: RunState, mock: ToolMock): MockAnswer {
  if (!mock.sequence) return mock;
  const n = s.mockCalls.get(mock) ?? 0;
  s.mockCalls.set(mock, n + 1);
  return mock.sequence[Math.min(n, mock.sequence.length - 1)]!;
}

/** One tool call: validated, approved, mocked, checked. `approved`: a HITL row fired by this step was approved. */
export async function toolCall(s: RunState, call: ToolCall, approved: boolean): Promise<void> {
  const callEvent = await s.emit('tool_call', 'planner', 'success', { call_id: call.id, tool: call.name, arguments: call.rawArguments });
  const ref = callEvent.event_id;
  const tool = s.view.tools.get(call.name);
  if (!tool) {
    const feedback = { id: 'feedback.unknown-tool', args: { tool: call.name, tools: [...s.view.tools.keys()].join(', ') || '—' } };
    return callFailed(s, call, call.name, 'UNKNOWN_TOOL', feedback, {}, 'invalid', ref, { args: {} }, '/tools');
  }
  let args: unknown;
  try {
    args = JSON.parse(call.rawArguments);
  } catch (e) {
    const detail = String((e as Error).message).split('\n')[0]!;
    await s.emit('validation', 'validator', 'invalid', { subject: tool.name, ...messageFields('check', INPUT_SCHEMA), detail, pointer: `${tool.pointer}/input_schema` });
    return callFailed(s, call, tool.name, 'INVALID_INPUT', { id: 'feedback.invalid-json', args: { tool: tool.name, detail } }, {}, 'invalid', ref, withArgMessages({}, { detail: { id: 'detail.not-json', args: { detail } } }), `${tool.pointer}/input_schema`);
  }
  const problem = schemaProblem(tool.inputSchema, args);
  const inputDetail: MessageRef | undefined = problem ? { id: 'detail.schema', args: { expected: problem.expected, got: problem.got } } : undefined;
  // A schema that does not compile checks nothing: the trace says so rather than "passed".
  const inputUnchecked = !schemaUsable(tool.inputSchema);
  await s.emit('validation', 'validator', problem ? 'invalid' : inputUnchecked ? 'skipped' : 'success', { subject: tool.name, ...messageFields('check', INPUT_SCHEMA), ...(problem && inputDetail ? { ...messageFields('detail', inputDetail), expected: refText(problem.expected), got: problem.got } : inputUnchecked ? messageFields('detail', SCHEMA_UNUSABLE) : {}), pointer: `${tool.pointer}/input_schema` });
  if (problem && inputDetail) {
    return callFailed(s, call, tool.name, 'INVALID_INPUT', { id: 'feedback.invalid-input', args: { tool: tool.name, expected: problem.expected, got: problem.got } }, {}, 'invalid', ref, withArgMessages({}, { detail: inputDetail }), `${tool.pointer}/input_schema`);
  }
  const broken = brokenBoundary(s, tool.name);
  if (broken) {
    // Refused before any human is asked or the mock answers: the run ends at the boundary.
    const { boundary, detail } = broken;
    await s.emit('tool_result', 'executor', 'failure', { call_id: call.id, call_ref: ref, tool: tool.name, code: 'BOUNDARY_VIOLATED', ...messageFields('detail', detail), boundary: boundary.text, pointer: boundary.pointer });
    throw new Finish({ code: 'BOUNDARY_VIOLATED', ...withArgMessages({ tool: tool.name, boundary: boundary.text.replace(/^\s*❌\s*/u, '') }, { detail }), pointer: boundary.pointer });
  }
  const key = `${tool.name}\u0000${canonicalJson(args)}`;
  const seen = s.callCounts.get(key) ?? { count: 0 };
  seen.count++;
  s.callCounts.set(key, seen);
  if (seen.count >= LOOP_REPEATS) {
    // The call is not executed: the timeline says so under the call, not only in the outcome.
    await s.emit('tool_result', 'executor', 'failure', { call_id: call.id, call_ref: ref, tool: tool.name, code: 'LOOP_DETECTED', ...messageFields('detail', { id: 'detail.loop', args: { count: seen.count } }) });
    throw new Finish({ code: 'LOOP_DETECTED', args: { tool: tool.name, count: seen.count }, pointer: tool.pointer });
  }
  const breaker = s.breaker.get(tool.name);
  if (breaker && breaker.openUntil > s.sim.elapsed) {
    const feedback = { id: 'feedback.circuit-open', args: { tool: tool.name, failures: breaker.failures, cooldown: Math.round(breaker.openUntil - s.sim.elapsed) } };
    return callFailed(s, call, tool.name, 'CIRCUIT_OPEN', feedback, {}, 'failure', ref, { args: {} }, s.view.budgets.breaker?.pointer);
  }
  const argObj = args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  s.redactor.learn(argObj);
  const approvedByRow = (await checkpoint(s, 'tool', { ...s.scope(argObj) }, { tool: tool.name, args: argObj })) || approved;
  if (tool.requiresApproval && !approvedByRow) {
    const d = await ask(s, { kind: 'tool_approval', subject: tool.name, names: [tool.name], reasonId: 'reason.tool-approval', reasonArgs: {}, sla: '', onTimeout: 'reject', tool: tool.name, arguments: args, pointer: tool.approvalPointer ?? tool.pointer });
    if (d !== 'approve') throw new Finish(humanFailure(d, tool.name, '', 'reject', tool.approvalPointer ?? tool.pointer));
  }
  const found = findMock(s.o.query.tools[tool.name], args);
  if (!found) throw new Finish({ code: 'TOOL_NOT_MOCKED', args: { tool: tool.name, arguments: short(args) }, pointer: tool.pointer });
  const mock = nextAnswer(s, found);
  recordExecuted(s, tool.name);
  // A real wait (--real-delays) stops at the time budget: the tool's answer never came.
  if (await s.sim.pass(Math.min(mock.delayMs, tool.timeoutMs), s.o.signal)) checkBudgets(s);
  if (mock.delayMs > tool.timeoutMs) {
    breakerFailure(s, tool);
    const feedback = { id: 'feedback.tool-timeout', args: { tool: tool.name, limit: tool.timeoutMs } };
    return callFailed(s, call, tool.name, 'TOOL_TIMEOUT', feedback, { ms: mock.delayMs, limit: tool.timeoutMs }, 'timeout', ref, { args: { limit: tool.timeoutMs } }, tool.timeoutPointer ?? tool.pointer);
  }
  if (mock.error !== undefined) {
    breakerFailure(s, tool);
    return callFailed(s, call, tool.name, 'TOOL_ERROR', { id: 'feedback.tool-error', args: { tool: tool.name, detail: mock.error } }, {}, 'failure', ref, { args: { detail: mock.error } }, tool.pointer);
  }
  const output = 'output' in mock ? mock.output : null;
  s.redactor.learn(output);
  const outProblem = schemaProblem(tool.outputSchema, output);
  const outputDetail: MessageRef | undefined = outProblem ? { id: 'detail.schema', args: { expected: outProblem.expected, got: outProblem.got } } : undefined;
  const outputUnchecked = !schemaUsable(tool.outputSchema);
  await s.emit('validation', 'validator', outputDetail ? 'invalid' : outputUnchecked ? 'skipped' : 'success', { subject: tool.name, ...messageFields('check', OUTPUT_SCHEMA), ...(outputDetail ? messageFields('detail', outputDetail) : outputUnchecked ? messageFields('detail', SCHEMA_UNUSABLE) : {}), pointer: `${tool.pointer}/output_schema` });
  if (outputDetail) {
    breakerFailure(s, tool);
    const outcome = withArgMessages({}, { detail: outputDetail });
    return callFailed(s, call, tool.name, 'TOOL_OUTPUT_INVALID', { id: 'feedback.output-invalid', args: { tool: tool.name, detail: outcome.args['detail']! } }, { output }, 'invalid', ref, outcome, `${tool.pointer}/output_schema`);
  }
  s.breaker.delete(tool.name);
  s.streak = undefined;
  const full = JSON.stringify(output) ?? 'null';
  const cut = truncate(full, s.view.budgets.maxResultChars);
  const identical = seen.result === full;
  seen.result = full;
  let content = cut.text;
  if (cut.truncated) content += `\n${runMessage('feedback.truncated', { shown: cut.text.length, total: cut.total })}`;
  if (identical) content += `\n${runMessage('feedback.identical', { tool: tool.name })}`;
  s.messages.push({ role: 'tool', toolCallId: call.id, content });
  s.toolsRun.push(tool.name);
  s.path.push(`tool:${tool.name}`);
  await s.emit('tool_result', 'executor', 'success', { call_id: call.id, call_ref: ref, tool: tool.name, result: cut.truncated ? cut.text : output, truncated: cut.truncated, chars: cut.total, identical, timing: { simulated_ms: mock.delayMs } });
}
