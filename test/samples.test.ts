/**
 * The samples in samples/ linted through the language service with their real files: a node
 * FileSystem over the repository, the repository root as the only workspace folder, so that the
 * samples' config (samples/.agents-md.json), their resource files and the pools the other
 * contracts declare are all seen, as `agents-md lint samples/` sees them.
 *
 * - The passing samples must get no diagnostic at all (not even info).
 * - samples/broken/AGENTS.md must get exactly the list below. Every entry was checked by eye
 *   against the file: the comment after it quotes the text its range covers.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createLanguageService, recheckAnalyzer, RULES, type LintResult } from '../server/src/service/index.ts';
import { createNodeFileSystem } from '../server/src/node/nodeFileSystem.ts';
import { WORKSPACE_RULES } from '../server/src/service/validate/rules/workspace.ts';

const ROOT = new URL('..', import.meta.url);

const nodeFs = createNodeFileSystem();

const PASSING = {
  'device-diagnosis': 'contract',
  'procurement-analyzer': 'contract',
  'contract-extraction': 'contract',
  // Written in Chinese: titles, labels, headers, values, and Chinese names for roles, layers, scenarios.
  'after-sales-zh': 'contract',
  'coding-agent': 'freeform',
} as const;

const results = new Map<string, LintResult>();

before(async () => {
  const service = createLanguageService({ fs: nodeFs, roots: [ROOT.href.replace(/\/$/, '')], analyzeRegex: recheckAnalyzer });
  for (const name of [...Object.keys(PASSING), 'broken']) {
    const uri = new URL(`samples/${name}/AGENTS.md`, ROOT).href;
    results.set(name, await service.lintBytes(uri, readFileSync(fileURLToPath(uri))));
  }
});

/** `code line:col-line:col`, 1-based, as the CLI prints positions. */
function show(r: LintResult): string[] {
  return r.diagnostics.map((d) => `${d.code} ${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.line + 1}:${d.range.end.character + 1}`);
}

for (const [name, kind] of Object.entries(PASSING)) {
  test(`samples/${name}/AGENTS.md is a ${kind} file with no diagnostics`, () => {
    const r = results.get(name)!;
    assert.deepEqual(r.configProblems, []);
    assert.equal(r.model?.kind, kind);
    assert.deepEqual(
      r.diagnostics.map((d) => `${show({ ...r, diagnostics: [d] })[0]} ${d.message}`),
      [],
    );
  });
}

/**
 * What the validator should report on samples/broken/AGENTS.md, in document order. Checked by eye,
 * line by line; the comment quotes what each range covers.
 */
