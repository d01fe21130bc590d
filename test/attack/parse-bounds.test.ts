// Attack suite, parse bounds (docs/robustness.md, "Parsing limits"): a paragraph or a list of
// tens of thousands of plain lines under the file size limit. The inline-marker limit never sees
// text without markers; the block size limit does: the section is reported `content-too-complex`
// and skipped, the rest of the contract is checked, and the language server answers a hover
// sent right after the document.
// Run: node --import tsx --test test/attack/parse-bounds.test.ts
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseContract } from '../../server/src/service/index.ts';
import { MAX_BLOCK_LINES } from '../../server/src/service/parse/blockSize.ts';
import { serverBundle } from '../helpers/cli.ts';
import { LspClient } from '../helpers/lspClient.ts';

const FM = '---\ncontract: true\nname: big\nversion: 1.0.0\n---\n\n## AGENT_IDENTITY\n\n- **Name**: `Big`\n- **Core Mandate**: "Answer."\n\n## NOTES\n\n';
const paragraph = (n: number) => Array.from({ length: n }, (_, i) => `plain words of line ${i} without a single marker`).join('\n');
const list = (n: number) => Array.from({ length: n }, (_, i) => `- item ${i} says a thing`).join('\n');
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
});
