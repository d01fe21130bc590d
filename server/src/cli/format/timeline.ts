/**
 * The text form of a run's timeline (docs/dry-run.md, "Reading a run"): one line per event, a
 * stage label column, a status mark, the run's message texts, and for failures the contract clause
 * as 1-based `file:line:col`. Lines are produced event by event so that a run prints as it goes.
 * Words and labels are in the display language; the label column is padded by display width.
 */
import { describeEvent, type EventStatus, locate, type ParsedContract, runMessage, type TraceEvent } from '../../service/index.ts';
import { padEndDisplay } from '../../service/host.ts';
import { oneBased } from '../report.ts';

const ANSI = { red: 31, green: 32, yellow: 33, cyan: 36, gray: 90, bold: 1, dim: 2 } as const;
type Style = keyof typeof ANSI;

const MARK: Record<EventStatus, { mark: string; style: Style }> = {
  success: { mark: '✓', style: 'green' },
  failure: { mark: '✗', style: 'red' },
  invalid: { mark: '✗', style: 'red' },
  timeout: { mark: '⏱', style: 'yellow' },
  pending: { mark: '⏸', style: 'yellow' },
  skipped: { mark: '–', style: 'gray' },
  unknown: { mark: '?', style: 'yellow' },
};

/** Colours, the display language, and where clause locations point: the contract's model and its path as displayed. */
export interface TimelineOptions {
  readonly color: boolean;
  /** Display language (default `en`). */
  readonly lang?: string;
  readonly contract?: { readonly model: ParsedContract; readonly displayPath: string };
  /** Start each event with its id (`trace show`: the ids `trace fork --at` takes). */
  readonly ids?: boolean;
}

/** Width of the label column (labels are message texts, possibly translated: measured in terminal cells). */
const LABEL_WIDTH = 10;
/** Width of the event id column (`evt_0012`; a fork's longer ids push the line). */
const ID_WIDTH = 8;

/** `file:line:col` of a contract clause, when it can be located. */
export function clauseLocation(options: TimelineOptions, pointer: string | undefined): string | undefined {
  if (!pointer || !options.contract) return undefined;
  const span = locate(options.contract.model, pointer);
  if (!span) return undefined;
  const at = oneBased(span.key ?? span.value);
  return `${options.contract.displayPath}:${at.line}:${at.column}`;
}

/** The text lines of one event. */
export function formatEvent(e: TraceEvent, options: TimelineOptions): string[] {
  const paint = (style: Style, s: string) => (options.color ? `\x1b[${ANSI[style]}m${s}\x1b[0m` : s);
  const lang = options.lang ?? 'en';
  const out: string[] = [];
  let first = true;
  for (const line of describeEvent(e, lang)) {
    // At least one space after the label, however wide a translation is.
    const label = padEndDisplay(line.nested ? '' : runMessage(line.label, {}, lang), LABEL_WIDTH - 1);
    const { mark, style } = MARK[line.status];
    const indent = line.nested ? '  ' : '';
    const id = options.ids ? `${paint('dim', (first ? e.event_id : '').padEnd(ID_WIDTH))} ` : '';
    first = false;
    let text = `${id}${paint('bold', label)} ${indent}${paint(style, mark)} ${line.text}`;
    const failed = line.status === 'failure' || line.status === 'invalid' || line.status === 'timeout';
    const where = failed && line.messageId !== 'timeline.task_end.stats' ? clauseLocation(options, line.pointer) : undefined;
    if (where) text += paint('dim', ` (${where})`);
    out.push(text);
  }
  if (e.event_type === 'task_end') {
    const p = e.payload as Record<string, unknown>;
    for (const pointer of [p['pointer'], p['protocol_pointer']]) {
      const where = clauseLocation(options, typeof pointer === 'string' ? pointer : undefined);
      if (where) out.push(`${' '.repeat(LABEL_WIDTH)}  ${paint('dim', runMessage('timeline.clause', { location: where }, lang))}`);
    }
  }
  return out;
}
