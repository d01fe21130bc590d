import { format } from '../l10n/format.ts';

/** The id prefix of the dry run's messages in the l10n registry. */
export const RUN_PREFIX = 'run.';

/** Named arguments of a run message. */
export type RunArgs = Readonly<Record<string, string | number>>;

/**
 * A run message by id (messages.ts) and arguments, kept instead of its text wherever a reader
 * may want it in another language: trace payloads (`reason_id`/`reason_args`,
 * `detail_id`/`detail_args`), outcome arguments that are messages themselves (`argMessages`).
 * An argument may itself be a message (a schema rule inside "expected …, got …"); each is
 * formatted whole and passed as the argument, never joined with other pieces.
 */
export interface MessageRef {
  readonly id: string;
  readonly args: Readonly<Record<string, string | number | MessageRef>>;
}

/**
 * The dry run's message `id` (messages.ts; `outcome.<CODE>` for an outcome code) with its `{name}`
 * arguments filled, in `lang` (default English). An unknown id is returned as it is.
 */
export function runMessage(id: string, args: RunArgs = {}, lang = 'en'): string {
  const text = format(`${RUN_PREFIX}${id}`, args, lang);
  return text === `${RUN_PREFIX}${id}` ? id : text;
}

/** The text of a message reference in `lang`, its message arguments formatted first. */
export function refText(ref: MessageRef, lang = 'en'): string {
  return runMessage(ref.id, plainArgs(ref.args, lang), lang);
}

function plainArgs(args: MessageRef['args'], lang: string): Record<string, string | number> {
  return Object.fromEntries(Object.entries(args).map(([name, v]) => [name, typeof v === 'object' && v !== null ? refText(v, lang) : v]));
}

/** What `outcomeText` needs of an outcome (engine.ts `Outcome`, or a `task_end` payload read back). */
export interface OutcomeWords {
  readonly messageId: string;
  readonly args: RunArgs;
  /** Arguments that are messages; their English text is also in `args`. */
  readonly argMessages?: Readonly<Record<string, MessageRef>>;
  /** The FAILURE_PROTOCOL entry that handled it. */
  readonly protocol?: { readonly condition: string; readonly errorCode?: string };
}

/**
 * The sentence of a run's outcome in `lang`: its message (`outcome.<CODE>[.<variant>]`) with any
 * message arguments localised, inside `outcome.protocol` when a FAILURE_PROTOCOL entry handled it.
 * The engine writes it in English; hosts call it with the reader's language.
 */
export function outcomeText(o: OutcomeWords, lang = 'en'): string {
  const message = runMessage(o.messageId, { ...o.args, ...plainArgs(o.argMessages ?? {}, lang) }, lang);
  return o.protocol ? runMessage('outcome.protocol', { message, condition: o.protocol.condition, errorCode: o.protocol.errorCode ?? '—' }, lang) : message;
}

/**
 * Arguments of a message some of which are messages themselves: `args` with those filled in
 * English (what the trace and JSON show), and `argMessages` keeping them by id for `outcomeText`.
 */
export function withArgMessages(args: RunArgs, nested: Readonly<Record<string, MessageRef>>): { args: Record<string, string | number>; argMessages: Readonly<Record<string, MessageRef>> } {
  return { args: { ...args, ...plainArgs(nested, 'en') }, argMessages: nested };
}

/**
 * A payload field holding a message (trace.ts events): `name` with its English text, plus
 * `<name>_id` and `<name>_args` so that a reader shows it in its own language; a plain string
 * (a quoted parser or tool text) is kept as it is.
 */
export function messageFields(name: string, m: MessageRef | string): Record<string, unknown> {
  return typeof m === 'string' ? { [name]: m } : { [name]: refText(m), [`${name}_id`]: m.id, [`${name}_args`]: m.args };
}

/** The text of a payload field written by `messageFields`, in `lang`. */
export function payloadText(payload: Readonly<Record<string, unknown>>, name: string, lang = 'en'): string {
  const id = payload[`${name}_id`];
  if (typeof id === 'string') return refText({ id, args: (payload[`${name}_args`] ?? {}) as MessageRef['args'] }, lang);
  const v = payload[name];
  return v === undefined || v === null ? '' : String(v);
}
