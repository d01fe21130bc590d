/**
 * Which test files run where (README, "Tests"). `npm test` runs every test file not listed here in
 * one process (test/quick.ts), so tsx and the service load once; the files listed start the CLI,
 * the language server or other processes for most of their tests and run in `npm run test:all`
 * (test/run.ts), in a few worker processes (test/processShard.ts), with the bundles built once for
 * the run. A new file that starts
 * processes goes here (test/suites.test.ts says so); test/smoke.test.ts keeps one process test per
 * adapter (CLI, LSP over stdio, MCP) in the quick loop.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repo } from './helpers/bundles.ts';

export const PROCESS_SUITES: readonly string[] = [
  'test/actionBundle.test.ts',
  'test/attack/disk.test.ts',
  'test/attack/exports.test.ts',
  'test/attack/files.test.ts',
  'test/attack/lsp-features.test.ts',
  'test/attack/lsp-fuzz.test.ts',
  'test/attack/lsp-protocol.test.ts',
  'test/attack/parse-bounds.test.ts',
  'test/attack/peers.test.ts',
  'test/attack/run-cli.test.ts',
  'test/attack/terminal.test.ts',
  'test/attack/workspace-scale.test.ts',
  'test/attack/walk-cut.test.ts',
  'test/cedar.test.ts',
  'test/checkMcp.test.ts',
  'test/cli.test.ts',
  'test/cliCodeCache.test.ts',
  'test/cliStartup.test.ts',
  'test/cliSummaryStore.test.ts',
  'test/cliUsage.test.ts',
  'test/codeQuality.test.ts',
  'test/conformance.test.ts',
  'test/diff-hardening.test.ts',
  'test/diff-review.test.ts',
  'test/diff.test.ts',
  'test/diffL10n.test.ts',
  'test/export.test.ts',
  'test/fixes.test.ts',
  'test/freeformNote.test.ts',
  'test/lintWorkers.test.ts',
  'test/keystrokeMemory.test.ts',
  'test/lsp.test.ts',
  'test/lspConformance.test.ts',
  'test/lspDiff.test.ts',
  'test/lspEditor.test.ts',
  'test/lspOtlp.test.ts',
  'test/lspProve.test.ts',
  'test/lspRun.test.ts',
  'test/lspToolCost.test.ts',
  'test/lspTyping.test.ts',
  'test/lspWorkspace.test.ts',
  'test/mcp.test.ts',
  'test/otlp-export.test.ts',
  'test/preCommit.test.ts',
  'test/proveCli.test.ts',
  'test/providers.test.ts',
  'test/regexWorker.test.ts',
  'test/run-cli.test.ts',
  'test/run-hardening.test.ts',
  'test/run-l10n.test.ts',
  'test/run-record.test.ts',
  'test/tokenWorker.test.ts',
  'test/tokens.test.ts',
  'test/workspaceReport.test.ts',
];

/** Every test file (test/*.test.ts, test/attack/*.test.ts), repository-relative, sorted. */
export function allTestFiles(): string[] {
  return ['test', 'test/attack']
    .flatMap((dir) => readdirSync(join(repo, dir)).filter((n) => n.endsWith('.test.ts')).map((n) => `${dir}/${n}`))
    .sort();
}

/** The files `npm test` runs in one process. */
export function quickTestFiles(): string[] {
  return allTestFiles().filter((f) => !PROCESS_SUITES.includes(f));
}
