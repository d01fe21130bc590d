// Attack suite, parse bounds (docs/robustness.md, "Parsing limits"): a paragraph or a list of
// tens of thousands of plain lines under the file size limit, and a GFM table of tens of thousands
// of rows. The inline-marker limit never sees text without markers; the block size limit does: the
// section is reported `content-too-complex` and skipped, the rest of the contract is checked, and
// the language server answers a hover sent right after the document.
// Run: node --import tsx --test test/attack/parse-bounds.test.ts
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseContract, readSnapshot, validateContract } from '../../server/src/service/index.ts';
import { MAX_BLOCK_LINES, MAX_TABLE_ROWS } from '../../server/src/service/parse/blockSize.ts';
import { parseWork } from '../../server/src/service/parse/work.ts';
import { serverBundle } from '../helpers/cli.ts';
import { LspClient } from '../helpers/lspClient.ts';

const FM = '---\ncontract: true\nname: big\nversion: 1.0.0\n---\n\n## AGENT_IDENTITY\n\n- **Name**: `Big`\n- **Core Mandate**: "Answer."\n\n## NOTES\n\n';
const paragraph = (n: number) => Array.from({ length: n }, (_, i) => `plain words of line ${i} without a single marker`).join('\n');
const list = (n: number) => Array.from({ length: n }, (_, i) => `- item ${i} says a thing`).join('\n');
const HITL = '---\ncontract: true\nname: big\nversion: 1.0.0\n---\n\n## AGENT_IDENTITY\n\n- **Name**: `Big`\n- **Core Mandate**: "Answer."\n\n## HUMAN_IN_THE_LOOP\n\n';
const hitlRows = (n: number, pipes = true) => {
  const rows = Array.from({ length: n }, (_, i) => `scenario_${i} | \`amount > ${1000 + i}\` | Finance approves | ${1 + (i % 48)}h`);
  const lines = ['Scenario | Trigger Condition | Required Action | SLA', '---|---|---|---', ...rows];
  return (pipes ? lines.map((l) => `| ${l} |`) : lines).join('\n');
};
const finding = (text: string) => parseContract(text).sections.flatMap((s) => s.findings).find((f) => f.code === 'content-too-complex');

describe('one block of plain lines', () => {
  test('48,000 lines of plain text (1.3 MB): content-too-complex (block), the other sections read', () => {
    const model = parseContract(`${FM}${paragraph(48_000)}\n`);
    const f = model.sections.flatMap((s) => s.findings).find((x) => x.code === 'content-too-complex');
    assert.ok(f, 'reported');
    assert.deepEqual([f.variant, f.args], ['block', { size: 48_000, limit: MAX_BLOCK_LINES }]);
    assert.ok(model.sections.some((s) => s.title === 'AGENT_IDENTITY' && s.findings.length === 0));
  });

  test('49,000 list items: content-too-complex (block)', () => {
    assert.equal(finding(`${FM}${list(49_000)}\n`)?.variant, 'block');
  });

  test('a list or paragraph at the limit is read; a fenced block or a table longer than it too', () => {
    assert.equal(finding(`${FM}${list(MAX_BLOCK_LINES)}\n`), undefined);
    assert.equal(finding(`${FM}${paragraph(MAX_BLOCK_LINES)}\n`), undefined);
    assert.equal(finding(`${FM}\`\`\`text\n${paragraph(MAX_BLOCK_LINES + 500)}\n\`\`\`\n`), undefined);
    assert.equal(finding(`${FM}| a | b |\n|---|---|\n${Array.from({ length: MAX_BLOCK_LINES + 500 }, (_, i) => `| ${i} | x |`).join('\n')}\n`), undefined);
  });
});

