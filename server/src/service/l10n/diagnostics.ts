import type { ContractDiagnostic } from '../types.ts';
import { format } from './format.ts';

/**
 * A diagnostic with its message and related notes in `lang`, rebuilt from their ids and
 * arguments (the validator writes English). The adapters call this with the user's language:
 * the server with the client's locale, the CLI with `--lang`.
 */
export function localiseDiagnostic(d: ContractDiagnostic, lang: string): ContractDiagnostic {
  if (lang === 'en') return d;
  return {
    ...d,
    message: format(d.messageId, d.args, lang),
    ...(d.related ? { related: d.related.map((r) => ({ ...r, message: format(r.messageId, r.args, lang) })) } : {}),
  };
}
