/**
 * Writes every generated file: docs/rules.md and docs/zh-cn/rules.md (from the rule catalogue),
 * l10n/bundle.l10n.json (every message catalogue), the impact rules table of docs/semantic-diff.md
 * (from the diff's rules and messages), the outcome-code table of docs/dry-run.md (from
 * OUTCOME_CODES), the exit-code table of docs/cli.md (from EXIT_HELP), the verb lists of the tool-name rule (from en-lexicon), the alias tables of docs/localisation.md (from
 * the schemas) and the rule list in
 * schemas/config.schema.json. Run with `npm run generate`; test/generated.test.ts fails when a
 * committed file drifts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { GENERATED } from './generated.ts';

for (const [path, render] of Object.entries(GENERATED)) {
  const url = new URL(`../${path}`, import.meta.url);
  mkdirSync(new URL('.', url), { recursive: true });
  writeFileSync(url, render());
  console.log(`wrote ${path}`);
}
