/**
 * Writes every generated file: docs/rules.md and docs/zh-cn/rules.md (from the rule catalogue),
 * l10n/bundle.l10n.json (every message catalogue), the impact rules table of docs/semantic-diff.md
 * (from the diff's rules and messages), the outcome-code table of docs/dry-run.md (from
 * OUTCOME_CODES), the exit-code table of docs/cli.md (from EXIT_HELP), the verb lists of the
 * tool-name rule (from en-lexicon), the alias tables of docs/localisation.md (from the schemas)
 * the rule list in schemas/config.schema.json, the CLI's help texts (server/src/cli/helpTexts.json) and the contract schema's,
 * the 2020-12 meta-schema's and the configuration file's validators as ajv's standalone code (server/src/service/validate/contractValidators.cjs); then rebuilds the committed GitHub Action
 * bundle, dist/action.cjs. Stops, writing nothing, when a message has no Simplified Chinese text
 * in l10n/bundle.l10n.zh-cn.json. Run with `npm run generate`; test/generated.test.ts fails when
 * a committed file drifts, test/actionBundle.test.ts when the Action bundle does.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GENERATED } from './generated.ts';
import { untranslated } from './l10nBundle.ts';

const root = new URL('..', import.meta.url);
const rendered = Object.entries(GENERATED).map(([path, render]) => [path, render()] as const);

const english = JSON.parse(rendered.find(([path]) => path === 'l10n/bundle.l10n.json')![1]) as Record<string, string>;
const chinese = JSON.parse(readFileSync(new URL('l10n/bundle.l10n.zh-cn.json', root), 'utf8')) as Record<string, unknown>;
const missing = untranslated(english, chinese);
if (missing.length > 0) {
  console.error(`npm run generate: ${missing.length} message(s) have no Simplified Chinese text in l10n/bundle.l10n.zh-cn.json (docs/localisation.md); nothing was written:`);
  for (const id of missing) console.error(`  ${JSON.stringify(id)}: ${JSON.stringify(english[id])}`);
  process.exit(1);
}

for (const [path, text] of rendered) {
  const url = new URL(path, root);
  mkdirSync(new URL('.', url), { recursive: true });
  writeFileSync(url, text);
  console.log(`wrote ${path}`);
}

// The Action runs from the repository without a build (docs/ci.md), so its bundle is committed.
execFileSync(process.execPath, ['esbuild.mjs', '--only', 'action'], { cwd: fileURLToPath(root), stdio: 'inherit' });
console.log('wrote dist/action.cjs');
