/** The GitHub Action's entry (action.yml), bundled to dist/action.cjs: runs it with the environment GitHub sets. */
import { runAction } from './run.ts';

runAction(process.env, (line) => process.stdout.write(`${line}\n`)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stdout.write(`::error::agents-md: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  },
);
