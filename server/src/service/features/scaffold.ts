/**
 * A way into the format (docs/vscode.md, "Getting started"): the skeleton of a new contract, and
 * the edits that turn a free-form AGENTS.md into one. The skeleton is complete and lints clean
 * (test/scaffold.test.ts), so a user starts from no problems and renames the placeholders
 * (`records`, `lookup_record`) with F2. Labels stay canonical English, as in every inserted text.
 */
import type { ParsedContract } from '../parse/parseContract.ts';
import type { CodeActionEntry } from './types.ts';
import { lineIndexOf } from '../model/text.ts';
import { format } from '../l10n/format.ts';
import { SECTIONS } from '../schema/sections.ts';
import { parseContract } from '../parse/parseContract.ts';
import { digestOf, sameText, type ContractContent } from '../model/digest.ts';
import type { Workspace } from '../workspace/resolveFacts.ts';

/** What the agent may do: answer from its memory only, or also change something after a human approved it. */
export const AGENT_KINDS = ['read-only', 'acting'] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

export interface SkeletonOptions {
  /** The agent's name as typed: the title; made a snake_case identifier (`agentName`) for `name`. */
  readonly name: string;
  readonly kind: AgentKind;
  /** Today's date (YYYY-MM-DD) for the first audit row. */
  readonly today: string;
}

/**
 * A snake_case identifier from what a user typed, in any script (docs/contract-format.md, "Names in
 * any script"): "Order Helper" → `order_helper`, "退款助手" → `退款助手`; `my_agent` when no letter is left.
 */
export function agentName(input: string): string {
  const words = input
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .normalize('NFC')
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const name = words.join('_').replace(/^[\p{N}_]+/u, '');
  return name || 'my_agent';
}

/** The title of a new contract: the name as typed when it has a letter, else its identifier. */
function titleOf(input: string, id: string): string {
  const typed = input.replace(/\s+/g, ' ').trim();
  return /\p{L}/u.test(typed) ? typed : id;
}

const READ_TOOL = `### \`lookup_record\`

- **Description**: Returns one record by its id.
- **When to use**: The query names a record id and the answer needs the record's details.
- **When not to use**: Do not call it to search; retrieve from the records pool first.
- **Side Effects**: read
- **Idempotent**: true
- **Timeout**: 10s

\`\`\`yaml
input_schema:
  type: object
  required: [record_id]
  properties:
    record_id: { type: string, minLength: 1, maxLength: 64 }
output_schema:
  type: object
  required: [record_id, status]
  properties:
    record_id: { type: string }
    status: { type: string }
\`\`\``;

const WRITE_TOOL = `### \`update_record\`

- **Description**: Sets the status of one record after a reviewer approved the change.
- **When to use**: A reviewer approved a change of a record's status.
- **When not to use**: Never call it without an approval or to answer a question.
- **Side Effects**: write
- **Requires Approval**: true
- **Idempotent**: false
- **Rollback**: Restore the previous status with the returned revision id
- **Timeout**: 30s

\`\`\`yaml
input_schema:
  type: object
  required: [record_id, status]
  properties:
    record_id: { type: string, minLength: 1, maxLength: 64 }
    status: { type: string, minLength: 1, maxLength: 64 }
output_schema:
  type: object
  required: [revision_id]
  properties:
    revision_id: { type: string }
\`\`\``;

/** A line of a skeleton; false leaves it out. */
type Line = string | false;

