import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { highlights, parseContract, type Highlight } from '../server/src/service/index.ts';

// Contract colours are semantic tokens from the service, for contracts only (docs/vscode.md,
// "Colours"): a README or a free-form AGENTS.md keeps Markdown's own colours.
const FRONT = '---\ncontract: true\nname: demo\n---\n';

/** `text` of each highlight of `doc`, with its type. */
function tokens(doc: string): [string, Highlight['type']][] {
  const lines = doc.split('\n');
  return highlights(parseContract(doc)).map((h) => [lines[h.line]!.slice(h.character, h.character + h.length), h.type]);
}

test('recognised section titles are highlighted, in any accepted spelling, and others are not', () => {
  for (const title of ['HUMAN_IN_THE_LOOP', 'Human in the Loop', 'VERSIONING & AUDIT', 'Versioning and Audit', '人工介入', 'TOOLS']) {
    assert.deepEqual(tokens(`${FRONT}## ${title}\n\ntext\n`), [[title, 'contractSection']], title);
  }
  const t = tokens(`${FRONT}## Background\n\n### TOOLS\n\n## TOOLSET\n`);
  assert.deepEqual(t, []);
});

test('boundary markers, templates and directives', () => {
  const t = tokens(`${FRONT}## AGENT_IDENTITY\n\n- ❌ Never pay\n- ✅ May read\n\nvalue: "{{extracted_device_id}}" and {{code[:3]}}\n<!-- agents-md-disable-next-line tool-name-verb -->\n`);
  assert.deepEqual(t.slice(1), [
    ['❌', 'boundary'], ['✅', 'boundary'], ['{{extracted_device_id}}', 'templateVariable'], ['{{code[:3]}}', 'templateVariable'],
    ['<!-- agents-md-disable-next-line tool-name-verb -->', 'directive'],
  ]);
});

test('templates are highlighted inside fenced YAML; markers inside code are not', () => {
  const t = tokens(`${FRONT}## TOOLS\n\n\`\`\`yaml\nvalue: "{{extracted_sku}}"\n❌ <!-- agents-md-disable -->\n\`\`\`\n`);
  assert.deepEqual(t, [['TOOLS', 'contractSection'], ['{{extracted_sku}}', 'templateVariable']]);
});

test('a free-form AGENTS.md and a README get no contract colours', () => {
  const freeform = readFileSync(new URL('../samples/coding-agent/AGENTS.md', import.meta.url), 'utf8');
  assert.deepEqual(tokens(freeform), []);
  assert.deepEqual(tokens('# Project\n\n## Tools\n\nHello {{user_name}} ✅\n'), []);
});
