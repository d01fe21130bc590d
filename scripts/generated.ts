import { readFileSync } from 'node:fs';
import { renderRuleDocs } from './ruleDocs.ts';
import { renderSemanticDiffDoc } from './diffDocs.ts';
import { RULES } from '../server/src/service/index.ts';
import { renderEnglishBundle } from './l10nBundle.ts';
import { renderLocalisationDoc } from './localisationDoc.ts';
import { renderDryRunDoc } from './outcomeDocs.ts';

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** The config schema with `rules` keys restricted to the rule codes, so editors complete and check them. */
function renderConfigSchema(): string {
  const schema = JSON.parse(readFileSync(new URL('../schemas/config.schema.json', import.meta.url), 'utf8'));
  schema.properties.rules.propertyNames = { type: 'string', enum: RULES.map((r) => r.code), enumDescriptions: RULES.map((r) => r.summary) };
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
};
