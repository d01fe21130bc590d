/**
 * The editor's trace view as a `ViewNode` tree (docs/vscode.md): one node per query run, its
 * outcome as the label; under it every event of the trace as the timeline words it (timeline.ts,
 * the same words as `agents-md run`), failures highlighted and expanded, each linked to the
 * contract clause it names; an event's readable payload fields as its children, in `lang`, and
 * the raw fields (pointers, codes, ids) under a "details" node. Every label is in `lang`.
 */
import type { ParsedContract } from '../parse/parseContract.ts';
import { locate } from '../model/locate.ts';
import { normaliseName } from '../model/names.ts';
import { describeEvent, fieldText, preview } from '../run/trace/timeline.ts';
import { outcomeText, runMessage } from '../run/runMessage.ts';
import type { EventStatus, TraceEvent } from '../run/trace/trace.ts';
import type { Outcome } from '../run/engine/engine.ts';
import type { ViewLocation, ViewNode, ViewNodeKind } from './viewNode.ts';

const STATUS_KIND: Record<EventStatus, ViewNodeKind> = { success: 'ok', failure: 'error', invalid: 'error', timeout: 'error', pending: 'paused', skipped: 'info', unknown: 'warning' };
const OUTCOME_KIND: Record<Outcome['status'], ViewNodeKind> = { success: 'ok', fallback: 'warning', failure: 'error', cancelled: 'info' };

/** One query's run, as far as it went. */
export interface TraceRun {
  readonly queryId: string;
  readonly events: readonly TraceEvent[];
  /** Absent while the run is still going. */
  readonly outcome?: Outcome;
  /** What the query expected and the run did not do (empty or absent: as expected). */
  readonly mismatches?: readonly { readonly field: string; readonly expected: string; readonly actual: string }[];
  /** The query stated an expectation and the run met it: the row is marked as expected, whatever the outcome. */
  readonly asExpected?: boolean;
}

/** The contract the events point into. */
export interface TraceTreeOptions {
  readonly contract: ParsedContract;
  readonly contractUri: string;
  readonly lang?: string;
}

const FAILED = new Set<EventStatus>(['failure', 'invalid', 'timeout']);

/** Fields a reader acts on, shown with a label in the user's language (`view.field.<key>`); the rest are raw ids. */
const READABLE = new Set(['message', 'reason', 'detail', 'check', 'text', 'answer', 'tool', 'arguments', 'output', 'result', 'pool', 'subject', 'scenario', 'condition', 'decision', 'decided_by', 'sla', 'on_timeout', 'entity', 'value', 'count', 'outcome', 'stats', 'timing', 'query', 'severity', 'channel', 'expected', 'got', 'state', 'trigger']);

/**
 * An event's payload: the readable fields with localised labels and texts (a message field in
 * `lang`, not its English copy), then one "details" node with every raw field as the trace has it.
 */
function payloadNodes(e: TraceEvent, id: string, lang: string): ViewNode[] {
  const keys = Object.keys(e.payload);
  const readable = keys.filter((k) => READABLE.has(k)).map((key): ViewNode => ({ id: `${id}/${key}`, label: runMessage(`view.field.${key}`, {}, lang), description: fieldText(e, key, lang), kind: 'info' }));
  if (keys.length === 0) return readable;
  const raw = keys.map((key): ViewNode => ({ id: `${id}/details/${key}`, label: key, description: preview(e.payload[key], 200), kind: 'info' }));
  return [...readable, { id: `${id}/details`, label: runMessage('view.details', {}, lang), kind: 'group', children: raw }];
}

interface Draft {
  readonly node: Omit<ViewNode, 'children'>;
  readonly nested: ViewNode[];
  readonly payload: ViewNode[];
  failed: boolean;
}

/** The trace view's tree for the runs of one Run agent command. */
export function traceTree(runs: readonly TraceRun[], options: TraceTreeOptions): ViewNode[] {
  const lang = options.lang ?? 'en';
  const where = (pointer: string | undefined): ViewLocation | undefined => {
    const range = pointer ? locate(options.contract, pointer)?.value : undefined;
    return range ? { uri: options.contractUri, range } : undefined;
  };
  // A tool's call and result name no clause of their own: a click shows the tool's declaration.
  const tools = Array.isArray(options.contract.data['tools']) ? (options.contract.data['tools'] as unknown[]) : [];
  const toolPointer = (e: TraceEvent): string | undefined => {
    if (e.event_type !== 'tool_call' && e.event_type !== 'tool_result') return undefined;
    const i = tools.findIndex((t) => normaliseName((t as Record<string, unknown> | null)?.['name']) === normaliseName(e.payload['tool']));
    return i >= 0 ? `/tools/${i}` : undefined;
  };
  return runs.map((run): ViewNode => {
    const drafts: Draft[] = [];
    // A pause once answered shows the answer (who decided what) instead of staying paused.
    const answers = new Map(run.events.filter((e) => e.event_type === 'human_response').map((e) => [String(e.payload['input_ref']), e]));
    for (const e of run.events) {
      const answer = e.event_type === 'human_input' ? answers.get(e.event_id) : undefined;
      describeEvent(e, lang).forEach((line, i) => {
        const id = `${run.queryId}/${e.event_id}/${i}`;
        const location = where(line.pointer ?? toolPointer(e));
        const decided = answer && i === 0 ? describeEvent(answer, lang)[0] : undefined;
        const node = {
          id,
          label: line.text,
          description: decided ? decided.text : runMessage(line.label, {}, lang),
          tooltip: `\`${e.event_type}\` · ${e.source} · ${e.timestamp}`,
          kind: STATUS_KIND[decided ? decided.status : line.status],
          ...(location ? { location } : {}),
        };
        const last = drafts[drafts.length - 1];
        if (line.nested && last) {
          last.nested.push(i === 0 ? { ...node, children: payloadNodes(e, id, lang) } : node);
          last.failed ||= FAILED.has(line.status);
        } else {
          drafts.push({ node, nested: [], payload: i === 0 ? payloadNodes(e, id, lang) : [], failed: FAILED.has(line.status) });
        }
      });
    }
    const o = run.outcome;
    const missed = expectationNode(run, lang);
    return {
      id: `run:${run.queryId}`,
      label: o ? `${run.queryId} · ${o.code}` : run.queryId,
      description: o ? outcomeText(o, lang) : runMessage('view.running', {}, lang),
      kind: missed ? 'error' : o && run.asExpected ? 'ok' : o ? OUTCOME_KIND[o.status] : 'pending',
      expanded: true,
      ...(o?.clause && where(o.clause.pointer) ? { location: where(o.clause.pointer)! } : {}),
      children: [...(missed ? [missed] : []), ...drafts.map((d) => ({ ...d.node, children: [...d.nested, ...d.payload], ...(d.failed ? { expanded: true } : {}) }))],
    };
  });
}

/** The row that says what a query expected when its run did not do it, first under the run. */
function expectationNode(run: TraceRun, lang: string): ViewNode | undefined {
  if (!run.mismatches?.length) return undefined;
  const what = run.mismatches.map((m) => runMessage('eval.mismatch', { field: m.field, expected: m.expected, actual: m.actual }, lang)).join('; ');
  return { id: `${run.queryId}/expectation`, label: runMessage('view.notAsExpected', { mismatches: what }, lang), kind: 'error' };
}
