/**
 * A GFM table's cost per row (`npm run bench`; alone: `node --import tsx bench/tables.ts`): a
 * HUMAN_IN_THE_LOOP table and a TOOLS table of 1,000 to 2,000 rows (MAX_TABLE_ROWS), parsed and
 * validated from cold, in CPU time (less sensitive to a loaded machine than wall time), with the
 * characters remark was given per row (parse/work.ts); then a table over the limit, which remark
 * is not given (docs/robustness.md, "Parsing limits"). Never fails the build.
 */
import { availableParallelism, loadavg } from 'node:os';
import { parseContract, validateContract, type ParsedContract } from '../server/src/service/index.ts';
import { parseWork } from '../server/src/service/parse/work.ts';
import { MAX_TABLE_ROWS } from '../server/src/service/parse/blockSize.ts';

const FM = '---\ncontract: true\nname: tables\nversion: 1.0.0\n---\n\n';
const KINDS = {
  HUMAN_IN_THE_LOOP: ['| Scenario | Trigger Condition | Required Action | SLA | On Timeout |\n|---|---|---|---|---|', (i: number) => `| scenario_${i} | \`amount > ${1000 + i}\` | Finance approves the \\| split | ${1 + (i % 48)}h | reject |`],
  TOOLS: ['| Name | Description | Side Effects | Input Schema |\n|---|---|---|---|', (i: number) => `| tool_${i} | Reads record ${i} from the ledger | read | \`{"type":"object"}\` |`],
} as const;

/** CPU milliseconds (user + system) of `f`. */
function cpuMs(f: () => void): number {
  const c = process.cpuUsage();
  f();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000;
}

function measure(section: keyof typeof KINDS, rows: number): void {
  const [head, row] = KINDS[section];
  const text = `${FM}## ${section}\n\n${head}\n${Array.from({ length: rows }, (_, i) => row(i)).join('\n')}\n`;
  const chars = parseWork.markdownChars;
  let model: ParsedContract | undefined;
  const parse = cpuMs(() => {
    model = parseContract(text);
  });
  const validate = cpuMs(() => validateContract(model!));
  const perRow = (x: number) => (x / rows).toFixed(0).padStart(6);
  const skipped = model!.sections.some((s) => s.findings.some((f) => f.code === 'content-too-complex'));
  console.log(
    `${`${section}, ${rows} rows${skipped ? ' (skipped)' : ''}`.padEnd(42)}parse ${parse.toFixed(0).padStart(6)} ms, validate ${validate.toFixed(0).padStart(5)} ms; per row ${perRow(1000 * (parse + validate))} µs, ${perRow(parseWork.markdownChars - chars)} characters to remark`,
  );
}

console.log(`\nGFM tables, CPU time per row (Node ${process.version}; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`);
validateContract(parseContract(`${FM}## BUDGETS\n\n- **Max Steps**: 3\n`));
for (const section of Object.keys(KINDS) as (keyof typeof KINDS)[]) {
  for (const rows of [MAX_TABLE_ROWS / 2, MAX_TABLE_ROWS, 15 * MAX_TABLE_ROWS]) measure(section, rows);
}
