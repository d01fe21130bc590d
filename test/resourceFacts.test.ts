/**
 * What the workspace says of a contract's resources (service/workspace/resolveFacts.ts): a file is
 * found by its name, and read and hashed only when the contract pins its SHA-256 (hashing starts
 * WebCrypto, docs/performance.md "Start-up"); the pin is checked as before.
 * Run: node --import tsx --test test/resourceFacts.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { parseContract, validateContract, Workspace } from '../server/src/service/index.ts';
import { memoryFs } from './helpers/memoryFs.ts';

const contract = (sha: string | undefined) => `---
contract: true
name: resource_facts
version: 1.0.0
---

## IDENTITY
- Role: reads two lists.

## RESOURCES
| path | description |${sha === undefined ? '' : ' sha256 |'}
| --- | --- |${sha === undefined ? '' : ' --- |'}
| vendors.csv | the vendors |${sha === undefined ? '' : ` ${sha} |`}
| rates.csv | the rates |${sha === undefined ? '' : ' |'}
`;

test('resource files are found without being read; one whose SHA-256 is pinned is read, hashed and checked', async () => {
  const files = { 'file:///w/vendors.csv': 'a,b\n', 'file:///w/rates.csv': 'r\n' };
  const read: string[] = [];
  const fs = memoryFs(files);
  const counted = { ...fs, readFile: async (uri: string) => (read.push(uri), fs.readFile(uri)) };
  const uri = 'file:///w/AGENTS.md';

  const plain = parseContract(contract(undefined));
  const facts = await new Workspace({ fs: { ...counted, readFile: async (u: string) => (u === uri ? undefined : counted.readFile(u)) }, roots: ['file:///w'] }).facts(uri, plain);
  assert.deepEqual([...facts.resources.keys()].sort(), ['rates.csv', 'vendors.csv']);
  for (const status of facts.resources.values()) assert.equal(status.status, 'found');
  assert.deepEqual(read.filter((u) => u.endsWith('.csv')), [], 'no resource read');

  const right = createHash('sha256').update('a,b\n').digest('hex');
  for (const [sha, findings] of [[right, []], ['0'.repeat(64), ['resource-hash-mismatch']]] as const) {
    read.length = 0;
    const model = parseContract(contract(sha));
    const pinned = await new Workspace({ fs: counted, roots: ['file:///w'] }).facts(uri, model);
    assert.deepEqual(read.filter((u) => u.endsWith('.csv')), ['file:///w/vendors.csv'], 'the pinned file only');
    assert.deepEqual(pinned.resources.get('vendors.csv'), { status: 'found', uri: 'file:///w/vendors.csv', sha256: right });
    assert.deepEqual(validateContract(model, pinned).filter((d) => d.code.startsWith('resource-')).map((d) => d.code), findings);
  }
});
