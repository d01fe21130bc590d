/**
 * `agents-md check-mcp` (docs/enforcement.md, "A live MCP server") against real MCP servers the
 * test starts over stdio: a server written with the official SDK (test/mcp-fixtures/static-server.mjs)
 * listing tools with planted drift, the same server listing what `export --to mcp-tools` wrote from
 * the same contract (nothing to report), and our own `agents-md mcp`.
 * Run: node --import tsx --test test/checkMcp.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO, useCliBundle } from './helpers/cli.ts';

const { bundle: cli, scratch } = useCliBundle('check-mcp');
const FIXTURES = join(REPO, 'test', 'mcp-fixtures');
const SERVER = [process.execPath, join(FIXTURES, 'static-server.mjs')];

interface Finding {
  readonly code: string;
  readonly severity: string;
  readonly line: number;
  readonly args: Record<string, string>;
}
const findings = (stdout: string): Finding[] => (JSON.parse(stdout) as { diagnostics: Finding[] }[])[0]!.diagnostics;

test('every drift planted in the fixture server is found, at the contract line of its clause', async () => {
  const r = await cli.run(REPO, 'check-mcp', join(FIXTURES, 'AGENTS.md'), '-f', 'json', '--', ...SERVER, join(FIXTURES, 'drift-tools.json'));
  assert.equal(r.code, 1, r.stderr);
  const got = findings(r.stdout).map((f) => `${f.line} ${f.code} ${f.args['tool']} ${f.args['what'] ?? f.args['hint'] ?? f.args['property'] ?? ''}`);
  assert.deepEqual(got.sort(), [
    '14 mcp-forbidden wire_money ',
    '17 mcp-undeclared export_customer_data ',
    '23 mcp-annotation lookup_order idempotentHint',
    '26 mcp-schema lookup_order pattern',
    '26 mcp-schema lookup_order type',
    '32 mcp-annotation issue_refund destructiveHint',
    '32 mcp-annotation issue_refund readOnlyHint',
    '36 mcp-property issue_refund note',
    '36 mcp-required issue_refund amount',
    '36 mcp-schema issue_refund enum',
    '36 mcp-schema issue_refund maximum',
    '39 mcp-missing notify_customer ',
    '51 mcp-annotation open_ticket openWorldHint',
  ]);
  assert.equal(findings(r.stdout).filter((f) => f.severity === 'warning').length, 1);
});

test('--url: the same drift over Streamable HTTP from a server on 127.0.0.1', async () => {
  const server = spawn(process.execPath, [join(FIXTURES, 'static-server.mjs'), join(FIXTURES, 'drift-tools.json'), '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    // The server prints its URL once it listens.
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      server.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\n')) resolve(text.trim());
      });
      server.on('exit', (code) => reject(new Error(`the fixture server exited (${code})`)));
    });
    const r = await cli.run(REPO, 'check-mcp', join(FIXTURES, 'AGENTS.md'), '-f', 'json', '--url', url);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(findings(r.stdout).length, 13);
  } finally {
    server.kill();
  }
});

test('a server generated from the same contract by export --to mcp-tools has nothing to report', async () => {
  for (const contract of [join(FIXTURES, 'AGENTS.md'), join(REPO, 'samples', 'procurement-analyzer', 'AGENTS.md'), join(REPO, 'samples', 'after-sales-zh', 'AGENTS.md')]) {
    const dir = scratch.workspace({});
    const e = await cli.run(dir, 'export', contract, '--to', 'mcp-tools', '-o', 'tools.json');
    assert.equal(e.code, 0, e.stderr);
    const r = await cli.run(dir, 'check-mcp', contract, '--', ...SERVER, join(dir, 'tools.json'));
    assert.equal(r.code, 0, `${contract}: ${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /no problems in 1 file/);
  }
});

test('our own agents-md mcp server: the contract\'s tools are missing, its six tools undeclared', async () => {
  const r = await cli.run(REPO, 'check-mcp', 'samples/procurement-analyzer/AGENTS.md', '-f', 'json', '--', process.execPath, cli.bin, 'mcp');
  assert.equal(r.code, 1, r.stderr);
  const got = findings(r.stdout).map((f) => `${f.code} ${f.args['tool']}`);
  assert.deepEqual(got, ['mcp-missing check_inventory', 'mcp-missing create_approval_draft', 'mcp-undeclared lint', 'mcp-undeclared explain_rule', 'mcp-undeclared list_names', 'mcp-undeclared dry_run', 'mcp-undeclared diff', 'mcp-undeclared prove']);
});

test('SARIF output points at the contract; a server that is not on 127.0.0.1, or none, is a usage error', async () => {
  const r = await cli.run(REPO, 'check-mcp', join(FIXTURES, 'AGENTS.md'), '-f', 'sarif', '--', ...SERVER, join(FIXTURES, 'drift-tools.json'));
  assert.equal(r.code, 1);
  const results = (JSON.parse(r.stdout) as { runs: { results: { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[] }[] }).runs[0]!.results;
  assert.equal(results.length, 13);
  assert.ok(results.some((x) => x.ruleId === 'mcp-missing' && x.locations[0]!.physicalLocation.region.startLine === 39));
  const remote = await cli.run(REPO, 'check-mcp', join(FIXTURES, 'AGENTS.md'), '--url', 'https://example.com/mcp');
  assert.equal(remote.code, 2);
  assert.match(remote.stderr, /only servers on 127\.0\.0\.1 or localhost/);
  const none = await cli.run(REPO, 'check-mcp', join(FIXTURES, 'AGENTS.md'));
  assert.equal(none.code, 2);
  const dead = await cli.run(REPO, 'check-mcp', join(FIXTURES, 'AGENTS.md'), '--', process.execPath, '-e', 'process.exit(3)');
  assert.equal(dead.code, 2);
  assert.match(dead.stderr, /Could not read the tools of the MCP server/);
});