/** The H2 sections of a skeleton, in the format doc's order, without those `skip` names by title. */
export function skeletonSections(o: SkeletonOptions, skip: ReadonlySet<string> = new Set(), name = agentName(o.name)): string {
  const acting = o.kind === 'acting';
  return [
    ...identityLines(name, acting, skip),
    ...triggerAndMemoryLines(name),
    ...toolsAndOutputLines(acting),
    ...failureAndReviewLines(acting),
    ...closingLines(o, acting),
  ]
    .filter((x): x is string => x !== false)
    .join('\n')
    .split(/\n(?=## )/)
    .filter((block) => !skip.has(/^## (.+)/.exec(block)![1]!))
    .join('\n');
}

/** The AGENT_IDENTITY section: the read tool's line unless TOOLS is skipped, the acting agent's write and confirmation lines. */
function identityLines(name: string, acting: boolean, skip: ReadonlySet<string>): Line[] {
  return [
    '## AGENT_IDENTITY',
    '',
    `- **Name**: \`${name}\``,
    '- **Core Mandate**: "Answer questions about records from the records pool."',
    '- **Goal**: Every answer is grounded in a retrieved record; when speed and correctness conflict, correctness wins.',
    '- **Hard Boundaries**:',
    '  - ❌ Never state a fact that no retrieved record supports',
    !skip.has('TOOLS') && '  - ✅ May use `lookup_record` to read one record by its id',
    acting && '  - ✅ May use `update_record` once a reviewer has approved the change',
    `- **Authorized Writers**: System Auto${acting ? ', Reviewer' : ''}`,
    '- **On Missing Information**: Ask once for what is missing; never invent values.',
    '- **Output Standard**: One JSON object matching OUTPUT_SCHEMA.',
    '- **May Act Directly**:',
    '  - Read records',
    acting && '- **Needs Confirmation**:',
    acting && '  - Any change to a record',
    '',
  ];
}

/** TRIGGER and the memory sections: one records pool, required, fresh by a schedule. */
function triggerAndMemoryLines(name: string): Line[] {
  return [
    '## TRIGGER',
    '',
    '- **Intent Patterns**: `record.*status`, `what happened to record`',
    '- **Required Entities**: `record_id`',
    '',
    '## MEMORY_POOLS',
    '',
    '| Pool | Contents | Retrieval Trigger | Lifecycle | Metadata Fields | Weight |',
    '|---|---|---|---|---|---|',
    '| records | The records the agent answers from | Every query | 90 days | record_id, status, timestamp | 1.0 |',
    '',
    '## MEMORY_REQUIREMENTS',
    '',
    '```yaml',
    '- pool: records',
    '  required: true',
    '  filters:',
    '    - field: record_id',
    '      value: "{{extracted_record_id}}"',
    '  top_k: 5',
    '  weight: 1.0',
    '```',
    '',
    '## MEMORY_CONTRACT',
    '',
    '| Layer | Read By | Write By | Retention |',
    '|---|---|---|---|',
    `| Raw Log | ${name} | System Auto | 90 days |`,
    '',
    '## MEMORY_FRESHNESS',
    '',
    '- **records**: Must be updated before `02:00 UTC`. Stale after `06:00 UTC`.',
    '',
  ];
}

/** TOOLS (a read tool, and the write tool of an acting agent), CONSTRAINTS and OUTPUT_SCHEMA. */
function toolsAndOutputLines(acting: boolean): Line[] {
  return [
    '## TOOLS',
    '',
    READ_TOOL,
    acting && '',
    acting && WRITE_TOOL,
    '',
    '## CONSTRAINTS',
    '',
    '```yaml',
    'constraints:',
    '  - type: output_format',
    '    format: json',
    '  - type: language',
    '    language: en',
    '```',
    '',
    '## OUTPUT_SCHEMA',
    '',
    '```yaml',
    'type: object',
    'required: [answer, record_ids]',
    'properties:',
    '  answer:',
    '    type: string',
    '  record_ids:',
    '    type: array',
    '    items: { type: string }',
    '```',
    '',
  ];
}

/** FAILURE_PROTOCOL and HUMAN_IN_THE_LOOP: the acting agent's review gates its write, the read-only one's an answer without a record. */
function failureAndReviewLines(acting: boolean): Line[] {
  return [
    '## FAILURE_PROTOCOL',
    '',
    '- **If a required memory pool is unavailable**: → Stop before any reasoning → Return error_code `MEMORY_UNAVAILABLE`',
    '- **If a required memory pool is stale**: → Stop before any reasoning → Return error_code `MEMORY_STALE`',
    '- **If a tool call does not match its input schema**: → Let the model retry once → Return error_code `INVALID_INPUT`',
    '- **If the output is not valid JSON**: → Rewrite it into the JSON format once → Return error_code `FMT001`',
    acting
      ? '- **If Record change gets no approval within 4h**: → Leave the record unchanged → Return error_code `HITL001`'
      : '- **If Answer review gets no sign-off within 1h**: → Withhold the answer → Return error_code `HITL001`',
    '',
    '## HUMAN_IN_THE_LOOP',
    '',
    '| Scenario | Trigger Condition | Required Action | SLA | On Timeout |',
    '|---|---|---|---|---|',
    acting
      ? '| Record change | `update_record` is called | A reviewer approves the change before `update_record` runs | 4h | reject |'
      : '| Answer review | `len(output.record_ids) < 1` | A reviewer checks an answer that cites no record before it is sent | 1h | reject |',
    '',
  ];
}

/** BUDGETS, VERSIONING & AUDIT (the first version, today) and COMPLIANCE. */
function closingLines(o: SkeletonOptions, acting: boolean): Line[] {
  return [
    '## BUDGETS',
    '',
    '- **Max Steps**: 10',
    '- **Token Budget**: 8000',
    '- **Timeout**: 2m',
    '- **On Timeout**: Return what was retrieved so far and mark the answer as incomplete',
    acting && '- **Requires Approval**: `update_record`',
    '',
    '## VERSIONING & AUDIT',
    '',
    '| Version | Date | Changed By | Key Changes |',
    '|---|---|---|---|',
    `| v0.1.0 | ${o.today} | @you | First version |`,
    '',
    '## COMPLIANCE',
    '',
    '- **Data Residency**: Records stay in the region where they were created',
    '- **PII Handling**: Never write personal data into the answer',
    '- **Audit Trail**: Every change records who made it and when',
    '',
  ];
}

function frontMatter(name: string, description: string): string {
  return ['---', 'contract: true', `name: ${name}`, 'version: 0.1.0', `description: ${JSON.stringify(description)}`, '---', ''].join('\n');
}

/** A complete contract for a new agent: front matter, a title and every section, linting clean. */
export function contractSkeleton(o: SkeletonOptions): string {
  return newContract(o).text;
}

/** The contracts of the workspace, as `newContract` compares a new one with them. */
export async function workspaceDigests(workspace: Workspace): Promise<ContractContent[]> {
  const out: ContractContent[] = [];
  for (const uri of await workspace.contractUris()) {
    const digest = (await workspace.summaryOf(uri)).digest;
    if (digest) out.push(digest);
  }
  return out;
}

/**
 * A new contract that lints clean beside the workspace's `others` (its cross-contract rules): the
 * agent's name gets `_2`, `_3`… when another contract declares it already (`agent-name-conflict`),
 * and an error code another contract returns for another failure gets the next free number
 * (`error-code-reused`: two skeletons of different kinds both used `HITL001`).
 */
export function newContract(o: SkeletonOptions, others: readonly ContractContent[] = []): { name: string; text: string } {
  const taken = new Set(others.map((c) => c.agent?.name));
  const base = agentName(o.name);
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  let text = `${frontMatter(name, 'Answers questions about records from the records pool.')}\n# ${titleOf(o.name, name)}\n\n${skeletonSections(o, new Set(), name)}`;
  const theirs = others.flatMap((c) => c.errorCodes);
  const used = new Set(theirs.map((c) => c.code));
  for (const c of digestOf(parseContract(text)).errorCodes) {
    if (!theirs.some((x) => x.code === c.code && sameText(x.meaning) !== sameText(c.meaning))) continue;
    const free = nextFreeCode(c.code, used);
    used.add(free);
    text = text.replaceAll(`\`${c.code}\``, `\`${free}\``);
  }
  return { name, text };
}

/** `HITL001` → `HITL002` (or `MEMORY_STALE` → `MEMORY_STALE_2`), the first not in `used`. */
function nextFreeCode(code: string, used: ReadonlySet<string>): string {
  const m = /^(.*?)(\d+)$/.exec(code);
  for (let i = m ? Number(m[2]) + 1 : 2; ; i++) {
    const next = m ? `${m[1]}${String(i).padStart(m[2]!.length, '0')}` : `${code}_${i}`;
    if (!used.has(next)) return next;
  }
}

/**
 * "Convert to contract" on a free-form AGENTS.md (a `refactor.rewrite` action): front matter that
 * marks it a contract, and the skeleton's sections it does not have yet after the existing text,
 * which stays as it is. The agent's name comes from the first H1, if any. What the existing text
 * says in sections the linter reads (a `## Tools` table) is then checked like any contract's.
 */
export function convertToContract(model: ParsedContract, options: { readonly today: string; readonly lang?: string }): CodeActionEntry[] {
  if (model.kind !== 'freeform' || model.sections[0]?.frontMatter) return [];
  const idx = lineIndexOf(model);
  let title = '';
  for (let line = 0; line < idx.lineCount && !title; line++) title = /^#\s+(.+?)\s*#*\s*$/.exec(idx.lineText(line))?.[1] ?? '';
  const o: SkeletonOptions = { name: title && title !== 'AGENTS.md' ? title : 'my_agent', kind: 'read-only', today: options.today };
  const last = idx.lineCount - 1;
  const end = { line: last, character: idx.lineText(last).length };
  const lead = idx.lineText(last).trim() ? '\n\n' : '\n';
  return [{
    title: format('action.convertToContract', {}, options.lang ?? 'en'),
    kind: 'refactor',
    fixes: [],
    edits: [
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: frontMatter(agentName(o.name), 'TODO: one sentence on what this agent does') },
      { range: { start: end, end }, newText: `${lead}${skeletonSections(o, new Set(SECTIONS.filter((x) => model.owners.has(x.key)).map((x) => x.title)))}` },
    ],
  }];
}
