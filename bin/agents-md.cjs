#!/usr/bin/env node
'use strict';
// Launcher of the agents-md CLI: loads the esbuild bundle (dist/cli.cjs) and exits with its code.
const path = require('node:path');

// Node 22.1 and later keep V8's compiled code on disk between runs (docs/performance.md,
// "Start-up"); Node 20 has no such cache and starts without it.
require('node:module').enableCompileCache?.();

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
