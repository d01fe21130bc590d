/**
 * What a span says, read by the attributes and events documented in docs/conformance.md
 * ("Attributes read"): the GenAI semantic conventions (`gen_ai.operation.name`,
 * `gen_ai.tool.*`, `gen_ai.usage.*`, `gen_ai.output.messages`, `gen_ai.memory.*`) and the
 * `agents_md.*` attributes and events our dry run exports and a runtime can set.
 */
import { normaliseName } from '../model/names.ts';
import type { ObservedSpan, ObservedValue } from './types.ts';

export type Operation = 'invoke_agent' | 'chat' | 'execute_tool' | 'search_memory' | 'other';

const OPERATIONS = new Set(['invoke_agent', 'chat', 'execute_tool', 'search_memory']);

/** The GenAI operation of a span: its `gen_ai.operation.name`, else the first word of its name. */
export function operationOf(span: ObservedSpan): Operation {
  const op = span.attributes['gen_ai.operation.name'];
  const name = typeof op === 'string' ? op : span.name.split(' ')[0]!;
  if (name === 'text_completion' || name === 'generate_content') return 'chat';
  return OPERATIONS.has(name) ? (name as Operation) : 'other';
}

/** The agent an `invoke_agent` span names (`gen_ai.agent.name`, lower-cased: matched case aside); undefined on other spans. */
export function agentNameOf(span: ObservedSpan): string | undefined {
  const name = span.attributes['gen_ai.agent.name'];
  return operationOf(span) === 'invoke_agent' && typeof name === 'string' ? name.toLowerCase() : undefined;
}

export const text = (v: ObservedValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
export const count = (v: ObservedValue | undefined): number => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0);

/** The tool a span executes (`gen_ai.tool.name`, else the span name after `execute_tool`). */
export function toolOf(span: ObservedSpan): string {
  return normaliseName(text(span.attributes['gen_ai.tool.name']) ?? span.name.replace(/^execute_tool\s*/, ''));
}

/** The recorded arguments of a tool call: absent when the trace does not carry them. */
export function argumentsOf(span: ObservedSpan): { readonly value: unknown } | { readonly unparsable: string } | undefined {
  const raw = span.attributes['gen_ai.tool.call.arguments'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') return { value: raw };
  try {
    return { value: JSON.parse(raw) as unknown };
  } catch {
    return { unparsable: raw };
  }
}

const APPROVED = new Set(['approve', 'approved', 'allow', 'allowed', 'accept', 'accepted', 'granted']);

/** Whether a decision value approves. */
export const approves = (v: ObservedValue | undefined): boolean => typeof v === 'string' && APPROVED.has(v.trim().toLowerCase());

/** A human decision seen on a span: what it decided and the call it names, when it names one. */
export interface Decision {
  readonly approved: boolean;
  readonly callId?: string;
  readonly scenario?: string;
}

/**
 * The human decisions a span carries: `agents_md.human_decision` events (their
 * `agents_md.decision`, the call in `gen_ai.tool.call.id`, the scenario in `agents_md.scenario`
 * or `agents_md.subject`) and a runtime's `agents_md.approval.decision` attribute on the tool span.
 */
export function decisionsOf(span: ObservedSpan): Decision[] {
  const out: Decision[] = [];
  for (const e of span.events) {
    if (e.name !== 'agents_md.human_decision') continue;
    const callId = text(e.attributes['gen_ai.tool.call.id']);
    const scenario = text(e.attributes['agents_md.scenario']) ?? text(e.attributes['agents_md.subject']);
    out.push({ approved: approves(e.attributes['agents_md.decision']), ...(callId ? { callId } : {}), ...(scenario ? { scenario: normaliseName(scenario) } : {}) });
  }
  const attr = span.attributes['agents_md.approval.decision'];
  if (attr !== undefined) out.push({ approved: approves(attr) });
  return out;
}

/** Whether the span ends the run's reasoning with an answer (`finish_reasons` holds `stop`). */
export function isFinalChat(span: ObservedSpan): boolean {
  const r = span.attributes['gen_ai.response.finish_reasons'];
  return Array.isArray(r) ? r.includes('stop') : r === 'stop';
}

/** The text parts of `gen_ai.output.messages` (the GenAI conventions' JSON), joined; undefined when not recorded. */
export function answerOf(span: ObservedSpan): string | undefined {
  const raw = span.attributes['gen_ai.output.messages'];
  if (raw === undefined) return undefined;
  let messages: unknown = raw;
  if (typeof raw === 'string') {
    try {
      messages = JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  if (!Array.isArray(messages)) return undefined;
  const parts: string[] = [];
  for (const m of messages) {
    for (const p of Array.isArray((m as { parts?: unknown })?.parts) ? (m as { parts: unknown[] }).parts : []) {
      const part = p as { type?: unknown; content?: unknown };
      if (part.type === 'text' && typeof part.content === 'string') parts.push(part.content);
    }
  }
  return parts.length > 0 ? parts.join('') : undefined;
}
