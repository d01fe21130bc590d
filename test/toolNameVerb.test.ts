/**
 * tool-name-verb reports only names whose first word is not a verb (docs/rules.md): the lexicon
 * decides, and a word it knows only as a noun still passes when the tool's own description uses
 * it as a verb (`triage_ticket`, "Triages a ticket").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintExample } from './helpers/lintExample.ts';

const FM = '---\ncontract: true\nname: demo\nversion: 1.0.0\n---\n';
const STRICT = { config: { extends: 'strict' } };

async function flagged(tools: [string, string][]): Promise<string[]> {
  const text = `${FM}\n## TOOLS\n\n${tools.map(([n, d]) => `### \`${n}\`\n\n- **Description**: ${d}\n- **Side Effects**: none\n`).join('\n')}`;
  return (await lintExample(text, STRICT)).diagnostics.filter((d) => d.code === 'tool-name-verb').map((d) => String(d.args?.['tool']));
}

test('a first word the lexicon knows only as a noun passes when the description uses it as a verb', async () => {
  assert.deepEqual(await flagged([
    ['triage_ticket', 'Triages a support ticket by urgency.'],
    ['triage_queue', 'Triaging the queue: sorts tickets by urgency.'],
    ['propose_reroute', 'Proposes a new route.'],
  ]), []);
});

test('a noun stays reported when the description does not use it as a verb, or uses its plural', async () => {
  assert.deepEqual(await flagged([
    ['vendor_info', 'Vendor record by domain.'],
    ['vendor_list', 'Vendors matching a name.'],
    ['triage_notes', 'The notes of a ticket.'],
  ]), ['vendor_info', 'vendor_list', 'triage_notes']);
});
