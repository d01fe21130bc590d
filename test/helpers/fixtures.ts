/**
 * Contract fragments shared by the feature, protocol and Neovim tests: a tool with a
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
