/** The `rules` command's output: the rule catalogue as a table or as JSON. */
import { RULES } from '../../service/index.ts';
import { ruleHelpUri } from '../meta.ts';

export function formatRulesText(): string {
  const codeWidth = Math.max(...RULES.map((r) => r.code.length));
  const sevWidth = Math.max(...RULES.map((r) => r.severity.length));
  return RULES.map((r) => `${r.code.padEnd(codeWidth)}  ${r.severity.padEnd(sevWidth)}  ${r.summary}`).join('\n') + '\n';
}

export function formatRulesJson(): string {
  const rules = RULES.map((r) => ({ code: r.code, severity: r.severity, summary: r.summary, description: r.description, source: r.source, helpUri: ruleHelpUri(r.code) }));
  return JSON.stringify(rules, null, 2) + '\n';
}
