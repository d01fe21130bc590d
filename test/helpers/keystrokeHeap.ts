/**
 * Run by test/keystrokeMemory.test.ts in a process of its own (`node --expose-gc`): one-cell edits
 * in the HITL table of a generated 2,000-line contract, each parsed on the last version and
 * validated with its reference index, as the server does; prints the heap used after a full
 * collection, in bytes. Usage: keystrokeHeap.ts EDITS
 */
import { parseContract, validateContract } from '../../server/src/service/index.ts';
import { referencesOf } from '../../server/src/service/model/references.ts';
import { editTableCell, generateContract } from '../../bench/generate.ts';

const edits = Number(process.argv[2] ?? 40);
let text = generateContract(2000, 3);
const lines = text.split('\n');
const hitl = lines.findIndex((l) => /^## (HUMAN_IN_THE_LOOP|Human)/i.test(l));
let model = parseContract(text);
for (let i = 0; i < edits; i++) {
  text = editTableCell(text, hitl + 6 + (i % 5) * 4, i).text;
  model = parseContract(text, model);
  referencesOf(model);
  validateContract(model);
}
(globalThis as { gc?: () => void }).gc?.();
process.stdout.write(String(process.memoryUsage().heapUsed));
