/**
 * Writes every generated file: docs/rules.md (from the rule catalogue), the TextMate injection
 * grammars (from the section catalogue), the rule list in schemas/config.schema.json and the
 * impact rules table of docs/semantic-diff.md (from the diff's rules and messages). Run with
 * `npm run generate`; test/generated.test.ts fails when a committed file drifts.
 */
import { writeFileSync } from 'node:fs';
import { GENERATED } from './generated.ts';

for (const [path, render] of Object.entries(GENERATED)) {
  writeFileSync(new URL(`../${path}`, import.meta.url), render());
  console.log(`wrote ${path}`);
}
