// The editor's kept conformance grades placed on an edited contract (docs/conformance.md, "In the
// editor"): a clause is found again by what it is about, not by its pointer, so a tool inserted
// above another does not take over that tool's grades, and a deleted clause loses its grade.
// Run: node --import tsx --test test/conformancePlace.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gradeSpans, parseContract, type ObservedSpan } from '../server/src/service/index.ts';
import { placeGrades } from '../server/src/lsp/conformance.ts';

const TEXT = readFileSync(join(import.meta.dirname, '..', 'samples/procurement-analyzer/AGENTS.md'), 'utf8');
const span = (spanId: string, name: string, attributes: ObservedSpan['attributes']): ObservedSpan => ({ traceId: 'a'.repeat(32), spanId, name, endMs: 0, attributes, events: [], status: 'unset' });
const SPANS = [
  span('0000000000000001', 'invoke_agent', { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': 'r1' }),
  span('0000000000000002', 'execute_tool', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'check_inventory', 'gen_ai.tool.call.arguments': '{"sku":"bad"}' }),
];
const NEW_TOOL = '### `get_price`\n\n- **Description**: Price of one item.\n- **Side Effects**: read\n\n';

test('a tool inserted above another: the grades stay with their tool; a deleted clause loses its grade', () => {
  const report = gradeSpans(parseContract(TEXT), SPANS);
  const kept = { traces: '/t', report };
  const before = placeGrades(kept, parseContract(TEXT), 'file:///a/AGENTS.md', 'en');
  const args = before.clauses.find((c) => c.pointer === '/tools/0/input_schema')!;
  assert.equal(args.grade, 'violated');

  const edited = TEXT.replace('### `check_inventory`', `${NEW_TOOL}### \`check_inventory\``);
  const after = placeGrades(kept, parseContract(edited), 'file:///a/AGENTS.md', 'en');
  assert.equal(after.clauses.find((c) => c.pointer === '/tools/1/input_schema')?.grade, 'violated', 'the schema clause followed check_inventory to /tools/1');
  assert.equal(after.clauses.find((c) => c.pointer === '/tools/0')?.label, undefined, 'get_price was never graded: no lens');
  assert.equal(after.diagnostics.find((d) => d.code === '/tools/1/input_schema')?.range.start.line, args.range.start.line + NEW_TOOL.split('\n').length - 1);

  const without = placeGrades(kept, parseContract(TEXT.replace(/- \*\*Input Schema\*\*:\n  ```json\n  \{\n    "type": "object",\n    "required": \["sku"\][\s\S]*?```\n/, '')), 'file:///a/AGENTS.md', 'en');
  assert.equal(without.clauses.some((c) => c.label === 'input schema of `check_inventory`'), false);
  assert.equal(without.diagnostics.length, 0);
});

test('each clause starts on the line that names it: an input schema at its `Input Schema` field, not inside its code block', () => {
  const lines = TEXT.split('\n');
  const placed = placeGrades({ traces: '/t', report: gradeSpans(parseContract(TEXT), SPANS) }, parseContract(TEXT), 'file:///a/AGENTS.md', 'en');
  const schema = placed.clauses.find((c) => c.pointer === '/tools/0/input_schema')!;
  assert.match(lines[schema.range.start.line]!, /^- \*\*Input Schema\*\*:/, 'the lens above the field, where a reader looks for the schema');
  assert.match(lines[schema.range.end.line]!, /^\s*\}$/, 'the diagnostic still covers the schema itself');
  const approval = placed.clauses.find((c) => c.pointer === '/tools/1/requires_approval')!;
  assert.match(lines[approval.range.start.line]!, /^- \*\*Requires Approval\*\*: true/);
});
