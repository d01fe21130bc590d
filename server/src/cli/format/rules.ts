/** The `rules` command's output: the rule catalogue as aligned columns (display width) or as JSON, in the display language. */
import { RULES, format, ruleDocId, alignColumns } from '../../service/host.ts';
import { ruleHelpUri } from '../meta.ts';

export function formatRulesText(lang = 'en'): string {
  return alignColumns(RULES.map((r) => [r.code, format(`severity.${r.severity}`, {}, lang), format(ruleDocId(r.code, 'summary'), {}, lang)])) + '\n';
}

/** `severity` stays the machine value (`error`); the texts are in `lang`. */
export function formatRulesJson(lang = 'en'): string {
  const text = (code: string, part: 'summary' | 'description' | 'source') => format(ruleDocId(code, part), {}, lang);
  const rules = RULES.map((r) => ({ code: r.code, severity: r.severity, summary: text(r.code, 'summary'), description: text(r.code, 'description'), source: text(r.code, 'source'), helpUri: ruleHelpUri(r.code, lang) }));
  return JSON.stringify(rules, null, 2) + '\n';
}
