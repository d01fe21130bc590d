import type { Rule } from '../rule.ts';
import { declarationsBroken, FM } from './util.ts';
import type { RelatedFinding } from '../../model/types.ts';
import { referencesOf } from '../../model/references.ts';
import { locate } from '../../model/locate.ts';
import { appendToList, endOfContent, lineAfter, siblingLine } from '../fixText.ts';

export const writeRoleUnauthorized: Rule = {
  code: 'write-role-unauthorized',
  severity: 'error',
  fixKind: 'quickfix',
  scope: 'document',
  summary: 'Every `Write By` role in MEMORY_CONTRACT is authorised in AGENT_IDENTITY.',
  description: 'Each role allowed to write a memory layer must be authorised by the identity section. List the roles under `**Authorized Writers**` in AGENT_IDENTITY; the agent\'s own name and the roles in the config file\'s `roles` (default `System`, `System Auto`, `Human`) are always authorised. Roles are split on `,` `，` `、` `+` `/` `;` `；`, and qualifiers in parentheses (`()` or `（）`) are dropped: `FinanceBot (Auto), Human (Override)` names `FinanceBot` and `Human`.',
  source: 'docs/contract-format.md §9, MEMORY_CONTRACT',
  messages: {
    default: 'Role "{role}" may write {layer} but AGENT_IDENTITY does not authorise it. Add it to "Authorized Writers".',
    agent: 'Role "{role}" (an agent declared in {uri}) may write {layer} but AGENT_IDENTITY does not authorise it. Add it to "Authorized Writers".',
  },
  examples: {
    bad: `${FM}\n## AGENT_IDENTITY\n\n- **Name**: \`ProcurementAnalyzer\`\n- **Authorized Writers**: Human Reviewer\n\n## MEMORY_CONTRACT\n\n| Layer | Read By | Write By | Retention |\n|---|---|---|---|\n| Cognitive Fact | ProcurementAnalyzer | BudgetBot (Auto), Human (Override) | 30 days |\n`,
    good: `${FM}\n## AGENT_IDENTITY\n\n- **Name**: \`ProcurementAnalyzer\`\n- **Authorized Writers**: BudgetBot, Human Reviewer\n\n## MEMORY_CONTRACT\n\n| Layer | Read By | Write By | Retention |\n|---|---|---|---|\n| Cognitive Fact | ProcurementAnalyzer | BudgetBot (Auto), Human (Override) | 30 days |\n`,
    at: `⟦BudgetBot⟧`,
    fixed: `${FM}\n## AGENT_IDENTITY\n\n- **Name**: \`ProcurementAnalyzer\`\n- **Authorized Writers**: Human Reviewer, BudgetBot\n\n## MEMORY_CONTRACT\n\n| Layer | Read By | Write By | Retention |\n|---|---|---|---|\n| Cognitive Fact | ProcurementAnalyzer | BudgetBot (Auto), Human (Override) | 30 days |\n`,
  },
  *check({ model, data, facts, locate, section }) {
    if (declarationsBroken(section, 'identity')) return;
    const refs = referencesOf(model);
    const declared = refs.names.get('role') ?? new Map();
    const builtin = new Set(facts.config.roles.map((r) => r.toLowerCase()));
    const writers = locate('/identity/authorized_writers') ?? locate('/identity');
    for (const r of refs.references) {
      if (r.kind !== 'role') continue;
      if (declared.has(r.name) || builtin.has(r.name.toLowerCase())) continue;
      if ([...declared.keys()].some((d) => d.toLowerCase() === r.name.toLowerCase())) continue;
      const row = /^\/memory_contract\/(\d+)/.exec(r.pointer);
      // A row without a layer name is named by its number, which reads the same in every language.
      const layer = row ? String((data['memory_contract'] as Record<string, unknown>[] | undefined)?.[Number(row[1])]?.['layer'] ?? `#${Number(row[1]) + 1}`) : '#?';
      const agent = facts.externalAgents.get(r.name)?.[0];
      const related: RelatedFinding[] = [
        ...(writers ? [{ range: writers.key ?? writers.value, messageId: 'related.authorisedRoles' as const }] : []),
        ...(agent ? [{ uri: agent.uri, range: agent.range, messageId: 'related.roleDeclared' as const, args: { role: r.name } }] : []),
      ];
      yield {
        code: 'write-role-unauthorized',
        range: r.range,
        args: { role: r.name, layer, ...(agent ? { uri: agent.uri } : {}) },
        ...(agent ? { variant: 'agent' } : {}),
        related,
      };
    }
  },
  fix: (d, model) => {
    // The role goes into AGENT_IDENTITY's **Authorized Writers** list, or a new bullet with it.
    const role = d.args?.['role'];
    if (role === undefined) return undefined;
    const title = { titleId: 'action.authoriseWriter', titleArgs: { role: String(role) }, safe: false };
    const list = locate(model, '/identity/authorized_writers', true);
    if (list) {
      const edit = appendToList(model, list.value, String(role));
      return edit ? { ...title, edits: [edit] } : undefined;
    }
    const identity = model.owners.get('identity');
    if (!identity || identity.kind !== 'section') return undefined;
    const last = endOfContent(model, identity).line;
    const form = siblingLine(model, last);
    if (form?.kind !== 'bullet') return undefined;
    return { ...title, edits: [lineAfter(model, last, `${form.indent}- **Authorized Writers**: ${role}`)] };
  },
};

export const MEMORY_CONTRACT_RULES: readonly Rule[] = [writeRoleUnauthorized];
