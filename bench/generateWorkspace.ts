/**
 * A generated workspace of many contracts (docs/workspace.md): business lines whose contracts
 * share a memory pool, a pinned resource file and a notification tool, with deliberate faults
 * for each cross-contract rule, and snapshots for some contracts. Used by test/workspace.test.ts
 * and by the bench (50 and 500 contracts). Deterministic: the same `n` gives the same files.
 */
import { createHash } from 'node:crypto';

/** Business lines; contract i belongs to `LINES[i % LINES.length]`. `hr` has no fault. */
export const LINES = ['procurement', 'after_sales', 'finance', 'logistics', 'support', 'hr'] as const;

/** Which contract carries which deliberate fault (indices; each needs n > index). */
export const FAULTS = {
  /** Declares the agent name of contract 0 at another version. */
  agentDuplicate: 6,
  /** Lists other metadata fields for its line's shared pool. */
  poolMetadata: 7,
  /** Gives its line's shared pool another lifecycle. */
  poolLifecycle: 8,
  /** Pins its line's resource to an old SHA-256. */
  resourceDrift: 9,
  /** Writes memory with `RogueBot`, a role its line's other contracts do not authorise. */
  rogueWriter: 10,
  /** Returns its line's error code for another condition. */
  errorCode: 12,
  /** Declare `issue_refund` (external) with no approval and no HITL row. */
  ungatedTool: [13, 19],
  /** Declares its line's notification tool without the approval the others require. */
  gatedElsewhere: 14,
} as const;

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const title = (line: string) => line.split('_').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');

export function resourceText(line: string): string {
  return `rule,value\n${line}_limit,50000\n${line}_owner,${title(line)}Desk\n`;
}

/** The folder of contract i, relative to the workspace root. */
export function contractPath(i: number): string {
  const line = LINES[i % LINES.length]!;
  return `lines/${line}/agent_${String(i).padStart(3, '0')}/AGENTS.md`;
}

