/**
 * The decision check (docs/enforcement.md, "Proven equal to the dry run"): for every tool call of
 * every dry-run trace, Cedar's decision on the contract's policies equals the contract's own
 * (allowed, needs a human, refused) as the dry run took it. A call the dry run never decided (bad
 * arguments, a loop, an open circuit) is skipped; a call Cedar sends to a human only because a
 * clause has no Cedar form is "stricter", named by that clause, never counted as equal.
 */
import { hitlApproval, resourceValues, toolApproval, type CedarExport, type TraceEvent } from '../service/index.ts';
import { decideCall, type Decision } from './cedarEngine.ts';

/** One tool call of a trace, compared. */
export interface CallVerdict {
  readonly trace: string;
  readonly callId: string;
  readonly tool: string;
  readonly expected: Decision;
  readonly cedar: Decision;
  readonly verdict: 'equal' | 'stricter' | 'mismatch';
  /** The policies (their ids) behind Cedar's denial. */
  readonly reasons: readonly string[];
  /** A call a human approved that Cedar still denies with those approvals. */
  readonly afterApproval?: { readonly decision: Decision; readonly approvals: readonly string[]; readonly reasons: readonly string[] };
}

/** What one trace gives the check: its events, the query's data, and the resource files the run could read. */
export interface TraceInput {
  readonly name: string;
  readonly events: readonly TraceEvent[];
  readonly data: Readonly<Record<string, unknown>>;
  readonly file: (name: string) => string | undefined;
}

/** Codes of calls the dry run stopped before deciding on them (docs/dry-run.md, "Tool calls"). */
const UNDECIDED = new Set(['INVALID_INPUT', 'LOOP_DETECTED', 'CIRCUIT_OPEN']);

/** The events of one call: from its `tool_call` to its `tool_result` (or the end of the run). */
function callWindow(events: readonly TraceEvent[], i: number): TraceEvent[] {
  const id = events[i]!.event_id;
  const out: TraceEvent[] = [];
  for (let j = i + 1; j < events.length; j++) {
    const e = events[j]!;
    out.push(e);
    if ((e.event_type === 'tool_result' && e.payload['call_ref'] === id) || e.event_type === 'task_end' || e.event_type === 'tool_call') break;
  }
  return out;
}

function parseArgs(text: unknown): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(String(text));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The human decisions of a window: what was asked (approval names) and whether every answer approved. */
function humans(window: readonly TraceEvent[]): { asked: string[]; approved: boolean } {
  const asked: string[] = [];
  let approved = true;
  for (const e of window) {
    if (e.event_type === 'human_input') asked.push(e.payload['kind'] === 'tool_approval' ? toolApproval(String(e.payload['subject'])) : hitlApproval(String(e.payload['subject'])));
    if (e.event_type === 'human_response' && e.payload['decision'] !== 'approve') approved = false;
  }
  return { asked, approved };
}

function fileValues(x: CedarExport, input: TraceInput): Map<string, readonly unknown[]> {
  const files = new Map<string, readonly unknown[]>();
  for (const m of x.policies.matchAll(/File::"((?:[^"\\]|\\.)*)"/g)) {
    const name = JSON.parse(`"${m[1]!}"`) as string;
    const text = input.file(name);
    if (text !== undefined && !files.has(name)) files.set(name, resourceValues(name, text));
  }
  return files;
}

/** Compares Cedar's decision with the dry run's on every decided tool call of one trace. */
export function checkTrace(x: CedarExport, input: TraceInput, forbidden: ReadonlySet<string>): CallVerdict[] {
  const { events } = input;
  const entities: Record<string, unknown> = {};
  const granted = new Set<string>();
  const files = fileValues(x, input);
  const humanIds = new Set(x.humans.map((h) => h.id));
  const out: CallVerdict[] = [];
  let stepApproved = false;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.event_type === 'entity_extraction' && typeof e.payload['entity'] === 'string') entities[e.payload['entity']] = e.payload['value'];
    if (e.event_type === 'model_step') stepApproved = false;
    // A HITL row approved outside a call (fired by name, or at retrieval) stays granted; fired in this step, it covers the step's approvals.
    if (e.event_type === 'human_input' && e.payload['kind'] === 'hitl') {
      const answer = events.slice(i + 1).find((r) => r.event_type === 'human_response' && r.payload['input_ref'] === e.event_id);
      if (answer?.payload['decision'] === 'approve') {
        granted.add(hitlApproval(String(e.payload['subject'])));
        stepApproved = events.slice(0, i).some((p) => p.event_type === 'model_step');
      }
    }
    if (e.event_type !== 'tool_call') continue;
    const window = callWindow(events, i);
    const result = window.find((w) => w.event_type === 'tool_result' && w.payload['call_ref'] === e.event_id);
    const code = String(result?.payload['code'] ?? '');
    const args = parseArgs(e.payload['arguments']);
    const tool = String(e.payload['tool']);
    // Order, count and "only after success" boundaries depend on the run's history, which Cedar's
    // per-call policies do not see (docs/enforcement.md): only an outright prohibition is compared.
    if (UNDECIDED.has(code) || (code === 'BOUNDARY_VIOLATED' && !forbidden.has(tool)) || !args) {
      i += window.length - 1;
      continue;
    }
    const asked = humans(window);
    const expected: Decision = forbidden.has(tool) || code === 'UNKNOWN_TOOL' ? 'refused' : asked.asked.length > 0 ? 'human' : 'allowed';
    const approvals = new Set([...granted, ...(stepApproved ? [toolApproval(tool)] : [])]);
    const call = { tool, args, names: { ...entities, ...input.data }, approvals, files };
    const got = decideCall(x, call);
    let verdict: CallVerdict['verdict'] = got.decision === expected ? 'equal' : 'mismatch';
    if (verdict === 'mismatch' && expected === 'allowed' && got.decision === 'human' && got.reasons.every((r) => humanIds.has(r))) verdict = 'stricter';
    let afterApproval: CallVerdict['afterApproval'];
    // Approved by the human: with those approvals Cedar must allow the call too.
    if (verdict === 'equal' && expected === 'human' && asked.approved && result?.payload['code'] === undefined) {
      const after = decideCall(x, { ...call, approvals: new Set([...approvals, ...asked.asked, toolApproval(tool)]) });
      if (after.decision !== 'allowed') {
        verdict = 'mismatch';
        afterApproval = { decision: after.decision, approvals: asked.asked, reasons: after.reasons };
      }
    }
    out.push({ trace: input.name, callId: String(e.payload['call_id']), tool, expected, cedar: got.decision, verdict, reasons: got.reasons, ...(afterApproval ? { afterApproval } : {}) });
    for (const a of asked.approved ? asked.asked : []) if (a.startsWith('hitl:')) granted.add(a);
    i += window.length - 1;
  }
  return out;
}
