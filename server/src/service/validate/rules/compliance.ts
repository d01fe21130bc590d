import type { Rule } from '../rule.ts';
import { arr, FM, obj } from './util.ts';
import { normaliseName } from '../../model/names.ts';

export const complianceUnknownClause: Rule = {
  code: 'compliance-unknown-clause',
  severity: 'warning',
  summary: 'COMPLIANCE clauses can be found in the company\'s list of known clauses.',
  description: 'Each COMPLIANCE clause should be found by its number in the legal knowledge base. That knowledge base is outside the workspace, so its clause ids live in the config file\'s `complianceClauses`; without that list the rule stays quiet.',
  source: 'docs/contract-format.md §9, COMPLIANCE',
  needsWorkspace: true,
  messages: { default: 'Clause "{clause}" is not in the known compliance clauses of this workspace (complianceClauses in the config).' },
  examples: {
    bad: `${FM}\n## COMPLIANCE\n\n- **Clauses**: \`GDPR Art. 99\`\n`,
    good: `${FM}\n## COMPLIANCE\n\n- **Clauses**: \`GDPR Art. 30\`\n`,
    workspace: { config: { complianceClauses: ['GDPR Art. 30', 'ISO 27001 Annex A.9.4.2'] } },
    at: `⟦\`GDPR Art. 99\`⟧`,
  },
  *check({ data, config, locate }) {
    const known = config.complianceClauses;
    if (!known) return;
    const set = new Set(known.map((k) => k.toLowerCase()));
    const clauses = arr(obj(data['compliance'])?.['clauses']);
    for (let i = 0; i < clauses.length; i++) {
      const c = normaliseName(clauses[i]);
      if (!c || set.has(c.toLowerCase())) continue;
      const span = locate(`/compliance/clauses/${i}`);
      if (span) yield { code: 'compliance-unknown-clause', range: span.value, args: { clause: c } };
    }
  },
};

export const COMPLIANCE_RULES: readonly Rule[] = [complianceUnknownClause];
