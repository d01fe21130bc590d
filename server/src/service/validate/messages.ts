/**
 * The rule catalogue as messages (docs/localisation.md): each rule's message templates, summary, description
 * and source under stable ids, so that diagnostics, hover, code actions, the CLI and the generated
 * rule docs can show them in any shipped language. English stays in the rule modules (one source);
 * translations are keyed by these ids in `l10n/bundle.l10n.<lang>.json`.
 *
 * Ids: `<code>` (the default message) and `<code>.<variant>` (ContractDiagnostic.messageId), and
 * `rule.<code>.summary`, `rule.<code>.description`, `rule.<code>.source`.
 */
import { RULES } from './catalogue.ts';
import { registerMessages } from '../l10n/registry.ts';

/** The message id of a finding: its rule code, with the variant after a dot when it has one. */
export function ruleMessageId(code: string, variant?: string): string {
  return variant ? `${code}.${variant}` : code;
}

/** The id of a rule's documentation text: `rule.<code>.summary`, `.description` or `.source`. */
export function ruleDocId(code: string, part: 'summary' | 'description' | 'source'): string {
  return `rule.${code}.${part}`;
}

export const RULE_MESSAGES: Readonly<Record<string, string>> = Object.fromEntries(
  RULES.flatMap((r) => [
    ...Object.entries(r.messages).map(([variant, text]) => [ruleMessageId(r.code, variant === 'default' ? undefined : variant), text]),
    [ruleDocId(r.code, 'summary'), r.summary],
    [ruleDocId(r.code, 'description'), r.description],
    [ruleDocId(r.code, 'source'), r.source],
  ]),
);

registerMessages('rules', RULE_MESSAGES);
