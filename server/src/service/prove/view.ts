/** A finding of `agents-md prove` as its readers see it (docs/prove.md), in one language, for every face. */
import { format } from '../l10n/format.ts';
import type { ProveFinding, ProveMessage, Witness } from './types.ts';

/** A prove message in `lang`. */
export const proveText = (m: ProveMessage, lang: string): string => format(m.id, m.args, lang);

/** The witness as the user reads it: the call (tool, arguments, and the request's data when it has some) or the answer. */
export function witnessData(w: Witness): Record<string, unknown> {
  if (w.kind === 'answer') return { answer: w.answer };
  return { tool: w.tool, arguments: w.input, ...(Object.keys(w.data).length ? { data: w.data } : {}) };
}

/** "proved", or "qualified: " and what was not modelled. */
export function proveResult(f: ProveFinding, lang: string): string {
  return f.proved ? format('prove.result.proved', {}, lang) : format('prove.result.qualified', { reasons: f.qualified.map((q) => proveText(q, lang)).join('; ') }, lang);
}
