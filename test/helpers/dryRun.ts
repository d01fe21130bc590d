/**
 * A small contract and snapshot for the dry-run tests (test/run-*.test.ts): one required pool
 * with a prefix filter and freshness, one optional pool, a read tool and an approval tool, a
 * checkable and an uncheckable safety guard, a HITL row with an expression, FAILURE_PROTOCOL
 * entries by code and by prose, budgets and PII fields.
 */
import { parseContract, type ParsedContract } from '../../server/src/service/index.ts';
import { readSnapshot } from '../../server/src/service/run/snapshot/snapshotValidate.ts';
import { runQuery, scriptedDecisions, type RunOptions, type RunResult } from '../../server/src/service/run/engine/engine.ts';
import { createScriptedModel } from '../../server/src/service/run/llm/scriptedLlm.ts';
import type { Snapshot, SnapshotQuery } from '../../server/src/service/run/snapshot/snapshot.ts';

export const CONTRACT = `---
contract: true
name: demo_agent
version: 1.0.0
---

## AGENT_IDENTITY

- **Name**: \`DemoAgent\`
- **Core Mandate**: "Answer order questions from the order log."

## MEMORY_POOLS

### order_log

- **Content**: Orders
- **Metadata**: \`order_id\`, \`customer\`, \`status\`
- **Weight**: 0.8

### notes

- **Content**: Support notes
- **Weight**: 0.2

## MEMORY_REQUIREMENTS

\`\`\`yaml
- pool: order_log
  required: true
  filters:
    - field: order_id_prefix
      value: "{{extracted_order_id[:4]}}"
  top_k: 2
- pool: notes
  required: false
  filters:
    - field: customer
      value: "{{extracted_customer}}"
\`\`\`

## MEMORY_FRESHNESS

- **order_log**: Must be updated before \`05:00 UTC\`. Stale after \`07:00 UTC\`.

## TRIGGER

\`\`\`yaml
intent_patterns:
  - 'order\\s+(?<order_id>ORD-\\d+)'
  - '^(\\w+\\s?)+$'
required_entities:
  - order_id
\`\`\`

## TOOLS

### get_order

- **Description**: Returns one order.
- **Timeout**: 5s
- **Input Schema**:
  \`\`\`json
  { "type": "object", "required": ["order_id"], "properties": { "order_id": { "type": "string", "pattern": "^ORD-\\\\d+$" } } }
  \`\`\`
- **Output Schema**:
  \`\`\`json
  { "type": "object", "required": ["status"], "properties": { "status": { "type": "string" } } }
  \`\`\`

### refund_order

- **Description**: Refunds an order.
- **Side Effects**: write
- **Requires Approval**: true
- **Idempotent**: yes
- **Input Schema**:
  \`\`\`json
  { "type": "object", "required": ["order_id", "amount"], "properties": { "order_id": { "type": "string" }, "amount": { "type": "number" } } }
  \`\`\`
- **Output Schema**:
  \`\`\`json
  { "type": "object", "required": ["refund_id"], "properties": { "refund_id": { "type": "string" } } }
  \`\`\`

## CONSTRAINTS

\`\`\`yaml
- type: output_format
  format: json
  schema:
    type: object
    required: [status]
- type: safety_guard
  rule: Only statuses from the order log.
  check: "output.status IN memory.order_log[*].status"
- type: safety_guard
  rule: Be polite.
\`\`\`

## HUMAN_IN_THE_LOOP

| Scenario | Trigger Condition | Required Action | SLA | On Timeout |
|---|---|---|---|---|
| Big refund | \`amount > 100\` | A manager approves | 4h | reject |

## FAILURE_PROTOCOL

- **If a required pool is down**: → Stop → Alert \`#orders\` with severity \`P2\` → Return error_code \`MEMORY_UNAVAILABLE\`
- **If Big refund gets no sign-off**: → Reject → Return error_code \`HITL001\`
- **If the answer is not JSON**: → Fall back to a polite apology → Return error_code \`FMT001\`

## BUDGETS

- **Max Steps**: 6
- **Token Budget**: 50000
- **Timeout**: 1m

## COMPLIANCE

- **PII Fields**: \`customer\`
`;

export const SNAPSHOT = `
now: "2024-06-12T08:00:00Z"
pools:
  order_log:
    updated_at: "2024-06-12T04:00:00Z"
    records:
      - { order_id: ORD-123, status: shipped, customer: Zed Example, timestamp: "2024-06-10T00:00:00Z" }
      - { order_id: ORD-124, status: paid, customer: Zed Example, timestamp: "2024-06-11T00:00:00Z" }
      - { order_id: ORD-129, status: cancelled, timestamp: "2024-06-01T00:00:00Z" }
      - { order_id: XRD-1, status: lost, timestamp: "2024-06-11T00:00:00Z" }
  notes:
    records: []
tools:
  get_order:
    - match: { order_id: ORD-123 }
      output: { status: shipped }
  refund_order:
    - output: { refund_id: R-1 }
queries:
  - id: base
    query: where is order ORD-123
    model:
      - call: get_order
        arguments: { order_id: ORD-123 }
      - final: { status: shipped }
`;

export const contract: ParsedContract = parseContract(CONTRACT);

/** The snapshot, with the first query's fields replaced by `patch` (a YAML text for `queries`). */
export function snapshot(queriesYaml?: string): Snapshot {
  const text = queriesYaml ? SNAPSHOT.replace(/queries:[\s\S]*$/, `queries:\n${queriesYaml}`) : SNAPSHOT;
  const r = readSnapshot(text, { contract });
  if (!r.snapshot) throw new Error(`bad test snapshot: ${JSON.stringify(r.diagnostics)}`);
  return r.snapshot;
}

/** Runs a query with the scripted model and decisions; `options` override any run option. */
export function run(query: SnapshotQuery, options: Partial<RunOptions> = {}, now = '2024-06-12T08:00:00Z'): Promise<RunResult> {
  return runQuery({ contract, query, now, provider: createScriptedModel(query.model), decide: scriptedDecisions(query.human), ...options });
}