describe('one GFM table of many rows', () => {
  // remark's time grows linearly with a table's rows, but about a millisecond per row on a loaded
  // machine: a 4 MiB contract holds 50,000 rows, a minute of parsing that nothing interrupts.
  test('a HUMAN_IN_THE_LOOP table of 30,000 rows: content-too-complex (table), not given to remark, the other sections read', () => {
    const table = hitlRows(30_000);
    const text = `${HITL}${table}\n`;
    const before = parseWork.markdownChars;
    const model = parseContract(text);
    const f = model.sections.flatMap((s) => s.findings).find((x) => x.code === 'content-too-complex');
    assert.ok(f, 'reported');
    assert.deepEqual([f.variant, f.args], ['table', { size: 30_000, limit: MAX_TABLE_ROWS }]);
    assert.ok(parseWork.markdownChars - before < text.length - table.length, 'no row reached remark');
    assert.ok(model.sections.some((s) => s.title === 'AGENT_IDENTITY' && s.findings.length === 0));
    assert.equal(model.data['human_in_the_loop'], undefined, 'the skipped section holds nothing, not a guess');
    assert.ok(text.includes(table), 'the text is not changed');
  });

  test('a table without outer pipes is counted as a table too', () => {
    const f = finding(`${HITL}${hitlRows(MAX_TABLE_ROWS + 1, false)}\n`);
    assert.deepEqual([f?.variant, f?.args], ['table', { size: MAX_TABLE_ROWS + 1, limit: MAX_TABLE_ROWS }]);
  });

  test('a table at the limit is read, every row an item; two tables under it in one section too', () => {
    const model = parseContract(`${HITL}${hitlRows(MAX_TABLE_ROWS)}\n`);
    assert.equal(model.sections.flatMap((s) => s.findings).find((x) => x.code === 'content-too-complex'), undefined);
    assert.equal((model.data['human_in_the_loop'] as unknown[]).length, MAX_TABLE_ROWS);
    const two = parseContract(`${HITL}${hitlRows(MAX_TABLE_ROWS - 10)}\n\n${hitlRows(MAX_TABLE_ROWS - 10)}\n`);
    assert.equal(two.sections.flatMap((s) => s.findings).find((x) => x.code === 'content-too-complex'), undefined);
  });
});

describe('JSON nested deeper than values are read', () => {
  const deep = (n: number) => `${'[\n'.repeat(n)}${']\n'.repeat(n)}`;
  test('a JSON block of 8,000 nested arrays in a tool: json-syntax (too deep), the contract checked; it overflowed the JSON parser\'s stack and lint ended with an internal error', () => {
    const text = `${FM.replace('## NOTES\n\n', '')}## TOOLS\n\n### \`t\`\n\n- **Description**: d\n- **Input Schema**:\n\n\`\`\`json\n${deep(8000)}\`\`\`\n`;
    const found = validateContract(parseContract(text)).filter((d) => d.code === 'json-syntax');
    assert.deepEqual(found.map((d) => d.message), ['This JSON block nests more than 200 levels deep; it is not read.']);
  });
  test('a JSON snapshot of 20,000 nested arrays, not valid JSON: too-deep, not a stack overflow', () => {
    const r = readSnapshot(`{"a": ${'['.repeat(20000)}}`, { lang: 'json' });
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['snapshot-too-deep']);
  });
});

describe('the language server', () => {
  const server = serverBundle();
  const ws = mkdtempSync(join(tmpdir(), 'agents-md-attack-big-'));
  before(() => server.build());
  after(() => rmSync(ws, { recursive: true, force: true }));

  test('a 48,000-line paragraph opened: a hover sent right after is answered, the diagnostics say why the section is skipped', async () => {
    const client = new LspClient(server.path);
    try {
      await client.initialize(pathToFileURL(ws).href, true, 'en');
      const uri = pathToFileURL(join(ws, 'AGENTS.md')).href;
      await client.open(uri, `${FM}${paragraph(48_000)}\n`);
      const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 8, character: 4 } });
      assert.ok(hover, 'hover on the Name field answered');
      const diagnostics = await client.pullDiagnostics(uri);
      assert.ok(diagnostics.some((d) => d.code === 'content-too-complex' && /a paragraph or list runs over 48000 lines/.test(d.message)), JSON.stringify(diagnostics.map((d) => d.message)));
    } finally {
      await client.shutdown();
    }
  });

  test('a 30,000-row table opened: a hover sent right after is answered, the diagnostics say why the section is skipped', async () => {
    const client = new LspClient(server.path);
    try {
      await client.initialize(pathToFileURL(ws).href, true, 'en');
      const uri = pathToFileURL(join(ws, 'TABLE.agents.md')).href;
      await client.open(uri, `${HITL}${hitlRows(30_000)}\n`);
      const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 8, character: 4 } });
      assert.ok(hover, 'hover on the Name field answered');
      const diagnostics = await client.pullDiagnostics(uri);
      assert.ok(diagnostics.some((d) => d.code === 'content-too-complex' && /a table runs over 30000 rows/.test(d.message)), JSON.stringify(diagnostics.slice(0, 5).map((d) => d.message)));
    } finally {
      await client.shutdown();
    }
  });
});
