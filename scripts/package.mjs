// `npm run package`: builds minified bundles and packages the extension as a .vsix with
// @vscode/vsce, pinned in devDependencies to 3.9.2, the last release that runs on Node 20 (the Node
// this project requires; vsce 4 needs Node 22). So `npm ci` alone is enough to package.
import { cpSync, readFileSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const vsce = join(createRequire(import.meta.url).resolve('@vscode/vsce/package.json'), '..', 'vsce');
const { version, name } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const out = join(root, 'dist', `${name}-${version}.vsix`);
const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
step(process.execPath, ['esbuild.mjs', '--minify', '--only', 'client,server']);
// Z3, which `prove` loads on first use (node/z3Solver.ts), reads its .wasm and starts its threads
// from its own files: it ships as a package beside the server bundle, where the server's require
// finds it (dist/node_modules), with the two small packages it needs.
const shipped = join(root, 'dist', 'node_modules');
rmSync(shipped, { recursive: true, force: true });
for (const pkg of ['z3-solver', 'async-mutex', 'tslib']) cpSync(join(root, 'node_modules', pkg), join(shipped, pkg), { recursive: true });
step(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', out]);
console.log(`${out} (${(statSync(out).size / 1024).toFixed(0)} KiB)`);
