/**
 * The one error for input a command cannot use (a file that cannot be read, is binary or too large,
 * a snapshot with errors, a git failure…): a catalogue message (`messageId`, a full l10n id such as
 * `run.host.binary.snapshot` or `diff.input.tooLarge`, and `args`). `message` is its English text;
 * `text(lang)` gives it in the reader's language. The CLI prints it and exits 2 (cli/guarded.ts).
 */
import { fileErrorReason, format, type MessageArgs } from '../service/host.ts';

/** `args` with a file's error code (`error`, `reason`) as a phrase in `lang` (service/l10n/fileMessages.ts). */
const readable = (args: MessageArgs, lang: string): MessageArgs => Object.fromEntries(Object.entries(args).map(([k, v]) => [k, (k === 'error' || k === 'reason') && typeof v === 'string' ? fileErrorReason(v, lang) : v]));

export class InputError extends Error {
  constructor(
    readonly messageId: string,
    readonly args: MessageArgs = {},
  ) {
    super(format(messageId, readable(args, 'en')));
    this.name = 'InputError';
  }

  /** The message in `lang`. */
  text(lang: string): string {
    return format(this.messageId, readable(this.args, lang), lang);
  }
}
