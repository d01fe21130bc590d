/**
 * The cross-contract rules on a generated workspace of 36 contracts (bench/generateWorkspace.ts):
 * every deliberate fault is reported on the contracts it concerns, with the other contract as a
 * related location, and the business line without faults gets no cross-contract finding.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createLanguageService, type ContractDiagnostic } from '../server/src/service/index.ts';
import { localiseDiagnostic } from '../server/src/service/host.ts';
import { WORKSPACE_RULES } from '../server/src/service/validate/rules/workspace.ts';
import { contractPath, FAULTS, generateWorkspace, LINES } from '../bench/generateWorkspace.ts';
import { memoryFs } from './helpers/memoryFs.ts';

const ROOT = 'file:///ws';
const N = 36;
const CROSS = new Set(WORKSPACE_RULES.map((r) => r.code));
const found = new Map<number, ContractDiagnostic[]>();

before(async () => {
  const files = Object.fromEntries(Object.entries(generateWorkspace(N)).map(([p, c]) => [`${ROOT}/${p}`, c]));
  const service = createLanguageService({ fs: memoryFs(files), roots: [ROOT] });
  for (let i = 0; i < N; i++) {
    const uri = `${ROOT}/${contractPath(i)}`;
    const r = await service.lintBytes(uri, new TextEncoder().encode(files[uri]!));
    found.set(i, r.diagnostics.filter((d) => CROSS.has(d.code)));
  }
});

/** Contract indices of a business line. */
const line = (name: (typeof LINES)[number]) => Array.from({ length: N }, (_, i) => i).filter((i) => LINES[i % LINES.length] === name);
/** `code` or `code.variant` of each cross-contract finding of contract i. */
const ids = (i: number) => found.get(i)!.map((d) => d.messageId);

test('the generated workspace has at least 30 contracts and its fault-free line gets no cross-contract finding', () => {
  assert.ok(N >= 30);
  for (const i of line('hr')) assert.deepEqual(ids(i), [], `hr contract ${i}`);
});

test('two contracts declaring one agent at different versions: agent-name-conflict on both', () => {
  assert.ok(ids(0).includes('agent-name-conflict.versions'));
  const d = found.get(FAULTS.agentDuplicate)!.find((x) => x.code === 'agent-name-conflict')!;
  assert.equal(d.message, 'Agent `Agent0` is declared at version 2.0.0 here and at version 1.0.0 in lines/procurement/agent_000/AGENTS.md.');
  assert.equal(d.related?.[0]?.uri, `${ROOT}/${contractPath(0)}`);
});

test('a shared pool with other metadata or another lifecycle: shared-pool-mismatch on every contract of the line', () => {
  for (const i of line('after_sales')) assert.ok(ids(i).includes('shared-pool-mismatch'), `after_sales ${i}: ${ids(i)}`);
  for (const i of line('finance')) assert.ok(ids(i).includes('shared-pool-mismatch.lifecycle'), `finance ${i}: ${ids(i)}`);
  const d = found.get(FAULTS.poolMetadata)!.find((x) => x.code === 'shared-pool-mismatch')!;
  assert.match(d.message, /^Shared pool `after_sales_history` has metadata fields amount, case_id here but case_id, owner, timestamp in lines\/after_sales\/agent_001\/AGENTS\.md\.$/);
});

test('a resource pinned to another SHA-256: resource-pin-drift, in English and Chinese', () => {
  for (const i of line('logistics')) assert.ok(ids(i).includes('resource-pin-drift'), `logistics ${i}: ${ids(i)}`);
  const d = found.get(3)!.find((x) => x.code === 'resource-pin-drift')!;
  assert.match(d.message, /^Resource `configs\/resources\/logistics_rules\.csv` is pinned to SHA-256 [0-9a-f]{12}… here but to [0-9a-f]{12}… in lines\/logistics\/agent_009\/AGENTS\.md\.$/);
  assert.match(localiseDiagnostic(d, 'zh-cn').message, /^资源 `configs\/resources\/logistics_rules\.csv` 在此处锁定的 SHA-256 是 [0-9a-f]{12}…，而在 lines\/logistics\/agent_009\/AGENTS\.md 中是/);
});

test('a role writing a shared pool that the other contracts do not authorise: shared-pool-writer-unauthorised', () => {
  for (const i of line('support')) {
    if (i === FAULTS.rogueWriter) assert.ok(!ids(i).includes('shared-pool-writer-unauthorised'), 'the writer authorises its own role');
    else assert.ok(ids(i).includes('shared-pool-writer-unauthorised'), `support ${i}: ${ids(i)}`);
  }
  const d = found.get(4)!.find((x) => x.code === 'shared-pool-writer-unauthorised')!;
  assert.equal(d.message, "Shared pool `support_history` is written by role `RogueBot` in lines/support/agent_010/AGENTS.md, which this contract's Authorized Writers do not list.");
});

test('an error code returned for another condition by a contract of the same line: error-code-reused', () => {
  for (const i of line('procurement')) assert.ok(ids(i).includes('error-code-reused'), `procurement ${i}: ${ids(i)}`);
  // HITL codes are numbered per contract and never collide: nothing about them.
  assert.ok(!found.get(1)!.some((d) => d.code === 'error-code-reused'));
});

test('side-effect tools: ungated everywhere, or gated elsewhere but not here', () => {
  for (const i of FAULTS.ungatedTool) {
    const d = found.get(i)!.find((x) => x.messageId === 'side-effect-tool-ungated')!;
    assert.equal(d.message, 'Tool `issue_refund` has side effects and none of the 2 contracts that declare it gates it with an approval requirement or a HUMAN_IN_THE_LOOP row.');
  }
  assert.ok(ids(FAULTS.gatedElsewhere).includes('side-effect-tool-ungated.gatedElsewhere'));
  // The notification tool is gated by approval in the line's other contracts: they are fine.
  for (const i of line('finance').filter((i) => i !== FAULTS.gatedElsewhere)) assert.ok(!ids(i).some((x) => x.startsWith('side-effect-tool-ungated')));
});
