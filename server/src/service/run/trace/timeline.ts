/**
 * The readable timeline of a run (docs/dry-run.md "The trace": trigger → memory → prompt →
 * tool calls → validation → outcome): one or two lines per event, as message ids with arguments, so that the CLI and
 * an editor's trace view show the same words, translated by id. Pure.
 */
import type { TraceEvent, EventStatus } from './trace.ts';
import { outcomeText, payloadText, runMessage, type MessageRef, type RunArgs } from '../runMessage.ts';

/** One line of the timeline. */
export interface TimelineLine {
  /** The stage label's message id (`label.memory`…). */
  readonly label: string;
  readonly messageId: string;
  readonly args: Readonly<Record<string, string | number>>;
  readonly text: string;
  readonly status: EventStatus;
  /** A sub-line of the previous one (tool results under their call). */
  readonly nested: boolean;
  /** The contract clause the line is about, when the event names one. */
  readonly pointer?: string;
}

const LABEL: Readonly<Record<TraceEvent['event_type'], string>> = {
  task_start: 'label.run',
  trigger_match: 'label.trigger',
  entity_extraction: 'label.trigger',
  memory_check: 'label.memory',
  memory_retrieval: 'label.memory',
  context_assembly: 'label.memory',
  prompt: 'label.prompt',
  model_step: 'label.step',
  tool_call: 'label.tool',
  tool_result: 'label.tool',
  validation: 'label.validation',
  condition: 'label.protocol',
  human_input: 'label.human',
  human_response: 'label.human',
  protocol: 'label.protocol',
  alert: 'label.protocol',
  final_output: 'label.output',
  task_end: 'label.outcome',
  fork: 'label.run',
  correction: 'label.validation',
};

const NESTED = new Set<TraceEvent['event_type']>(['tool_result', 'validation', 'human_response', 'alert', 'entity_extraction', 'correction']);

/** Text of a value on one line, at most `max` characters. */
export function preview(v: unknown, max = 120): string {
  const s = (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v))).replace(/\s*\n\s*/g, ' ');
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

const str = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : String(v));

/** A number as people read it: at most three decimals (a weight of 1/3 is 0.333). */
export function shortNumber(v: unknown): number {
  const n = Number(v ?? 0);
  return Number.isFinite(n) ? Math.round(n * 1000) / 1000 : 0;
}

/** A time in one form everywhere: ISO 8601 in UTC to the second (`2024-06-12T04:00:00Z`); text that is not a time as given. */
export function shortTime(v: unknown): string {
  const s = str(v);
  const ms = Date.parse(s);
  return s && Number.isFinite(ms) ? new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z') : s;
}

/** A tool's feedback without the outcome code it starts with (the line shows the code already). */
const withoutCode = (text: string, code: string): string => (code && text.startsWith(code) ? text.slice(code.length).replace(/^[:：]\s*/, '') : text);

/** The outcome sentence of a `task_end` event in `lang`, from its ids (the English `message` of older traces otherwise). */
function endMessage(p: Record<string, any>, lang: string): string {
  if (typeof p['message_id'] !== 'string') return str(p['message']);
  const protocol = typeof p['protocol_condition'] === 'string' ? { protocol: { condition: p['protocol_condition'], ...(p['error_code'] ? { errorCode: str(p['error_code']) } : {}) } } : {};
  return outcomeText({ messageId: p['message_id'], args: (p['args'] ?? {}) as RunArgs, ...(p['arg_messages'] ? { argMessages: p['arg_messages'] as Record<string, MessageRef> } : {}), ...protocol }, lang);
}

/** One payload field of an event as a reader sees it in `lang`: a message field localised, other values previewed. */
export function fieldText(e: TraceEvent, key: string, lang: string): string {
  if (e.event_type === 'task_end') {
    const p = e.payload as Record<string, any>;
    if (key === 'message') return endMessage(p, lang);
    if (key === 'outcome') return runMessage(`status.${str(p['outcome'])}`, {}, lang);
    if (key === 'stats' && p['stats']) return runMessage('timeline.task_end.stats', statsArgs(p), lang);
    if (key === 'timing' && typeof p['timing']?.['elapsed_ms'] === 'number') return runMessage('view.elapsed', { elapsed: p['timing']['elapsed_ms'] }, lang);
  }
  return typeof e.payload[`${key}_id`] === 'string' ? payloadText(e.payload, key, lang) : preview(e.payload[key], 200);
}

