/** The GitHub Action's entry (action.yml), bundled to dist/action.cjs: runs it with the environment GitHub sets. */
import { runActionGuarded } from './run.ts';

void runActionGuarded(process.env, (line) => process.stdout.write(`${line}\n`)).then((code) => {
  process.exitCode = code;
});
