/**
 * tool-name-verb reports only names whose first word is not a verb (docs/rules.md): the lexicon
 * decides, and a word it knows only as a noun still passes when the tool's own description uses
 * it as a verb (`triage_ticket`, "Triages a ticket").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintExample } from './helpers/lintExample.ts';
import { tagsOf } from '../server/src/service/validate/verbs.ts';
import words from '../server/src/service/validate/verbLexicon.json' with { type: 'json' };

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

test('the generated word lists answer every word as en-lexicon itself does (npm run generate)', async () => {
  const { lexicon } = await import('en-lexicon');
  const { canBeVerb, usedAsVerb } = await import('../server/src/service/validate/verbs.ts');
  // The lookups as they read the lexicon object before the lists existed: the oracle.
  const tags = (w: string) => (Object.prototype.hasOwnProperty.call(lexicon, w) ? lexicon[w] : undefined);
  const isBase = (w: string) => typeof tags(w) === 'string' && tags(w)!.split('|').some((t) => t === 'VB' || t === 'VBP');
  const verbal = (w: string) => typeof tags(w) !== 'string' || tags(w)!.split('|').some((t) => t.startsWith('VB'));
  let checked = 0;
  for (const word of [...Object.keys(lexicon), 'geocode', 'lookupx', 'zzzqx', 'Vendor', 'toString', '__proto__', 'constructor']) {
    const w = word.toLowerCase();
    if (!/^[a-z]+$/.test(w)) continue;
    checked++;
    const phrasal = /^(.{3,}?)(up|out|in|off|over|down)$/.exec(w);
    const prefixed = /^(re|un|de|pre|co)(.{3,})$/.exec(w);
    const expected = isBase(w) || (phrasal && canBeVerb(phrasal[1]!)) || (prefixed && canBeVerb(prefixed[2]!)) ? true : typeof tags(w) === 'string' ? false : undefined;
    assert.equal(canBeVerb(w), expected, w);
    for (const form of [`${w}s`, `${w}ing`]) assert.equal(usedAsVerb(w, `${form} a record`), verbal(form), `${w}: "${form} a record"`);
  }
  assert.ok(checked > 50_000, `${checked} words compared`);
});

test('the lexicon finds every word of its lists under its own tag, and nothing between them', () => {
  for (const kind of ['base', 'inflected', 'other'] as const) {
    const list = words[kind].split('\n');
    for (const w of list) assert.equal(tagsOf(w), kind, w);
    // Between two neighbours, before the first and after the last: no word of any list.
    for (const w of ['', 'zzzzzzzz', ...list.slice(0, 200).map((x) => `${x}\u0000`)]) {
      if (!['base', 'inflected', 'other'].some((k) => words[k as 'base'].split('\n').includes(w))) assert.equal(tagsOf(w), undefined, JSON.stringify(w));
    }
  }
});
