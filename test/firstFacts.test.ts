/**
 * The first diagnostics in a large workspace (docs/performance.md, "The first seconds after
 * opening"): with the configuration alone (`workspacePending`), the rules that need the workspace
 * wait; everything else is as with the full facts. test/lspWorkspace.test.ts checks it over the protocol.
 * Run: node --import tsx --test test/firstFacts.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseContract, validateContract, Workspace } from '../server/src/service/index.ts';
import { RULES } from '../server/src/service/host.ts';
import { generateWorkspace } from '../bench/generateWorkspace.ts';
import { memoryFs } from './helpers/memoryFs.ts';

const files = Object.fromEntries(Object.entries(generateWorkspace(12)).map(([path, text]) => [`file:///w/${path}`, text]));
const contracts = Object.keys(files).filter((u) => u.endsWith('/AGENTS.md')).sort();
const NEEDS_WORKSPACE = new Set(RULES.filter((r) => r.needsWorkspace).map((r) => r.code));

test('with the configuration alone, the findings are the full ones less those of the rules that need the workspace', async () => {
  const ws = new Workspace({ fs: memoryFs(files), roots: ['file:///w'] });
  let workspaceFindings = 0;
  for (const uri of contracts) {
    const model = parseContract(files[uri] as string);
    const alone = await ws.configFacts(uri);
    assert.equal(alone.workspacePending, true);
    const full = validateContract(model, await ws.facts(uri, model));
    const first = validateContract(model, alone);
    workspaceFindings += full.filter((d) => NEEDS_WORKSPACE.has(d.code)).length;
    assert.deepEqual(first, full.filter((d) => !NEEDS_WORKSPACE.has(d.code)), uri);
  }
  assert.ok(workspaceFindings > 0, 'the workspace has cross-contract findings to wait for');
});

test('unsummarised counts the other contracts not read yet', async () => {
  const ws = new Workspace({ fs: memoryFs(files), roots: ['file:///w'] });
  const uri = contracts[0]!;
  assert.equal(await ws.unsummarised(uri), contracts.length - 1);
  await ws.summaryOf(contracts[1]!);
  assert.equal(await ws.unsummarised(uri), contracts.length - 2);
  await ws.facts(uri, parseContract(files[uri] as string));
  assert.equal(await ws.unsummarised(uri), 0);
});
