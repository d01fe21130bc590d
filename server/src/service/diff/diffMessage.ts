import { format } from '../l10n/format.ts';
import type { DiffMessageId } from './messages.ts';

/** The id prefix of the diff's messages in the l10n registry (their ids alone would clash with the CLI's). */
export const DIFF_PREFIX = 'diff.';

/** Formats a message of the diff (messages.ts) with its arguments, in `lang` (default English). */
export function diffMessage(id: DiffMessageId, args: Readonly<Record<string, string | number>> = {}, lang = 'en'): string {
  return format(`${DIFF_PREFIX}${id}`, args, lang);
}
