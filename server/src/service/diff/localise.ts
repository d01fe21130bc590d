/**
 * The semantic diff in a display language (docs/localisation.md). The engine writes each `message` in English
 * next to its id and arguments (a change's `reasonId` and `args`, the advice's `messageId` and
 * `args`), which stay the same in every language (docs/localisation.md); these rebuild the
 * messages in `lang`, as `localiseDiagnostic` does for the validator's findings. Pure: the CLI
 * calls them with `--lang`, the server with the client's locale.
 */
import type { DiffMessageId } from './messages.ts';
import { diffMessage } from './diffMessage.ts';
import type { Change, SemanticDiff, VersionAdvice } from './types.ts';

/** A change with its reason in `lang` (`en` returns it unchanged). */
export function localiseChange(change: Change, lang: string): Change {
  return lang === 'en' ? change : { ...change, message: diffMessage(change.reasonId, change.args, lang) };
}

/** The version advice with its two sentences in `lang`. */
export function localiseAdvice(advice: VersionAdvice, lang: string): VersionAdvice {
  if (lang === 'en') return advice;
  const text = (m: { readonly messageId: DiffMessageId; readonly args: VersionAdvice['args'] }) => diffMessage(m.messageId, m.args, lang);
  return { ...advice, message: text(advice), audit: { ...advice.audit, message: text(advice.audit) } };
}

/** A whole diff with every message in `lang`; ids, arguments, counts and positions unchanged. */
export function localiseDiff(diff: SemanticDiff, lang: string): SemanticDiff {
  return lang === 'en' ? diff : { ...diff, changes: diff.changes.map((c) => localiseChange(c, lang)), advice: localiseAdvice(diff.advice, lang) };
}
