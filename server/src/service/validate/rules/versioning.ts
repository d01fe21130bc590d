import type { Rule } from '../rule.ts';
import { arr, obj, str } from './util.ts';
import { normaliseVersion, SEMVER } from '../../model/version.ts';
import { sectionByKey } from '../../schema/sections.ts';
import { appendSection, lineAfter, sectionSkeleton } from '../fixText.ts';
import { only } from './schema.ts';

export const invalidVersion: Rule = {
  code: 'invalid-version',
  severity: 'error',
  fixKind: 'quickfix',
  summary: 'The contract\'s `version` is a semantic version.',
  description: 'The `version` must follow semver (MAJOR.MINOR.PATCH), so that the semantic diff can say which bump a change needs. A leading `v` is accepted. The quick fix completes a short version with zeros (`2.3` → `2.3.0`).',
  source: 'docs/contract-format.md §6 (front matter); docs/semantic-diff.md §7 (version advice)',
  messages: { default: 'Version "{version}" is not a semantic version (MAJOR.MINOR.PATCH, e.g. 2.3.1).' },
  examples: { bad: '---\ncontract: true\nname: demo\nversion: 2.3\n---\n', good: '---\ncontract: true\nname: demo\nversion: 2.3.0\n---\n', at: `⟦2.3⟧`, fixed: true },
  *check({ data, locate }) {
    const v = data['version'];
    if (v === undefined || v === null) return;
    if (SEMVER.test(normaliseVersion(v))) return;
    const span = locate('/version');
    if (span) yield { code: 'invalid-version', range: span.value, args: { version: String(v) } };
  },
  fix: (d, model) => {
    // Only a short version (`2`, `2.3`, `v2.3`) has one reading: the missing parts are zeros.
    const v = String(d.args?.['version'] ?? '');
    const short = /^v?(\d+)(?:\.(\d+))?$/.exec(v);
    const range = short && only(model, d.range, v);
    if (!short || !range) return undefined;
    const full = `${short[1]}.${short[2] ?? '0'}.0`;
    return { titleId: 'action.changeValue', titleArgs: { value: full }, edits: [{ range, newText: full }], safe: false };
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
    at: `⟦2.3.1⟧`,
    fixed: `---\ncontract: true\nname: demo\nversion: 2.3.1\n---\n\n## VERSIONING & AUDIT\n\n| Version | Date | Changed By | Key Changes |\n|---|---|---|---|\n| 2.3.1 | 2026-12-01 | @you | <what changed> |\n| v2.3.0 | 2024-05-18 | @legal | Updated COMPLIANCE |\n`,
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
  fix: (d, model, { today }) => {
    // The row goes first under the table's header (newest first); without the section, the section with the row.
    const v = String(d.args?.['version'] ?? model.data['version'] ?? '');
    const section = model.owners.get('versioning');
    const table = section?.kind === 'section' ? section.tables[0] : undefined;
    if (section && table) return { titleId: 'action.addAuditRow', titleArgs: { version: v }, edits: [lineAfter(model, table.start.line + 1, `| ${v} | ${today} | @you | <what changed> |`)], safe: false };
    if (section) return undefined;
    const spec = sectionByKey('versioning')!;
    return { titleId: 'action.addVersioning', titleArgs: { version: v }, edits: [appendSection(model, spec, sectionSkeleton(spec, { version: v, today }))], safe: false };
  },
};

export const VERSIONING_RULES: readonly Rule[] = [invalidVersion, versionNotAudited];
