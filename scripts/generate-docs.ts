/** Writes the generated docs (docs/rules.md). Run with `npm run docs`; tests fail when they drift. */
import { writeFileSync } from 'node:fs';
import { renderRuleDocs } from './ruleDocs.ts';

writeFileSync(new URL('../docs/rules.md', import.meta.url), renderRuleDocs());
console.log('wrote docs/rules.md');
