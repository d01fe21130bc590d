/**
 * `agents-md export` (docs/providers.md, "Exports"): every sample's export validates against the
 * target's own published definitions: MCP's `tools/list` result with the MCP SDK's zod schema,
 * OpenAI's and Anthropic's request fields with their official SDKs' TypeScript types (compiled by
 * the TypeScript compiler, excess properties included), JSON Schema with the 2020-12 meta-schema.
 * Run: node --import tsx --test test/export.test.ts
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import Ajv2020 from 'ajv/dist/2020.js';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { exportContract, parseContract, type ExportTarget } from '../server/src/service/index.ts';
import { REPO, useCliBundle } from './helpers/cli.ts';

const SAMPLES = ['device-diagnosis', 'procurement-analyzer', 'contract-extraction', 'after-sales-zh', 'broken'];
const model = (s: string) => parseContract(readFileSync(join(REPO, 'samples', s, 'AGENTS.md'), 'utf8'));
const out = (s: string, to: ExportTarget) => exportContract(model(s), to) as Record<string, unknown>;

test('mcp-tools: every sample is a valid tools/list result (MCP SDK schema) with annotations from side_effects and idempotent', () => {
  for (const s of SAMPLES.filter((x) => x !== 'broken')) {
    const parsed = ListToolsResultSchema.safeParse(out(s, 'mcp-tools'));
    assert.ok(parsed.success, `${s}: ${parsed.success ? '' : parsed.error.message}`);
  }
  // The broken sample's nullable output schema, which rule provider-schema reports for target mcp, is what the SDK rejects too.
  const broken = ListToolsResultSchema.safeParse(out('broken', 'mcp-tools'));
  assert.deepEqual(broken.error?.issues.map((i) => i.path.join('.')), ['tools.0.outputSchema.type']);
  const tools = ListToolsResultSchema.parse(out('device-diagnosis', 'mcp-tools')).tools;
  assert.deepEqual(tools.map((t) => [t.name, t.annotations]), [
    ['query_manual_section', { readOnlyHint: true, openWorldHint: false, idempotentHint: true }],
    ['create_repair_ticket', { readOnlyHint: false, destructiveHint: false, openWorldHint: false, idempotentHint: false }],
  ]);
  assert.deepEqual(tools[0]!.outputSchema?.required, ['root_cause', 'recommended_action']);
  assert.match(tools[0]!.description!, /^查询手册指定章节的详细说明.*\nUse when: 已从 kb_reference/s);
});

test('json-schema: one JSON Schema 2020-12 document that the meta-schema accepts and ajv compiles', () => {
  const ajv = new Ajv2020({ strict: false });
  for (const s of SAMPLES.filter((x) => x !== 'broken')) {
    const doc = out(s, 'json-schema');
    assert.equal(ajv.validateSchema(doc), true, `${s}: ${ajv.errorsText()}`);
    ajv.compile(doc);
  }
  const defs = Object.keys(out('device-diagnosis', 'json-schema')['$defs'] as object);
  assert.deepEqual(defs, ['query_manual_section.input', 'query_manual_section.output', 'create_repair_ticket.input', 'create_repair_ticket.output', 'output']);
});

test('openai-tools: system message, tools and response_format; strict only when the schema passes the openai-strict profile', () => {
  const o = out('device-diagnosis', 'openai-tools');
  const messages = o['messages'] as { role: string; content: string }[];
  assert.equal(messages[0]!.role, 'system');
  assert.match(messages[0]!.content, /Tools you may call/);
  assert.doesNotMatch(messages[0]!.content, /memory/i);
  const tools = o['tools'] as { function: { name: string; strict: boolean } }[];
  assert.deepEqual(tools.map((t) => [t.function.name, t.function.strict]), [['query_manual_section', false], ['create_repair_ticket', false]]);
  assert.equal((o['response_format'] as { type: string }).type, 'json_schema');
  const strictContract = parseContract(['---', 'contract: true', 'name: demo', 'version: 1.0.0', '---', '', '## TOOLS', '', '### `get_vendor`', '', '- **Description**: Vendor record by domain.', '- **Input Schema**:', '  ```json', '  { "type": "object", "properties": { "domain": { "type": "string" } }, "required": ["domain"], "additionalProperties": false }', '  ```', ''].join('\n'));
  assert.equal((exportContract(strictContract, 'openai-tools')['tools'] as { function: { strict: boolean } }[])[0]!.function.strict, true);
});

// The official SDKs' request types, checked by the compiler on the exported JSON.
const TYPES_DIR = join(REPO, 'test-results', `export-types-${process.pid}`);
after(() => rmSync(TYPES_DIR, { recursive: true, force: true }));

test('openai-tools and anthropic-tools type-check against the openai and @anthropic-ai/sdk request types', () => {
  mkdirSync(TYPES_DIR, { recursive: true });
  const lines = [
    "import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';",
    "import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';",
    "type OpenAIFields = Pick<ChatCompletionCreateParamsNonStreaming, 'messages' | 'tools' | 'response_format'>;",
    "type AnthropicFields = Pick<MessageCreateParamsNonStreaming, 'system' | 'tools' | 'output_config'>;",
  ];
  for (const s of SAMPLES) {
    const id = s.replace(/-/g, '_');
    lines.push(`export const openai_${id} = ${JSON.stringify(out(s, 'openai-tools'))} satisfies OpenAIFields;`);
    lines.push(`export const anthropic_${id} = ${JSON.stringify(out(s, 'anthropic-tools'))} satisfies AnthropicFields;`);
  }
  // A wrong field must fail, or the check proves nothing.
  lines.push(`// @ts-expect-error\nexport const wrong = { tools: [{ type: 'function', function: { name: 'x', parameters: {}, strictly: true } }] } satisfies OpenAIFields;`);
  const file = join(TYPES_DIR, 'check.ts');
  writeFileSync(file, lines.join('\n'));
  const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022, types: [] });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.deepEqual(problems, []);
});

const { bundle: cli, scratch } = useCliBundle('export');

test('agents-md export --to mcp-tools -o FILE writes the export; a missing contract exits 2', async () => {
  const dir = scratch.workspace({ 'AGENTS.md': readFileSync(join(REPO, 'samples/device-diagnosis/AGENTS.md'), 'utf8') });
  const run = await cli.run(dir, 'export', 'AGENTS.md', '--to', 'mcp-tools', '-o', 'tools.json');
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /Wrote tools\.json/);
  assert.ok(ListToolsResultSchema.safeParse(JSON.parse(readFileSync(join(dir, 'tools.json'), 'utf8'))).success);
  const stdout = await cli.run(dir, 'export', 'AGENTS.md', '--to', 'json-schema');
  assert.equal(stdout.code, 0);
  assert.equal(JSON.parse(stdout.stdout).$schema, 'https://json-schema.org/draft/2020-12/schema');
  const missing = await cli.run(dir, 'export', 'NOPE.md', '--to', 'openai-tools');
  assert.equal(missing.code, 2);
  const badTarget = await cli.run(dir, 'export', 'AGENTS.md', '--to', 'gemini-tools');
  assert.equal(badTarget.code, 2);
});

test('agents-md export refuses a free-form or empty AGENTS.md (exit 2, a clear message, nothing written)', async () => {
  const dir = scratch.workspace({ 'AGENTS.md': '# Notes\n\nBuild with `npm run build`; run the tests before pushing.\n', 'empty/AGENTS.md': '' });
  for (const file of ['AGENTS.md', 'empty/AGENTS.md']) {
    for (const to of ['openai-tools', 'mcp-tools'] as const) {
      const r = await cli.run(dir, 'export', file, '--to', to, '-o', 'out.json');
      assert.equal(r.code, 2, `${file} ${to}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`${file.replace('/', '\\/')} is not a contract \\(no recognised sections, or empty\\): there are no tools or system prompt to export`));
      assert.equal(r.stdout, '');
      assert.throws(() => readFileSync(join(dir, 'out.json')), 'no output file');
    }
  }
  const zh = await cli.run(dir, 'export', 'AGENTS.md', '--to', 'openai-tools', '--lang', 'zh-cn');
  assert.equal(zh.code, 2);
  assert.match(zh.stderr, /AGENTS\.md 不是契约/);
});

test('agents-md export never exports a tool a ❌ boundary forbids, and says which it left out', async () => {
  const contract = `---
contract: true
name: payer
version: 1.0.0
---
## AGENT_IDENTITY

- **Name**: \`Payer\`
- **Hard Boundaries**:
  - ✅ May use \`draft_payment\` to prepare a payment
  - ❌ Never call \`initiate_payment\`

## TOOLS

### \`draft_payment\`

- **Description**: Drafts a payment for approval.

### \`initiate_payment\`

- **Description**: Pays an invoice.
`;
  const dir = scratch.workspace({ 'AGENTS.md': contract });
  for (const to of ['openai-tools', 'anthropic-tools', 'mcp-tools'] as const) {
    const r = await cli.run(dir, 'export', 'AGENTS.md', '--to', to);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /AGENTS\.md: not exported, because a ❌ boundary of AGENT_IDENTITY forbids them: initiate_payment \(rule forbidden-tool-declared\)\./);
    assert.doesNotMatch(r.stdout.replace(/Never call `initiate_payment`/g, ''), /initiate_payment/, `${to}: the forbidden tool is nowhere in the export but the boundary`);
    assert.match(r.stdout, /draft_payment/);
  }
});