function contract(i: number): string {
  const line = LINES[i % LINES.length]!;
  const T = title(line);
  const agent = i === FAULTS.agentDuplicate ? 'Agent0' : `Agent${i}`;
  const version = i === FAULTS.agentDuplicate ? '2.0.0' : `1.${i % 4}.0`;
  const writer = `${T}Writer`;
  const writers = i === FAULTS.rogueWriter ? `System Auto, ${writer}, RogueBot` : `System Auto, ${writer}`;
  const writeBy = i === FAULTS.rogueWriter ? 'RogueBot' : writer;
  const metadata = i === FAULTS.poolMetadata ? '`case_id`, `amount`' : '`case_id`, `timestamp`, `owner`';
  const lifecycle = i === FAULTS.poolLifecycle ? '30 days rolling' : '90 days, then archived';
  const pinned = i === FAULTS.resourceDrift ? sha(`old ${line}`) : sha(resourceText(line));
  const code = `${line.toUpperCase()}001`;
  const codeCondition = i === FAULTS.errorCode ? `the ${line} request has no owner` : `the ${line} history pool is unavailable`;
  const notice = `send_${line}_notice`;
  const gated = i !== FAULTS.gatedElsewhere;
  const refund = (FAULTS.ungatedTool as readonly number[]).includes(i);
  const pii = i % 4 !== 1;
  const residency = i % 5 !== 2;
  const tool = (name: string, effects: string, approval: boolean) =>
    [`### ${name}`, '', `- **Description**: ${name.replace(/_/g, ' ')}.`, `- **Side Effects**: ${effects}`, '- **Idempotent**: yes', ...(approval ? ['- **Requires Approval**: yes'] : []), '- **Input Schema**:', '  ```json', '  { "type": "object", "properties": { "case_id": { "type": "string" } } }', '  ```', '- **Output Schema**:', '  ```json', '  { "type": "object" }', '  ```', ''].join('\n');
  return [
    '---',
    'contract: true',
    `name: ${line}_agent_${i}`,
    `version: ${version}`,
    `description: Handles ${line.replace('_', ' ')} requests, agent ${i}.`,
    '---',
    '',
    `# ${agent}`,
    '',
    '## AGENT_IDENTITY',
    '',
    `- **Name**: \`${agent}\``,
    `- **Core Mandate**: "Answer ${line.replace('_', ' ')} requests from the ${T} desk."`,
    `- **Authorized Writers**: ${writers}`,
    '',
    '## MEMORY_CONTRACT',
    '',
    '| Layer | Read By | Write By | Retention |',
    '|---|---|---|---|',
    '| Raw Log | Audit Team | System Auto | 90 days |',
    `| Cognitive Fact | ${agent} | ${writeBy} | 30 days |`,
    '',
    '## MEMORY_POLICY',
    '',
    '- **Override Reasons**: `data_error`, `policy_change`',
    '',
    '## MEMORY_POOLS',
    '',
    `### ${line}_history`,
    '',
    `- **Content**: Past ${line.replace('_', ' ')} cases`,
    `- **Lifecycle**: ${lifecycle}`,
    `- **Metadata**: ${metadata}`,
    '- **Shared**: yes',
    '',
    '## MEMORY_REQUIREMENTS',
    '',
    '```yaml',
    `- pool: ${line}_history`,
    '  required: true',
    '  top_k: 5',
    '```',
    '',
    '## TOOLS',
    '',
    tool(notice, 'external', gated),
    ...(refund ? [tool('issue_refund', 'external', false)] : []),
    '## FAILURE_PROTOCOL',
    '',
    `- **If ${codeCondition}**: → Stop → Return error_code \`${code}\``,
    `- **If ${line} notice approval times out**: → Do not send → Return error_code \`HITL${String(i).padStart(3, '0')}\``,
    '',
    '## HUMAN_IN_THE_LOOP',
    '',
    '| Scenario | Trigger Condition | Required Action | SLA |',
    '|---|---|---|---|',
    `| ${T} notice approval | \`amount > 50000\` | ${gated ? `Approve before \`${notice}\` runs` : 'Approve the notice'} | 4h |`,
    '',
    ...(i % 7 === 3 ? [] : ['## BUDGETS', '', '- **Max Steps**: 20', '- **Token Budget**: 10,000', '- **Timeout**: 5m', '']),
    '## COMPLIANCE',
    '',
    ...(residency ? ['- **Data Residency**: eu-west-1'] : []),
    ...(pii ? ['- **PII Handling**: Redact customer names before the Cognitive Fact layer is written'] : []),
    '- **Audit Trail**: Every override records its `override_reason`',
    `- **Clauses**: ${i % 2 === 0 ? 'GDPR-ART-30' : 'GDPR-ART-30, SOX-404'}`,
    '',
    '## RESOURCES',
    '',
    '| Path | SHA-256 |',
    '|---|---|',
    `| \`configs/resources/${line}_rules.csv\` | ${pinned} |`,
    '',
    '## VERSIONING & AUDIT',
    '',
    '| Version | Date | Changed By | Key Changes |',
    '|---|---|---|---|',
    `| ${version} | 2024-0${1 + (i % 9)}-1${i % 10} | @${line} | Generated agent ${i} |`,
    '',
  ].join('\n');
}

function snapshot(i: number): string {
  const line = LINES[i % LINES.length]!;
  return [
    'contract: ../AGENTS.md',
    'now: "2024-06-12T08:00:00Z"',
    'pools:',
    `  ${line}_history:`,
    '    records:',
    '      - { case_id: C-1, timestamp: "2024-06-01T00:00:00Z", owner: desk }',
    'tools:',
    `  send_${line}_notice:`,
    '    - output: { sent: true }',
    'queries:',
    '  - id: notice',
    `    query: "send the ${line} notice for C-1"`,
    '    data: { amount: 60000 }',
    '    model:',
    `      - call: send_${line}_notice`,
    '        arguments: { case_id: C-1 }',
    '      - final: done',
    '    human:',
    `      ${title(line)} notice approval: approve`,
    '',
  ].join('\n');
}

/** The workspace's files: path relative to the root → content. Contract i % 3 === 0 has a snapshot. */
export function generateWorkspace(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (const line of LINES) files[`configs/resources/${line}_rules.csv`] = resourceText(line);
  for (let i = 0; i < n; i++) {
    files[contractPath(i)] = contract(i);
    if (i % 3 === 0) files[contractPath(i).replace(/AGENTS\.md$/, 'snapshots/main.snapshot.yaml')] = snapshot(i);
  }
  return files;
}
