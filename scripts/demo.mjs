// `npm run demo`: the main job on the samples. Lints samples/ (where samples/broken breaks every
// rule on purpose, so the CLI exits 1), then the passing samples alone (exit 0). The demo itself
// succeeds when both exit codes are the expected ones.
import { spawnSync } from 'node:child_process';

const run = (args) => {
  console.log(`\n$ agents-md ${args.join(' ')}`);
  return spawnSync(process.execPath, ['bin/agents-md.cjs', ...args], { stdio: 'inherit' }).status;
};

const all = run(['lint', 'samples/']);
console.log(`(exit code ${all}: samples/broken/AGENTS.md is broken on purpose)`);
const good = run(['lint', 'samples/device-diagnosis', 'samples/procurement-analyzer', 'samples/contract-extraction', 'samples/after-sales-zh', 'samples/coding-agent']);
console.log(`(exit code ${good})`);
process.exit(all === 1 && good === 0 ? 0 : 1);
