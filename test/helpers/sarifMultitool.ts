/**
 * Microsoft's SARIF Multitool with GitHub code scanning's rules, for the tests that check the SARIF
 * the CLI and the Action write (docs/cli.md, docs/ci.md). It is installed apart from the project
 * (`npm ci --prefix tools/sarif`); without it the tests skip and say why.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Sarif from 'sarif';
import { REPO } from './cli.ts';

/** Why the Multitool tests skip when it is not installed. */
export const MULTITOOL_MISSING = 'SARIF Multitool not installed: run npm ci --prefix tools/sarif';

/** The Multitool's executable, or undefined when tools/sarif is not installed. */
export function sarifMultitool(): string | undefined {
  try {
    const path = createRequire(join(REPO, 'tools', 'sarif', 'package.json'))('@microsoft/sarif-multitool') as string;
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** One finding of the Multitool about a SARIF file. */
export interface MultitoolFinding {
  readonly rule: string | undefined;
  readonly level: string;
  readonly text: string | undefined;
}

/**
 * Validates SARIF files with the Multitool (`--rule-kind Sarif;Gh`, the repository's config) and
 * returns its findings (a missing level is SARIF's default, `warning`). Asserts the validator ran.
 */
export function validateSarif(multitool: string, inputs: readonly string[], output: string): MultitoolFinding[] {
  // Multitool exits 0 even when it reports errors: its own SARIF log (--output) is what tells.
  // It is a self-contained .NET app: without libicu it aborts, so run it in invariant mode.
  const v = spawnSync(multitool, ['validate', ...inputs, '--rule-kind', 'Sarif;Gh', '--config', join(REPO, 'tools', 'sarif', 'validate.config.xml'), '--output', output, '--log', 'ForceOverwrite'], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: '1' },
  });
  if (v.error) throw v.error;
  assert.equal(v.status, 0, `Sarif.Multitool failed:\n${v.stdout}\n${v.stderr}`);
  const run = (JSON.parse(readFileSync(output, 'utf8')) as Sarif.Log).runs[0]!;
  assert.notEqual(run.invocations?.[0]?.executionSuccessful, false, v.stdout);
  return (run.results ?? []).map((r) => ({ rule: r.ruleId, level: r.level ?? 'warning', text: r.message.text ?? r.message.id }));
}

/** The findings that make a SARIF file fail: errors and warnings. */
export const sarifProblems = (findings: readonly MultitoolFinding[]) => findings.filter((f) => f.level === 'error' || f.level === 'warning');
