import type { Finding } from '../../model/types.ts';
import type { Rule, RuleFix } from '../rule.ts';
import { declarationsBroken, FM } from './util.ts';
import { referencesOf } from '../../model/references.ts';
import { closest } from '../../schema/normalise.ts';
import { locate } from '../../model/locate.ts';
import { only } from './schema.ts';
import { appendToList } from '../fixText.ts';

export const unknownPool: Rule = {
  code: 'unknown-pool',
  severity: 'error',
  scope: 'document',
  summary: 'Every memory requirement names a registered pool.',
  description: 'A boot-time check refuses to start the agent when a required pool is not registered. A pool is registered when MEMORY_POOLS of this contract declares it, another contract in the workspace declares it, or the config file lists it in `sharedPools`.',
  source: 'docs/contract-format.md §9, MEMORY_REQUIREMENTS',
  needsWorkspace: true,
  messages: { default: 'Pool "{pool}" is not registered: declare it in MEMORY_POOLS, in another contract, or in the config\'s sharedPools.' },
  examples: {
    bad: `${FM}\n## MEMORY_POOLS\n\n| Name | Content | Lifecycle |\n|---|---|---|\n| device_log | Fault logs per device | 90 days |\n\n## MEMORY_REQUIREMENTS\n\n\`\`\`yaml\n- pool: device_logs\n  required: true\n\`\`\`\n`,
    good: `${FM}\n## MEMORY_POOLS\n\n| Name | Content | Lifecycle |\n|---|---|---|\n| device_log | Fault logs per device | 90 days |\n\n## MEMORY_REQUIREMENTS\n\n\`\`\`yaml\n- pool: device_log\n  required: true\n\`\`\`\n`,
    at: `⟦device_logs⟧`,
  },
  *check({ model, facts, locate, section }) {
    if (declarationsBroken(section, 'memory_pools')) return;
    const refs = referencesOf(model);
    const pools = refs.names.get('pool');
    const registry = locate('/memory_pools');
    for (const r of refs.references) {
      if (r.kind !== 'pool' || r.via !== 'field') continue;
      if (pools?.has(r.name) || facts.externalPools.has(r.name)) continue;
      yield { code: 'unknown-pool', range: r.range, args: { pool: r.name }, ...(registry ? { related: [{ range: registry.value, messageId: 'related.poolsDeclared' }] } : {}) };
    }
  },
};

export const templateUnknownEntity: Rule = {
  code: 'template-unknown-entity',
  severity: 'error',
  fixKind: 'quickfix',
  scope: 'document',
  summary: 'Template variables refer to declared `required_entities`.',
  description: '`{{extracted_device_id}}` is filled from the entity `device_id` that TRIGGER extracts from the query. A template that names no declared entity stays empty at run time and the filter matches nothing. Templates follow a small documented subset: `{{name}}` and `{{name[:n]}}` (a prefix). A name close to a declared entity gets a "did you mean" and a fix; the quick fix for another name adds it to `required_entities`.',
  source: 'docs/contract-format.md §7.2 (templates)',
  messages: {
    default: 'Template {template} refers to entity "{entity}", which TRIGGER does not declare in required_entities.',
    suggest: 'Template {template} refers to entity "{entity}", which TRIGGER does not declare in required_entities. Did you mean "{suggestion}"?',
    syntax: 'Template {template} is not in the supported form {{name}} or {{name[:n]}}.',
  },
  examples: {
    bad: `${FM}\n## TRIGGER\n\n\`\`\`yaml\nrequired_entities: [device_id]\n\`\`\`\n\n## MEMORY_REQUIREMENTS\n\n\`\`\`yaml\n- pool: device_log\n  filters:\n    - field: line_id\n      value: "{{extracted_line_id}}"\n\`\`\`\n`,
    good: `${FM}\n## TRIGGER\n\n\`\`\`yaml\nrequired_entities: [device_id]\n\`\`\`\n\n## MEMORY_REQUIREMENTS\n\n\`\`\`yaml\n- pool: device_log\n  filters:\n    - field: device_id\n      value: "{{extracted_device_id}}"\n\`\`\`\n`,
    at: `⟦{{extracted_line_id}}⟧`,
    fixed: `${FM}\n## TRIGGER\n\n\`\`\`yaml\nrequired_entities: [device_id, line_id]\n\`\`\`\n\n## MEMORY_REQUIREMENTS\n\n\`\`\`yaml\n- pool: device_log\n  filters:\n    - field: line_id\n      value: "{{extracted_line_id}}"\n\`\`\`\n`,
  },
  *check({ model, locate, section }): Generator<Finding> {
    if (declarationsBroken(section, 'trigger')) return;
    const refs = referencesOf(model);
    const entities = refs.names.get('entity');
    const trigger = locate('/trigger/required_entities') ?? locate('/trigger');
    for (const t of refs.templates) {
      if (!t.variable) {
        yield { code: 'template-unknown-entity', range: t.range, args: { template: t.raw }, variant: 'syntax' };
        continue;
      }
      // `{{query}}` is the user's query itself (docs/contract-format.md, "Templates").
      if (t.variable === 'query' || entities?.has(t.entity!) || entities?.has(t.variable)) continue;
      const suggestion = closest(t.entity!, entities?.keys() ?? []);
      yield { code: 'template-unknown-entity', range: t.range, args: { template: t.raw, entity: t.entity!, ...(suggestion ? { suggestion } : {}) }, ...(suggestion ? { variant: 'suggest' } : {}), ...(trigger ? { related: [{ range: trigger.value, messageId: 'related.entitiesDeclared' }] } : {}) };
    }
  },
  fix: (d, model): RuleFix | undefined => {
    // A near declared name replaces the template's (safe); another entity is added to TRIGGER's list.
    const entity = d.args?.['entity'];
    if (entity === undefined) return undefined;
    const suggestion = d.args?.['suggestion'];
    if (suggestion !== undefined) {
      const range = only(model, d.range, String(entity));
      return range ? { titleId: 'action.changeValue', titleArgs: { value: String(suggestion) }, edits: [{ range, newText: String(suggestion) }], safe: true } : undefined;
    }
    const list = locate(model, '/trigger/required_entities', true);
    const edit = list && appendToList(model, list.value, String(entity));
    return edit ? { titleId: 'action.declareEntity', titleArgs: { entity: String(entity) }, edits: [edit], safe: false } : undefined;
  },
};

export const MEMORY_REQUIREMENTS_RULES: readonly Rule[] = [unknownPool, templateUnknownEntity];