/** The message id and arguments of an event's main line; arguments that are words of the run's messages are in `lang`. */
function message(e: TraceEvent, lang: string): { id: string; args: Record<string, string | number> } {
  const p = e.payload as Record<string, any>;
  const t = (id: string, args: RunArgs = {}) => runMessage(id, args, lang);
  const field = (name: string) => payloadText(p, name, lang);
  switch (e.event_type) {
    case 'task_start':
      return { id: 'timeline.task_start', args: { runId: str(p['run']?.['id']) || '—', contract: str(p['run']?.['contract']) || str(p['contract_name']), query: str(p['query_id']) } };
    case 'trigger_match':
      if (e.status === 'success') return { id: 'timeline.trigger_match.success', args: { pattern: str(p['pattern']) } };
      if (e.status === 'skipped') return { id: 'timeline.trigger_match.skipped', args: {} };
      if (Array.isArray(p['unusable']) && p['unusable'].length > 0) return { id: 'timeline.trigger_match.failure-unusable', args: { count: Number(p['tried'] ?? 0), unusable: p['unusable'].join(', ') } };
      return { id: 'timeline.trigger_match.failure', args: { count: Number(p['tried'] ?? 0) } };
    case 'entity_extraction':
      return e.status === 'success' ? { id: 'timeline.entity_extraction.success', args: { entity: str(p['entity']), value: str(p['value']), via: runMessage(`via.${str(p['via'])}`, {}, lang) } } : { id: 'timeline.entity_extraction.failure', args: { entity: str(p['entity']) } };
    case 'memory_check':
      return e.status === 'success' ? { id: 'timeline.memory_check.success', args: { pool: str(p['pool']), updatedAt: shortTime(p['updated_at']) || '—' } } : { id: e.status === 'skipped' ? 'timeline.memory_check.skipped' : 'timeline.memory_check.failure', args: { pool: str(p['pool']), reason: field('reason') } };
    case 'memory_retrieval':
      if (e.status !== 'success') return { id: 'timeline.memory_retrieval.skipped', args: { pool: str(p['pool']), reason: field('reason') } };
      return {
        id: 'timeline.memory_retrieval.success',
        args: {
          pool: str(p['pool']),
          returned: Number(p['returned'] ?? 0),
          matched: Number(p['matched'] ?? 0),
          total: Number(p['total'] ?? 0),
          filters: Array.isArray(p['filters']) && p['filters'].length > 0 ? p['filters'].map((f: any) => `${f.field}=${f.value}`).join(', ') : '—',
          topK: Number(p['top_k'] ?? 0),
          weight: shortNumber(p['weight']),
          ms: Number(p['timing']?.['ms'] ?? 0).toFixed(1),
        },
      };
    case 'context_assembly': {
      const pools = Array.isArray(p['pools']) ? p['pools'] : [];
      return { id: 'timeline.context_assembly', args: { records: pools.reduce((s: number, x: any) => s + Number(x.records ?? 0), 0), pools: pools.length, chars: pools.reduce((s: number, x: any) => s + Number(x.chars ?? 0), 0) } };
    }
    case 'prompt':
      return { id: 'timeline.prompt', args: { chars: Number(p['chars'] ?? 0), tools: Array.isArray(p['tools']) ? p['tools'].length : 0 } };
    case 'model_step': {
      const prompt = Number(p['usage']?.['prompt_tokens'] ?? 0);
      const completion = Number(p['usage']?.['completion_tokens'] ?? 0);
      const figures = { tokens: prompt + completion, prompt, completion, ms: Number(p['timing']?.['latency_ms'] ?? 0) };
      if (p['kind'] === 'tool_calls') return { id: 'timeline.model_step.tool_calls', args: { step: Number(p['step'] ?? 0), calls: (Array.isArray(p['calls']) ? p['calls'] : []).map((c: any) => str(c.name)).join(', '), ...figures } };
      return { id: 'timeline.model_step.final', args: { step: Number(p['step'] ?? 0), ...figures } };
    }
    case 'tool_call':
      return { id: 'timeline.tool_call', args: { tool: str(p['tool']), arguments: preview(p['arguments']) } };
    case 'tool_result':
      if (e.status === 'success') return { id: p['identical'] === true ? 'timeline.tool_result.success.identical' : 'timeline.tool_result.success', args: { tool: str(p['tool']), result: preview(p['result']) } };
      if (e.status === 'timeout') return { id: 'timeline.tool_result.timeout', args: { tool: str(p['tool']), ms: Number(p['ms'] ?? 0), limit: Number(p['limit'] ?? 0) } };
      if (p['code'] === 'LOOP_DETECTED') return { id: 'timeline.tool_result.loop', args: { tool: str(p['tool']), detail: field('detail') } };
      if (p['code'] === 'BOUNDARY_VIOLATED') return { id: 'timeline.tool_result.boundary', args: { tool: str(p['tool']), detail: field('detail'), boundary: str(p['boundary']).replace(/^\s*❌\s*/u, '') } };
      return { id: `timeline.tool_result.${e.status === 'invalid' ? 'invalid' : 'failure'}`, args: { tool: str(p['tool']), code: str(p['code']), detail: preview(withoutCode(field('detail'), str(p['code'])), 200) } };
    case 'validation': {
      const status = e.status === 'success' || e.status === 'skipped' || e.status === 'unknown' ? e.status : 'invalid';
      // The final answer's checks have the subject `output`; a tool's checks, the tool's name.
      const subject = p['subject'] === 'output' ? t('subject.output') : p['subject'] === 'model' ? t('subject.model') : str(p['subject']);
      return { id: `timeline.validation.${status}`, args: { subject, check: field('check'), detail: preview(field('detail'), 200) } };
    }
    case 'condition': {
      const state = p['state'] === 'fired' || p['state'] === 'true' || p['state'] === 'false' ? runMessage(`state.${p['state']}`, {}, lang) : t('state.unknown', { missing: Array.isArray(p['missing']) ? p['missing'].join(', ') : '' });
      if (typeof p['scenario'] === 'string') return { id: 'timeline.condition.hitl', args: { scenario: p['scenario'], condition: str(p['condition']), state } };
      return { id: 'timeline.condition', args: { condition: str(p['condition']), state } };
    }
    case 'human_input':
      // A `Scope: run` approval covers the rest of the run: the line says so (docs/dry-run.md §3).
      return { id: p['scope'] === 'run' ? 'timeline.human_input.run' : p['sla'] ? 'timeline.human_input' : 'timeline.human_input.no-sla', args: { subject: str(p['subject']), reason: field('reason'), sla: str(p['sla']) } };
    case 'human_response': {
      const decision = p['decision'] === 'approve' || p['decision'] === 'reject' ? p['decision'] : 'timeout';
      if (typeof p['decided_by'] === 'string') return { id: `timeline.human_response.${decision}.by`, args: { by: p['decided_by'] } };
      return { id: `timeline.human_response.${decision}`, args: {} };
    }
    case 'protocol':
      return { id: 'timeline.protocol', args: { condition: str(p['condition']), actions: (Array.isArray(p['actions']) ? p['actions'] : []).join(' → ') } };
    case 'alert':
      return { id: 'timeline.alert', args: { channel: str(p['channel']), severity: str(p['severity']) || '—' } };
    case 'final_output':
      if (e.status === 'invalid') return { id: 'timeline.final_output.invalid', args: { code: str(p['code']), preview: preview(p['text']) } };
      return { id: 'timeline.final_output', args: { preview: preview(p['text']) } };
    case 'correction':
      return { id: 'timeline.correction', args: { text: preview(field('text'), 300) } };
    case 'task_end':
      return { id: 'timeline.task_end', args: { status: runMessage(`status.${str(p['outcome'])}`, {}, lang), code: `${str(p['code'])}${p['error_code'] ? ` / ${str(p['error_code'])}` : ''}`, message: endMessage(p, lang) } };
    case 'fork':
      return { id: 'timeline.fork', args: { from: str(p['from']), at: str(p['at']) } };
  }
}

