/**
 * `npm run test:e2e`: packages the extension once (`node scripts/package.mjs`, as `npm run package`)
 * and runs every test/e2e/*.e2e.ts with E2E_VSIX naming that package, so that each file installs
 * the same .vsix instead of packaging its own (about 20 s each). Arguments go to node's test
 * runner (`-- --test-name-pattern=…`). When the e2e tools are missing nothing is packaged and the
 * files skip (or fail, with E2E_REQUIRE=1) and say why, as they do alone.
 * Run: node --import tsx test/e2e/run.ts
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { e2eSkipReason, packageRepoExtension, REPO_DIR } from './codeServer.ts';

const files = readdirSync(join(REPO_DIR, 'test', 'e2e')).filter((n) => n.endsWith('.e2e.ts')).sort().map((n) => `test/e2e/${n}`);
const env = { ...process.env };
if (!e2eSkipReason() && !env['E2E_VSIX']) {
  const { vsix, ms } = await packageRepoExtension();
  console.log(`npm run package: ${ms} ms -> ${vsix} (installed by every e2e file)`);
  env['E2E_VSIX'] = vsix;
}
const args = ['--import', 'tsx', '--test', '--test-reporter=spec', ...process.argv.slice(2), ...files];
process.exit(spawnSync(process.execPath, args, { cwd: REPO_DIR, env, stdio: 'inherit' }).status ?? 1);