const EXPECTED = [
  'invalid-version 5:10-5:15', //                 version: "2.4"  → `"2.4"`
  'version-not-audited 5:10-5:15', //             same value; the misspelt VERSIONING title leaves no rows
  'missing-section 17:4-17:18', //                `AGENT_IDENTITY` (first H2 title; VERSIONING & AUDIT is missing)
  'role-completeness 17:4-17:18', //              `AGENT_IDENTITY`
  'duplicate-key 25:3-25:11', //                  second `**Name**`
  'unknown-field 30:3-30:12', //                  `**Owner**`
  'forbidden-tool-declared 37:19-37:35', //       ❌ Never call `initiate_payment`
  'undeclared-tool 39:16-39:29', //               ✅ May use `inventory_api`
  'write-role-unauthorized 50:33-50:36', //       `LLM` + Human Reviewer
  'write-role-unauthorized 50:39-50:53', //       LLM + `Human Reviewer`
  'table-shape 51:1-51:140', //                   the Cognitive Fact row (unescaped | in the retention code span)
  'write-role-unauthorized 51:55-51:65', //       `FinanceBot` (Auto)
  'duplicate-name 52:3-52:10', //                 second `Raw Log` layer
  'override-reason-unknown 58:72-58:89', //       `manager_said_so` (with its backticks)
  'threshold-range 65:22-65:42', //               `relevance_score > 72`
  'freshness-margin 77:72-77:81', //              inventory_data: stale after `06:00 UTC`
  'freshness-order 78:72-78:81', //               sales_pipeline: stale after `03:00 UTC`
  'template-unquoted 96:14-96:39', //             {{extracted_vendor_name}}
  'template-unquoted 98:14-98:43', //             {{extracted_vendor_name[:3]}}
  'yaml-syntax 93:13-93:14', //                   the `:` after `yes` in `required: yes: always` (the block contributes nothing)
  'unknown-pool 101:9-101:22', //                 spend_history (in a second block)
  'template-unknown-entity 102:43-102:68', //     {{extracted_cost_center}} inside the quotes
  'intent-pattern-syntax 112:5-112:41', //        '(采购|购买|procure|purchase|buy)(?!取消)'
  'intent-pattern-redos 113:5-113:18', //         '^(\w+\s?)+$'
  'entity-unsatisfiable 118:5-118:18', //         department_id
  'tool-name-verb 125:5-125:18', //               ### `vendor_info`
  'provider-schema 139:9-139:25', //             type: [object, "null"] (vendor_info's output_schema; the config targets mcp)
  'tool-description-usage 148:20-148:46', //      Look up order information.
  'tool-param-examples 177:5-177:8', //           sku: { type: string }
  'tool-needs-approval 191:21-191:29', //         Side Effects: external (send_vendor_email)
  'tool-write-safety 213:21-213:26', //           Side Effects: write (create_purchase_order)
  'tool-missing-schema 231:5-231:26', //          ### `lookup_contract_pdf`
  'invalid-json-schema 256:20-256:26', //         type: integr
  'tool-input-unfed 273:5-273:18', //             currency_pair
  'json-syntax 309:1-309:2', //                   the `]` after the trailing comma (what JSON.parse rejects)
  'confidence-range 325:3-325:19', //             confidence_score
  'failure-code-missing 334:3-334:50', //         **If LLM returns non-JSON where JSON required**
  'failure-code-missing 335:3-335:55', //         **If Memory retrieval returns >5 conflicting facts**
  'condition-not-evaluated 340:3-340:56', //     **If `len(urgency_reason) > 200` or if it is rambly** (an expression inside prose)
  'failure-code-duplicate 340:87-340:113', //     Return error_code `URG001` (second entry)
  'hitl-needs-fallback 350:3-350:24', //          New vendor onboarding
  'hitl-needs-fallback 351:3-351:31', //          Payment to high-risk country
  'expression-syntax 351:64-351:71', //          ,'YYY') in IN ('XXX','YYY'): a list is written [ ]
  'unrecognised-content 355:3-355:47', //         Payments above 100,000 USD also need the CTO
  'prose-rules 359:1-359:332', //                 the 331-character paragraph
  'budgets-incomplete 361:4-361:11', //           `BUDGETS`
  'tool-tokens-budget 364:21-364:24', //          Token Budget: `500` (the tool definitions take most of it)
  'schema 365:18-365:24', //                      Max Steps: `twenty`
  'compliance-unknown-clause 377:32-377:57', //   `ISO 27001 Annex A.9.4.2` (with its backticks)
  'resource-hash-mismatch 385:28-385:92', //      the recorded hash of vendor_whitelist.csv
  'resource-missing 386:4-386:27', //             vendor_whitelist_v3.csv
  'duplicate-section 396:4-396:20', //            second SEMANTIC_ANCHORS
  'unknown-section 402:4-402:21', //              VERSIONING & AUDT
  'unclosed-fence 415:1-415:8', //                ```text
];

const sorted = (l: readonly string[]) => [...l].sort();

test('samples/broken/AGENTS.md gets exactly the expected diagnostics', () => {
  const r = results.get('broken')!;
  assert.deepEqual(r.configProblems, []);
  assert.equal(r.model?.kind, 'contract');
  assert.deepEqual(sorted(show(r)), sorted(EXPECTED));
});

// Rules across contracts need a workspace of contracts that disagree: test/workspace.test.ts lints a generated one.
test('samples/broken/AGENTS.md triggers every rule that has a bad example, except the two about files that are not whole contracts and the cross-contract rules', () => {
  const codes = new Set(results.get('broken')!.diagnostics.map((d) => d.code));
  const crossContract = new Set(WORKSPACE_RULES.map((r) => r.code));
  // partial-contract and contract-not-recognised are about files that are not (yet) whole contracts.
  const wanted = RULES.filter((r) => r.examples.bad && r.code !== 'partial-contract' && r.code !== 'contract-not-recognised' && !crossContract.has(r.code)).map((r) => r.code);
  assert.ok(wanted.length > 40, `only ${wanted.length} rules have a bad example`);
  assert.deepEqual(wanted.filter((c) => !codes.has(c)), []);
  assert.deepEqual(EXPECTED.map((e) => e.split(' ')[0]).filter((c) => !wanted.includes(c!)), [], 'EXPECTED names a rule without a bad example');
});

test('every fault in samples/broken/AGENTS.md is named in a "broken:" comment', () => {
  const text = readFileSync(new URL('samples/broken/AGENTS.md', ROOT), 'utf8');
  const named = new Set([...text.matchAll(/(?:<!--|#) broken: ([^\n]*?)(?:-->|$)/gm)].flatMap((m) => m[1]!.match(/[a-z0-9]+(?:-[a-z0-9]+)+|\bschema\b/g) ?? []));
  const codes = [...new Set(EXPECTED.map((e) => e.split(' ')[0]!))];
  assert.deepEqual(codes.filter((c) => !named.has(c)), []);
});
