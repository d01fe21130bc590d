import { readFileSync } from 'node:fs';
import { renderRuleDocs } from './ruleDocs.ts';
import { renderSemanticDiffDoc } from './diffDocs.ts';
import { DIFF_MESSAGES, IMPACT_RULES, RULES, type DiffRuleId } from '../server/src/service/host.ts';
import { renderEnglishBundle } from './l10nBundle.ts';
import { renderLocalisationDoc } from './localisationDoc.ts';
import { renderDryRunDoc } from './outcomeDocs.ts';
import { renderCliDoc } from './exitCodeDocs.ts';
import { renderVerbLexicon } from './verbLexicon.ts';
import { renderHelpTexts } from './helpTexts.ts';
import { renderContractValidators } from './contractValidators.ts';

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/**
 * The config schema with `rules` keys restricted to the rule codes and `diff.impacts` keys to the
 * semantic diff's impact rules, so editors complete and check them.
 */
function renderConfigSchema(): string {
  const schema = JSON.parse(readFileSync(new URL('../schemas/config.schema.json', import.meta.url), 'utf8'));
  schema.properties.rules.propertyNames = { type: 'string', enum: RULES.map((r) => r.code), enumDescriptions: RULES.map((r) => r.summary) };
  // Each impact rule described by its own impact, bump and reason (as docs/semantic-diff.md §9), in both languages.
  const zh = JSON.parse(readFileSync(new URL('../l10n/bundle.l10n.zh-cn.json', import.meta.url), 'utf8')) as Record<string, string>;
  const ids = (Object.keys(IMPACT_RULES) as DiffRuleId[]).sort();
  const describe = (id: DiffRuleId, impact: string, reason: string) => `${impact} (${IMPACT_RULES[id].bump}): ${reason}`;
  schema.properties.diff.properties.impacts.propertyNames = {
    type: 'string',
    enum: ids,
    enumDescriptions: ids.map((id) => describe(id, IMPACT_RULES[id].impact, DIFF_MESSAGES[id])),
    'x-l10n': { 'zh-cn': { enumDescriptions: ids.map((id) => describe(id, zh[`diff.impact.${IMPACT_RULES[id].impact}`]!, zh[`diff.${id}`]!)) } },
  };
  return json(schema);
}

/** Every generated file (path relative to the repository root) and how to render it. */
export const GENERATED: Record<string, () => string> = {
  'docs/rules.md': () => renderRuleDocs('en'),
  'docs/zh-cn/rules.md': () => renderRuleDocs('zh-cn'),
  'l10n/bundle.l10n.json': renderEnglishBundle,
  'docs/localisation.md': renderLocalisationDoc,
  'schemas/config.schema.json': renderConfigSchema,
  'docs/semantic-diff.md': renderSemanticDiffDoc,
  'docs/dry-run.md': renderDryRunDoc,
  'docs/cli.md': renderCliDoc,
  'server/src/service/validate/verbLexicon.json': renderVerbLexicon,
  'server/src/cli/helpTexts.json': renderHelpTexts,
  'server/src/service/validate/contractValidators.cjs': renderContractValidators,
};
