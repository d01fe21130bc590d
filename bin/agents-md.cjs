#!/usr/bin/env node
'use strict';
// Launcher of the agents-md CLI: loads the esbuild bundle (dist/cli.cjs) and exits with its code.
const path = require('node:path');

// Node 22.1 and later keep V8's compiled code on disk between runs (docs/performance.md,
// "Start-up"); Node 20 has no such cache and starts without it.
require('node:module').enableCompileCache?.();

// Help and the version come from a small bundle of their texts (server/src/cli/quickHelp.ts), so
// that `agents-md --help` does not load the CLI; it answers nothing for anything else.
const quick = path.join(__dirname, '..', 'dist', 'quickHelp.cjs');
let answer;
try {
  answer = require(quick).quickAnswer(process.argv.slice(2), process.env, Intl.DateTimeFormat().resolvedOptions().locale, process.stdout);
} catch (e) {
  if (!(e && e.code === 'MODULE_NOT_FOUND' && String(e.message).includes(quick))) throw e;
}
if (answer !== undefined) {
  // Output piped into `head` closes early: not an error (as in the CLI, cli/main.ts).
  process.stdout.on('error', (e) => {
    if (e.code !== 'EPIPE') throw e;
  });
  process.stdout.write(answer);
  return;
}

const bundle = path.join(__dirname, '..', 'dist', 'cli.cjs');
let cli;
try {
  cli = require(bundle);
} catch (e) {
  if (e && e.code === 'MODULE_NOT_FOUND' && String(e.message).includes(bundle)) {
    process.stderr.write(`agents-md: ${bundle} is missing: run "npm run build" first.\n`);
    process.exit(2);
  }
  throw e;
}

cli.main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`agents-md: internal error: ${(e && e.stack) || e}\n`);
    process.exitCode = 2;
  },
);
