/**
 * `npm run bench`: runs every benchmark script in turn, each in its own process (docs/performance.md).
 * `--only a,b` runs a subset: a script's name (`run`, `server`, `typing`, `tables`, `workspace`, `startup`, `conformance`, `prove`) or one part
 * of a script (`typing:stdio`, `typing:memory`, `typing:large`, `typing:lint`). Other options pass through.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onlyList } from './only.ts';

const SCRIPTS = ['run', 'server', 'typing', 'tables', 'workspace', 'startup', 'conformance', 'prove'];
const only = onlyList(process.argv);
for (const name of SCRIPTS) {
  if (only && !only.some((o) => o === name || o.startsWith(`${name}:`))) continue;
  spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(`./${name}.ts`, import.meta.url)), ...process.argv.slice(2)], { stdio: 'inherit' });
}
