import type { Finding } from '../../model/types.ts';
import type { Rule } from '../rule.ts';
import { arr, FM, obj, str } from './util.ts';
import { referencesOf } from '../../model/references.ts';
import { unquote } from '../../model/names.ts';

export const resourceMissing: Rule = {
  code: 'resource-missing',
  severity: 'error',
  summary: 'External resources a contract references exist in the workspace.',
  description: 'Every external resource referenced in an AGENTS.md (CSV, API endpoint, model id) must exist under configs/resources/ and pass its SHA-256 check. A backticked file name (`vendor_whitelist.csv`) is looked up next to the contract, at the workspace root and under each `resourceRoots` folder of the config (default `configs/resources`). When there is no workspace to look in (a file opened alone), the rule says it could not check.',
  source: 'docs/contract-format.md §9, RESOURCES',
  needsWorkspace: true,
  messages: {
    default: 'Resource `{name}` was not found (looked in {tried}).',
    outside: 'Resource `{name}` lies outside the workspace folder: resources are looked up and read inside it only (docs/robustness.md).',
  },
  examples: {
    bad: `${FM}\n## AGENT_IDENTITY\n\n- **Core Mandate**: "Only handle vendors in \`vendor_whitelist_v9.csv\`"\n`,
    good: `${FM}\n## AGENT_IDENTITY\n\n- **Core Mandate**: "Only handle vendors in \`vendor_whitelist.csv\`"\n`,
    workspace: { files: { 'configs/resources/vendor_whitelist.csv': 'vendor,domain\nAcme,acme.example\n' } },
    at: `⟦vendor_whitelist_v9.csv⟧`,
  },
  *check({ model, facts }): Generator<Finding> {
    const { references } = referencesOf(model);
    const seen = new Set<string>();
    for (const r of references) {
      if (r.kind !== 'resource') continue;
      const status = facts.resources.get(r.name);
      if (!status || status.status === 'found') continue;
      const key = `${r.name}@${r.range.start.line}:${r.range.start.character}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (status.status === 'outside') yield { code: 'resource-missing', range: r.range, args: { name: r.name }, variant: 'outside' };
      else if (status.status === 'missing') yield { code: 'resource-missing', range: r.range, args: { name: r.name, tried: status.tried.join(', ') } };
      else if (status.reason === 'too-large') yield { code: 'resource-unchecked', range: r.range, args: { name: r.name, size: status.size, limit: status.limit }, variant: 'tooLarge' };
      else yield { code: 'resource-unchecked', range: r.range, args: { name: r.name } };
    }
  },
};

export const resourceUnchecked: Rule = {
  code: 'resource-unchecked',
  severity: 'info',
  summary: 'Says plainly when a referenced resource could not be checked.',
  description: 'A file opened on its own has no workspace to look in, and a resource over the hashing limit is not hashed. Rather than pass silently, the reference is marked so that the reader knows the check did not run. Findings of this rule come from `resource-missing`\'s lookup.',
  source: 'docs/contract-format.md §9, RESOURCES',
  needsWorkspace: true,
  messages: {
    default: 'Resource `{name}` could not be checked: the file is not in a workspace folder.',
    tooLarge: 'Resource `{name}` could not be checked: it is {size} bytes, over the hashing limit of {limit} bytes.',
  },
  examples: { bad: '', good: '' },
};

export const resourceHashMismatch: Rule = {
  code: 'resource-hash-mismatch',
  severity: 'error',
  fixKind: 'quickfix',
  summary: 'A resource listed in RESOURCES with a SHA-256 matches that hash.',
  description: 'Two agents pinned to different versions of the same whitelist give contradictory answers about one vendor. Record each resource\'s SHA-256 in a RESOURCES table; the check recomputes it from the file in the workspace. Update the hash (the quick fix does) when the change to the file is intended.',
  source: 'docs/contract-format.md §9, RESOURCES',
  needsWorkspace: true,
  messages: { default: 'Resource `{name}` has SHA-256 {actual}, not the {expected} recorded here.' },
  examples: {
    bad: `${FM}\n## RESOURCES\n\n| Path | SHA-256 |\n|---|---|\n| \`configs/resources/empty.csv\` | 0000000000000000000000000000000000000000000000000000000000000000 |\n`,
    good: `${FM}\n## RESOURCES\n\n| Path | SHA-256 |\n|---|---|\n| \`configs/resources/empty.csv\` | e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 |\n`,
    workspace: { files: { 'configs/resources/empty.csv': '' } },
    at: `⟦0000000000000000000000000000000000000000000000000000000000000000⟧`,
    fixed: true,
  },
  *check({ data, facts, locate }) {
    const rows = arr(data['resources']);
    for (let i = 0; i < rows.length; i++) {
      const row = obj(rows[i]);
      const name = unquote(row?.['path']);
      const expected = str(row?.['sha256'])?.toLowerCase();
      const status = facts.resources.get(name);
      if (!expected || !status || status.status !== 'found' || status.sha256 === undefined || status.sha256 === expected) continue;
      const span = locate(`/resources/${i}/sha256`);
      if (span) yield { code: 'resource-hash-mismatch', range: span.value, args: { name, actual: status.sha256, expected } };
    }
  },
  fix: (d) => (d.args?.['actual'] ? { titleId: 'action.recordHash', titleArgs: { name: String(d.args['name']) }, edits: [{ range: d.range, newText: String(d.args['actual']) }], safe: false } : undefined),
};

export const RESOURCES_RULES: readonly Rule[] = [resourceMissing, resourceUnchecked, resourceHashMismatch];
