import type { Rule } from '../rule.ts';
import { arr, FM, obj, str } from './util.ts';
import { normaliseVersion, SEMVER } from '../../model/version.ts';

export const invalidVersion: Rule = {
  code: 'invalid-version',
  severity: 'error',
  summary: 'The contract\'s `version` is a semantic version.',
  description: 'The `version` must follow semver (MAJOR.MINOR.PATCH), so that the semantic diff can say which bump a change needs. A leading `v` is accepted.',
  source: 'docs/contract-format.md §6 (front matter); docs/semantic-diff.md §7 (version advice)',
  messages: { default: 'Version "{version}" is not a semantic version (MAJOR.MINOR.PATCH, e.g. 2.3.1).' },
  examples: { bad: '---\ncontract: true\nname: demo\nversion: 2.3\n---\n', good: '---\ncontract: true\nname: demo\nversion: 2.3.0\n---\n' },
  *check({ data, locate }) {
    const v = data['version'];
    if (v === undefined || v === null) return;
    if (SEMVER.test(normaliseVersion(v))) return;
    const span = locate('/version');
    if (span) yield { code: 'invalid-version', range: span.value, args: { version: String(v) } };
  },
};

export const versionNotAudited: Rule = {
  code: 'version-not-audited',
  severity: 'error',
  fixKind: 'quickfix',
  scope: 'document',
  summary: 'The current `version` has a row in VERSIONING & AUDIT.',
  description: 'Every change must be traceable. When the front matter says 2.3.1 but the audit table stops at 2.3.0, nobody recorded who changed what. The quick fix adds the row.',
  source: 'docs/contract-format.md §9, VERSIONING & AUDIT',
  messages: { default: 'Version {version} has no row in VERSIONING & AUDIT. Add "| {version} | <date> | <who> | <what changed> |".' },
  examples: {
    bad: `---\ncontract: true\nname: demo\nversion: 2.3.1\n---\n\n## VERSIONING & AUDIT\n\n| Version | Date | Changed By | Key Changes |\n|---|---|---|---|\n| v2.3.0 | 2024-05-18 | @legal | Updated COMPLIANCE |\n`,
    good: `---\ncontract: true\nname: demo\nversion: 2.3.1\n---\n\n## VERSIONING & AUDIT\n\n| Version | Date | Changed By | Key Changes |\n|---|---|---|---|\n| v2.3.1 | 2024-05-22 | @dev-ops | Added a fallback for whitelist sync failures |\n| v2.3.0 | 2024-05-18 | @legal | Updated COMPLIANCE |\n`,
  },
  *check({ data, locate }) {
    const v = str(data['version']);
    if (!v) return;
    const rows = arr(data['versioning']);
    if (rows.some((r) => normaliseVersion(obj(r)?.['version']) === normaliseVersion(v))) return;
    const span = locate('/version');
    const table = locate('/versioning');
    if (span) yield { code: 'version-not-audited', range: span.value, args: { version: v }, ...(table ? { related: [{ range: table.value, messageId: 'related.auditTable' }] } : {}) };
  },
};

export const VERSIONING_RULES: readonly Rule[] = [invalidVersion, versionNotAudited];
