/**
 * Contract fragments shared by the feature, protocol, Neovim and CLI tests: a tool with a
 * `side_effects` enum to hover and complete, and a HITL row without a fallback (so that
 * `hitl-needs-fallback` and its quick fix have something to act on).
 */
export const TOOLS_AND_HITL = `## TOOLS

### \`get_stock\`

- **Description**: Stock per SKU.
- **Side Effects**: read

## HUMAN_IN_THE_LOOP

| Scenario | Trigger Condition | Required Action | SLA |
|---|---|---|---|
| Large order | amount > 100 | Manager approves | 4h |
`;

/** A small full contract around TOOLS_AND_HITL, as the protocol tests open it. */
export const DEMO_CONTRACT = `---
contract: true
name: demo
version: 1.1.0
---
## AGENT_IDENTITY

- **Name**: \`Demo\`
- **Hard Boundaries**:
  - ✅ May use \`get_stock\` to check stock

${TOOLS_AND_HITL}
## BUDGETS

- **Max Steps**: 20
`;

/** A full contract (front matter `contract: true`) with a schema error at line 8 and missing sections: the CLI tests' failing file. */
export const BAD_BUDGETS_CONTRACT = `---
contract: true
name: demo
version: 1.0.0
---
## BUDGETS

- **Max Steps**: twenty
`;

/** A partial contract (BUDGETS only) with one warning (no timeout), no error, and the `partial-contract` info. */
export const ONE_WARNING_BUDGETS = `## BUDGETS

- **Max Steps**: 20
- **Token Budget**: 10000
`;