/** The timeline lines of one event, in `lang` (`text`, and the arguments that are message words). */
export function describeEvent(e: TraceEvent, lang = 'en'): TimelineLine[] {
  const m = message(e, lang);
  const p = e.payload as Record<string, any>;
  const pointer = typeof p['pointer'] === 'string' ? p['pointer'] : undefined;
  const line = (id: string, args: Record<string, string | number>, nested: boolean): TimelineLine => ({ label: LABEL[e.event_type], messageId: id, args, text: runMessage(id, args, lang), status: e.status, nested, ...(pointer ? { pointer } : {}) });
  // Checks of the final answer are a stage of their own; checks of a tool call sit under it.
  const nested = NESTED.has(e.event_type) && !(e.event_type === 'validation' && p['subject'] === 'output');
  const lines = [line(m.id, m.args, nested)];
  if (e.event_type === 'task_start' && typeof p['query'] === 'string') lines.push(line('timeline.task_start.text', { text: preview(p['query'], 200) }, true));
  if (e.event_type === 'fork' && Array.isArray(p['set'])) for (const set of p['set']) lines.push(line('timeline.fork.set', { set: String(set) }, true));
  if (e.event_type === 'task_end' && p['stats']) lines.push(line('timeline.task_end.stats', statsArgs(p), true));
  return lines;
}

/** The arguments of a run's statistics sentence, from a `task_end` payload. */
function statsArgs(p: Record<string, any>): Record<string, number> {
  const s = p['stats'];
  return { steps: Number(s.steps ?? 0), tokens: Number(s.tokens ?? 0), tools: Array.isArray(s.tools) ? s.tools.length : 0, humans: Number(s.human_decisions ?? 0), elapsed: Number(p['timing']?.['elapsed_ms'] ?? 0) };
}
