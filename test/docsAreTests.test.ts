/**
 * The docs are tests (docs/rules.md, docs/contract-format.md): what a reader copies must lint as
 * the docs say.
 *
 * - A rule's good example is clean under every rule of its preset, except the findings a fragment
 *   cannot avoid (the sections it leaves out, the audit row of its version).
 * - A rule's bad example triggers its own rule, and nothing its good example does not, except the
 *   same mistake seen by another rule (listed below with why).
 * - Every ```markdown example of docs/contract-format.md lints clean, as a fragment.
 *
 * KNOWN lists what is still wrong today: each entry must still happen (the list only shrinks), and
 * nothing outside it may. Fix the example or the rule, then remove the entry.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { type LintResult } from '../server/src/service/index.ts';
import { RULES } from '../server/src/service/host.ts';
import { exampleWorkspace, lintExample } from './helpers/lintExample.ts';

/** Findings a fragment cannot avoid: the sections it leaves out and the audit row of its version. */
const FRAGMENT = new Set(['missing-section', 'version-not-audited', 'partial-contract']);

/** Good examples that still trigger another rule of their preset (to fix: the example, or the rule). */
const KNOWN_GOOD: Readonly<Record<string, readonly string[]>> = {
  'template-unquoted': ['template-unknown-entity', 'unknown-pool'],
  'duplicate-section': ['budgets-incomplete'],
  'duplicate-key': ['budgets-incomplete'],
  'table-shape': ['hitl-needs-fallback'],
  schema: ['tool-missing-schema'],
  'role-completeness': ['resource-missing', 'undeclared-tool'],
  'undeclared-tool': ['tool-missing-schema'],
  'forbidden-tool-declared': ['tool-missing-schema'],
  'boundary-contradiction': ['tool-missing-schema'],
  'template-unknown-entity': ['schema', 'unknown-pool'],
  'invalid-json-schema': ['confidence-range'],
  'tool-name-verb': ['tool-description-usage', 'tool-missing-schema'],
  'tool-description-usage': ['tool-missing-schema'],
  'tool-param-examples': ['tool-description-usage'],
  'tool-needs-approval': ['tool-missing-schema'],
  'tool-write-safety': ['tool-missing-schema'],
  'duplicate-name': ['tool-missing-schema'],
  'provider-schema': ['tool-missing-schema'],
  'tool-tokens-budget': ['budgets-incomplete', 'tool-missing-schema'],
  'hitl-needs-fallback': ['resource-missing'],
  'expression-syntax': ['hitl-needs-fallback'],
  'resource-pin-drift': ['resource-missing'],
  'error-code-reused': ['unknown-pool'],
  'side-effect-tool-ungated': ['tool-missing-schema'],
  'prose-rules': ['hitl-needs-fallback'],
};

/** Bad examples whose one mistake another rule reports too, and why that is right. */
const SAME_MISTAKE: Readonly<Record<string, readonly string[]>> = {
  'yaml-syntax': ['schema'], // the value YAML could not read is also not of its type
  'table-shape': ['schema'], // the split cell holds a value of the wrong form
  'unclosed-fence': ['yaml-syntax'], // the unclosed block swallows the rest as YAML
  'invalid-version': ['schema'], // the version's pattern is in the schema too
  'forbidden-tool-declared': ['tool-needs-approval'], // the declared forbidden tool is a write without approval
  'tool-needs-approval': ['tool-write-safety'], // the external tool is also neither idempotent nor reversible
  'hitl-needs-fallback': ['resource-missing'], // the fallback template it names is not in the workspace
  'side-effect-tool-ungated': ['tool-needs-approval'], // the ungated tool also lacks its approval flag
};

const codes = (r: LintResult) => [...new Set(r.diagnostics.map((d) => d.code).filter((c) => !FRAGMENT.has(c)))].sort();

test('every rule\'s good example is clean under every rule of its preset (fragments aside), and its bad example reports nothing unexpected', async () => {
  const problems: string[] = [];
  for (const rule of RULES.filter((r) => r.examples.bad)) {
    const ws = exampleWorkspace(rule);
    const good = codes(await lintExample(rule.examples.good, ws));
    const known = KNOWN_GOOD[rule.code] ?? [];
    for (const c of good.filter((x) => !known.includes(x))) problems.push(`${rule.code}: the good example triggers ${c}`);
    for (const c of known.filter((x) => !good.includes(x))) problems.push(`${rule.code}: the good example no longer triggers ${c}: remove it from KNOWN_GOOD`);
    const bad = codes(await lintExample(rule.examples.bad, ws));
    const same = SAME_MISTAKE[rule.code] ?? [];
    for (const c of bad.filter((x) => x !== rule.code && !good.includes(x) && !same.includes(x))) problems.push(`${rule.code}: the bad example also triggers ${c}`);
  }
  assert.deepEqual(problems, []);
});

/** Blocks of docs/contract-format.md not yet clean, by their first line, with what they still trigger. */
const KNOWN_BLOCKS: Readonly<Record<number, readonly string[]>> = {};

test('every markdown example of docs/contract-format.md lints clean as a contract fragment', async () => {
  const doc = readFileSync(new URL('../docs/contract-format.md', import.meta.url), 'utf8');
  const problems: string[] = [];
  let blocks = 0;
  for (const m of doc.matchAll(/^(`{3,})markdown\n([\s\S]*?)\n\1$/gm)) {
    blocks++;
    const line = doc.slice(0, m.index).split('\n').length;
    const text = m[2]!.startsWith('---') ? m[2]! : `---\ncontract: true\nname: demo\nversion: 1.0.0\n---\n${m[2]!}`;
    // The doc does not ship the resource files its examples name.
    const found = codes(await lintExample(text)).filter((c) => c !== 'resource-missing');
    const known = KNOWN_BLOCKS[line] ?? [];
    for (const c of found.filter((x) => !known.includes(x))) problems.push(`block at line ${line}: ${c}`);
    for (const c of known.filter((x) => !found.includes(x))) problems.push(`block at line ${line} no longer triggers ${c}: remove it from KNOWN_BLOCKS`);
  }
  assert.ok(blocks >= 10, `${blocks} markdown examples`);
  assert.deepEqual(problems, []);
});
