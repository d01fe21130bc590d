/**
 * The samples in samples/ linted through the language service with their real files: a node
 * FileSystem over the repository, the repository root as the only workspace folder, so that the
 * samples' config (samples/.agents-md.json), their resource files and the pools the other
 * contracts declare are all seen, as `agents-md lint samples/` sees them.
 *
 * - The passing samples must get no diagnostic at all (not even info).
 * - samples/broken/AGENTS.md must get exactly the list below. Every entry was checked by eye
 *   against the file: the comment after it quotes the text its range covers. When the file grows,
 *   `UPDATE_EXPECT=1` rewrites the list (moved findings keep their comment; new ones say NEW:).
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createLanguageService, type LintResult } from '../server/src/service/index.ts';
import { RULES, recheckAnalyzer } from '../server/src/service/host.ts';
import { createNodeFileSystem } from '../server/src/node/nodeFileSystem.ts';
import { WORKSPACE_RULES } from '../server/src/service/validate/rules/workspace.ts';
import { expectEntries } from './helpers/expect.ts';

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
  'boundary-contradiction 38:5-38:77', //        ❌ Never call `create_purchase_order` unless … (after a forbidden tool)
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
  'yaml-syntax 93:13-93:14', //                   the `:` after `yes` in `required: yes: always` (the block contributes nothing)
  'template-unquoted 96:14-96:39', //             {{extracted_vendor_name}}
  'template-unquoted 98:14-98:43', //             {{extracted_vendor_name[:3]}}
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
  'tool-timeout-over-budget 193:16-193:19', //    NEW: 10m
  'tool-write-safety 214:21-214:26', //           Side Effects: write (create_purchase_order)
  'tool-missing-schema 232:5-232:26', //          ### `lookup_contract_pdf`
  'invalid-json-schema 257:20-257:26', //         type: integr
  'tool-input-unfed 274:5-274:18', //             rate_sheet_id
  'json-syntax 310:1-310:2', //                   the `]` after the trailing comma (what JSON.parse rejects)
  'guard-field-undeclared 318:10-318:49', //      "output.vendor IN vendor_whitelist.csv"
  'confidence-range 334:3-334:19', //             confidence_score
  'failure-code-missing 344:3-344:55', //         **If Memory retrieval returns >5 conflicting facts**
  'condition-not-evaluated 349:3-349:56', //      **If `len(urgency_reason) > 200` or if it is rambly**
  'failure-code-duplicate 349:87-349:113', //     Return error_code `URG001` (second entry)
  'hitl-needs-fallback 359:3-359:24', //          New vendor onboarding
  'hitl-needs-fallback 360:3-360:31', //          Payment to high-risk country
  'expression-syntax 360:64-360:71', //           ,'YYY') in IN ('XXX','YYY'): a list is written [ ]
  'unrecognised-content 364:3-364:47', //         Payments above 100,000 USD also need the CTO
  'prose-rules 368:1-368:332', //                 the 331-character paragraph
  'budgets-incomplete 370:4-370:11', //           `BUDGETS`
  'tool-tokens-budget 373:21-373:24', //          Token Budget: `500` (the tool definitions take most of it)
  'schema 374:18-374:24', //                      Max Steps: `twenty`
  'compliance-unknown-clause 386:32-386:57', //   `ISO 27001 Annex A.9.4.2` (with its backticks)
  'resource-hash-mismatch 394:28-394:92', //      the recorded hash of vendor_whitelist.csv
  'resource-missing 395:4-395:27', //             vendor_whitelist_v3.csv
  'duplicate-section 405:4-405:20', //            second SEMANTIC_ANCHORS
  'unknown-section 411:4-411:21', //              VERSIONING & AUDT
  'unclosed-fence 424:1-424:8', //                ```text
];

test('samples/broken/AGENTS.md gets exactly the expected diagnostics (UPDATE_EXPECT=1 rewrites EXPECTED)', () => {
  const r = results.get('broken')!;
  assert.deepEqual(r.configProblems, []);
  assert.equal(r.model?.kind, 'contract');
  const lines = readFileSync(new URL('samples/broken/AGENTS.md', ROOT), 'utf8').split('\n');
  const entries = show(r);
  // A new entry's comment quotes what its range covers on its first line, to check by eye.
  const covered = (entry: string): string => {
    const d = r.diagnostics[entries.indexOf(entry)]!.range;
    const line = lines[d.start.line] ?? '';
    return `NEW: ${line.slice(d.start.character, d.end.line === d.start.line ? d.end.character : undefined).slice(0, 60)}`;
  };
  expectEntries(fileURLToPath(import.meta.url), 'EXPECTED', entries, covered);
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
