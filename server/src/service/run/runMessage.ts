import { format } from '../l10n/format.ts';

/** The id prefix of the dry run's messages in the l10n registry. */
export const RUN_PREFIX = 'run.';

/**
 * The dry run's message `id` (catalogue.ts; `outcome.<CODE>` for an outcome code) with its `{name}`
 * arguments filled, in `lang` (default English). An unknown id is returned as it is.
 */
export function runMessage(id: string, args: Readonly<Record<string, string | number>> = {}, lang = 'en'): string {
  const text = format(`${RUN_PREFIX}${id}`, args, lang);
  return text === `${RUN_PREFIX}${id}` ? id : text;
}
