// `npm run package`: builds minified bundles and packages the extension as a .vsix with
// @vscode/vsce. vsce 4 needs Node 22+, so it runs on the Node 24 that the e2e tooling brings
// (bash test/e2e/setup.sh); without it this script says so and exits 2.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const node24 = join(root, 'test/e2e/node_modules/node/bin/node');
const vsce = join(root, 'test/e2e/node_modules/@vscode/vsce/vsce');
if (!existsSync(node24) || !existsSync(vsce)) {
  console.error('npm run package needs @vscode/vsce on Node 24, which the e2e tooling installs: run `bash test/e2e/setup.sh` first.');
  process.exit(2);
}
const { version, name } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const out = join(root, 'dist', `${name}-${version}.vsix`);
const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
step(process.execPath, ['esbuild.mjs', '--minify', '--only', 'client,server']);
step(node24, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', out]);
console.log(`${out} (${(statSync(out).size / 1024).toFixed(0)} KiB)`);
