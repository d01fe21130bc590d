/**
 * `agents-md mcp` driven as a coding agent drives it: the MCP TypeScript SDK's own Client over
 * stdio, talking to the real CLI bundle (docs/mcp.md). Checks the tools' answers, that paths
 * outside the root are refused, that a dry run writes only its run folder, and bounded answers.
 * Run: node --import tsx --test test/mcp.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { REPO, useCliBundle } from './helpers/cli.ts';

const { bundle: cli, scratch } = useCliBundle('mcp');
let dir = '';
let client: Client;

/** Every file under `root` (relative paths), to see what a tool wrote. */
function tree(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(root.length + 1)).sort();
}

before(async () => {
  dir = scratch.workspace({});
  cpSync(join(REPO, 'samples/device-diagnosis'), dir, { recursive: true });
  writeFileSync(join(dir, 'v1.md'), readFileSync(join(dir, 'AGENTS.md'), 'utf8'));
  writeFileSync(join(dir, 'v2.md'), readFileSync(join(dir, 'AGENTS.md'), 'utf8').replace(/  - name: create_repair_ticket[\s\S]*?(?=\n```)/, ''));
  const outside = scratch.workspace({ 'secret.md': '# secret\n' });
  symlinkSync(join(outside, 'secret.md'), join(dir, 'link.md'));
  const env = { ...process.env, LANG: 'C.UTF-8' } as Record<string, string>;
  client = new Client({ name: 'agents-md-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli.bin, 'mcp', '--root', dir], env, stderr: 'pipe' }));
});

after(async () => {
  await client?.close();
});

type Json = Record<string, any>;
async function call(name: string, args: Json): Promise<{ data: Json; text: string; isError: boolean }> {
  const r = (await client.callTool({ name, arguments: args })) as { content: { type: string; text: string }[]; structuredContent?: Json; isError?: boolean };
  return { data: r.structuredContent ?? {}, text: r.content[0]!.text, isError: r.isError === true };
}

test('the server lists its six tools with descriptions, input schemas and annotations', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ['lint', 'explain_rule', 'list_names', 'dry_run', 'diff', 'prove']);
  for (const t of tools) assert.ok(t.description && t.description.length > 40 && t.inputSchema.type === 'object', t.name);
  assert.equal(tools.find((t) => t.name === 'lint')!.annotations?.readOnlyHint, true);
  assert.equal(tools.find((t) => t.name === 'dry_run')!.annotations?.readOnlyHint, false);
  assert.equal(tools.find((t) => t.name === 'prove')!.annotations?.readOnlyHint, true);
});

test('lint: findings with codes, ranges, locations and fixes', async () => {
  const clean = await call('lint', { path: 'AGENTS.md' });
  assert.equal(clean.isError, false, clean.text);
  assert.deepEqual(clean.data['findings'], []);
  writeFileSync(join(dir, 'bad.md'), readFileSync(join(REPO, 'samples/broken/AGENTS.md'), 'utf8'));
  const bad = await call('lint', { path: 'bad.md' });
  const schema = (bad.data['findings'] as Json[]).find((f) => f.code === 'tool-missing-schema')!;
  // The tool samples/broken declares without schemas: its name in the H3 (line numbers move as the sample grows).
  const line = readFileSync(join(REPO, 'samples/broken/AGENTS.md'), 'utf8').split('\n').indexOf('### `lookup_contract_pdf`');
  assert.equal(schema.location, `bad.md:${line + 1}:5`);
  assert.deepEqual(schema.range, { start: { line, character: 4 }, end: { line, character: 25 } });
  assert.ok(schema.fixes.length > 0 && schema.fixes[0].edits.length > 0, JSON.stringify(schema));
});

test('explain_rule gives the catalogue entry; an unknown code is an error answer', async () => {
  const r = await call('explain_rule', { code: 'provider-schema' });
  assert.equal(r.data['severity'], 'error');
  assert.match(r.data['summary'], /targets/);
  assert.equal(r.data['docs'], 'docs/rules.md#provider-schema');
  const unknown = await call('explain_rule', { code: 'no-such-rule' });
  assert.equal(unknown.isError, true);
  assert.match(unknown.text, /No rule has the code "no-such-rule"/);
});

test('list_names: the sections and what they declare', async () => {
  const r = await call('list_names', { path: 'AGENTS.md' });
  const tools = (r.data['sections'] as Json[]).find((s) => /TOOLS/.test(s.name))!;
  assert.deepEqual(tools.children.map((c: Json) => c.name), ['query_manual_section', 'create_repair_ticket']);
});

test('dry_run: the outcome and the timeline; only the run folder is written', async () => {
  const before = tree(dir);
  const r = await call('dry_run', { contract: 'AGENTS.md', snapshot: 'snapshots/diagnosis.snapshot.yaml', query: 'happy-path' });
  assert.equal(r.isError, false, r.text);
  assert.equal(r.data['outcome'].status, 'success');
  assert.ok((r.data['timeline'] as Json[]).some((l) => /query_manual_section/.test(l.text)));
  // Stages in words, as the terminal prints them, not message keys.
  const stages = new Set((r.data['timeline'] as Json[]).map((l) => l.stage));
  assert.ok(stages.has('RUN') && stages.has('TOOL') && stages.has('OUTCOME'), [...stages].join(', '));
  assert.ok([...stages].every((x) => !/^label\./.test(String(x))), [...stages].join(', '));
  const written = tree(dir).filter((f) => !before.includes(f));
  // The run folder, and the .gitignore that keeps runs out of git (docs/dry-run.md).
  assert.ok(written.length > 0 && written.every((f) => f.startsWith('.agents-md/runs/') || f === '.agents-md/.gitignore'), written.join(', '));
  assert.equal(r.data['trace'], written.find((f) => f.endsWith('trace.jsonl')));
  const several = await call('dry_run', { contract: 'AGENTS.md', snapshot: 'snapshots/diagnosis.snapshot.yaml' });
  assert.equal(several.isError, true);
  assert.match(several.text, /several queries/);
});

test('diff: the removed tool is a change with its impact and the bump it needs', async () => {
  const r = await call('diff', { older: 'v1.md', newer: 'v2.md' });
  assert.equal(r.isError, false, r.text);
  const removed = (r.data['changes'] as Json[]).find((c) => c.identity === 'create_repair_ticket')!;
  assert.ok(removed, r.text);
  assert.ok(r.data['summary'].length > 0);
  assert.ok(['major', 'minor', 'patch', 'none'].includes(r.data['advice'].required));
});

test('prove: each finding at its clause with its witness and a snapshot that dry_run plays to the violation', async () => {
  mkdirSync(join(dir, 'bypass'));
  writeFileSync(join(dir, 'bypass', 'AGENTS.md'), readFileSync(join(REPO, 'test/prove-corpus/01-threshold-bypass/AGENTS.md'), 'utf8'));
  const before = tree(dir);
  const r = await call('prove', { path: 'bypass/AGENTS.md' });
  assert.equal(r.isError, false, r.text);
  const [f, ...rest] = r.data['findings'] as Json[];
  assert.equal(rest.length, 0, r.text);
  assert.equal(f!.obligation, 'ungated-side-effect');
  assert.match(f!.location, /^bypass\/AGENTS\.md:\d+:\d+$/);
  assert.equal(f!.range.start.line + 1, Number(f!.location.split(':')[1]));
  assert.match(f!.message, /Tool `pay_invoice` \(write\) runs without a human/);
  assert.equal(f!.proved, true);
  assert.deepEqual(f!.witness, { tool: 'pay_invoice', arguments: { invoice_id: 'x', amount: 50000, currency: 'USD' } });
  assert.equal(f!.docs, 'docs/prove.md#ungated-side-effect');
  // prove writes nothing; the agent saves the witness snapshot where it likes and dry_run plays it.
  assert.deepEqual(tree(dir), before);
  writeFileSync(join(dir, 'bypass', 'witness.snapshot.json'), JSON.stringify(f!.snapshot));
  const run = await call('dry_run', { contract: 'bypass/AGENTS.md', snapshot: 'bypass/witness.snapshot.json' });
  assert.equal(run.isError, false, run.text);
  assert.equal(run.data['stats'].humanDecisions, 0, run.text);
  assert.deepEqual(run.data['stats'].tools, ['pay_invoice'], run.text);
  const clean = await call('prove', { path: 'AGENTS.md' });
  assert.deepEqual(clean.data['findings'], [], clean.text);
  const missing = await call('prove', { path: 'nope/AGENTS.md' });
  assert.equal(missing.isError, true);
});

test('paths outside the root, by .. or by a link, are refused and never read', async () => {
  for (const path of ['../AGENTS.md', '/etc/passwd', 'link.md']) {
    for (const tool of ['lint', 'prove']) {
      const r = await call(tool, { path });
      assert.equal(r.isError, true, `${tool} ${path}`);
      assert.match(r.text, /outside the workspace root/);
    }
  }
});

test("a configuration's extends that leads out of the root is not read (not even its key names)", async () => {
  const outside = scratch.workspace({ 'config.json': '{ "leaked_key_name_xyz": 1 }\n' });
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', '.agents-md.json'), JSON.stringify({ extends: join(relative(join(dir, 'sub'), outside), 'config.json') }));
  writeFileSync(join(dir, 'sub', 'AGENTS.md'), readFileSync(join(dir, 'AGENTS.md'), 'utf8'));
  const r = await call('lint', { path: 'sub/AGENTS.md' });
  assert.equal(r.isError, false, r.text);
  assert.doesNotMatch(JSON.stringify(r.data) + r.text, /leaked_key_name_xyz/);
});

test('answers are bounded: past 100 findings the rest are counted, not sent', async () => {
  const tools = Array.from({ length: 260 }, (_, i) => `### \`get_item_${i}\`\n\n- **Description**: Item ${i} by id.\n`).join('\n');
  writeFileSync(join(dir, 'many.md'), `---\ncontract: true\nname: many\nversion: 1.0.0\n---\n\n## TOOLS\n\n${tools}`);
  const r = await call('lint', { path: 'many.md' });
  assert.equal(r.isError, false, r.text.slice(0, 200));
  assert.equal((r.data['findings'] as Json[]).length, 100);
  assert.ok(r.data['omitted'] >= 160, String(r.data['omitted']));
});

test('requests piped in with standard input closed at once are all answered before the server exits', async () => {
  // tester18: the tools/call of a script that closes stdin right away got no answer (exit 0).
  const messages = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'script', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'lint', arguments: { path: 'AGENTS.md' } } },
  ];
  const r = spawnSync(process.execPath, [cli.bin, 'mcp', '--root', dir], { input: messages.map((m) => JSON.stringify(m)).join('\n') + '\n', encoding: 'utf8', timeout: 60_000, env: { ...process.env, LANG: 'C.UTF-8' } });
  assert.equal(r.status, 0, r.stderr);
  const answers = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Json);
  assert.deepEqual(answers.map((a) => a['id']), [1, 2, 3]);
  const lint = answers[2]!['result'] as Json;
  assert.ok(!lint['isError'], JSON.stringify(lint).slice(0, 300));
  const report = JSON.parse(lint['content'][0].text) as Json;
  assert.equal(report['file'], 'AGENTS.md');
  assert.ok(Array.isArray(report['findings']), JSON.stringify(report).slice(0, 300));
});
