import type { Rule } from '../rule.ts';
import type { Finding } from '../../model/types.ts';
import { arr, declarationsBroken, FM, obj, str } from './util.ts';
import { referencesOf } from '../../model/references.ts';
import { DECLARED, declareToolFix, nearToolFix } from './declareTool.ts';
import { boundaryForms, parseBoundary, type Boundary } from '../../model/boundaries.ts';

const ID_GOOD = `## AGENT_IDENTITY

- **Name**: \`ProcurementAnalyzer\`
- **Core Mandate**: "Extract items, budget, deadline and vendor constraints from a request."
- **Goal**: Correct, complete extraction; when in doubt, prefer leaving a field empty.
- **Hard Boundaries**:
  - ❌ Never suggest vendors not in \`vendor_whitelist.csv\`
  - ✅ May use \`check_inventory\` to check stock
- **On Missing Information**: Set the field to null and continue; never guess.
- **Output Standard**: Valid JSON per OUTPUT_SCHEMA.
- **May Act Directly**: read-only lookups
- **Needs Confirmation**: anything that writes
`;

export const roleCompleteness: Rule = {
  code: 'role-completeness',
  severity: 'warning',
  preset: 'strict',
  summary: 'AGENT_IDENTITY states the goal, allowed and forbidden actions, what to do when information is missing, the output standard and the executable boundary.',
  description: 'A role definition is a work manual, not a name tag. Without a goal the agent cannot arbitrate conflicts; without ✅/❌ boundaries it invents tools; without a rule for missing information it loops trying to fill gaps; without an output standard nobody can check it; and without saying what it may do directly versus what needs confirmation it keeps asking for confirmation. HUMAN_IN_THE_LOOP rows and approval flags on tools or in BUDGETS count as saying what needs confirmation.',
  source: 'docs/contract-format.md §9, AGENT_IDENTITY',
  messages: { default: 'AGENT_IDENTITY is not a complete role definition (goal, allowed and forbidden actions, behaviour on missing information, output standard, what it may do directly). Add {fields}.' },
  examples: {
    bad: `${FM}\n## AGENT_IDENTITY\n\n- **Name**: \`ProcurementAnalyzer\`\n- **Core Mandate**: "Analyze procurement requests."\n`,
    good: `${FM}\n${ID_GOOD}`,
    at: `⟦AGENT_IDENTITY⟧`,
  },
  *check({ data, section }) {
    const id = obj(data['identity']);
    const s = section('identity');
    if (!id || !s) return;
    // Labels only (language-neutral contract vocabulary): the message itself says what they are for.
    const missing: string[] = [];
    if (!str(id['goal']) && !str(id['core_mandate'])) missing.push('**Goal**');
    const b = arr(id['hard_boundaries']).map((x) => String(x));
    if (!b.some((x) => x.includes('✅')) || !b.some((x) => x.includes('❌'))) missing.push('**Hard Boundaries** (✅ + ❌)');
    if (!str(id['on_missing_information'])) missing.push('**On Missing Information**');
    if (!str(id['output_standard'])) missing.push('**Output Standard**');
    // HITL rows and approval flags already say what needs confirmation.
    const confirmed = arr(data['human_in_the_loop']).length > 0 || arr(obj(data['budgets'])?.['requires_approval']).length > 0 || arr(data['tools']).some((t) => obj(t)?.['requires_approval'] === true);
    if (!id['may_act_directly'] && !id['needs_confirmation'] && !confirmed) missing.push('**May Act Directly** / **Needs Confirmation**');
    if (missing.length === 0) return;
    yield { code: 'role-completeness', range: s.titleRange ?? s.range, args: { fields: missing.join(', ') } };
  },
};

export const undeclaredTool: Rule = {
  code: 'undeclared-tool',
  severity: 'error',
  scope: 'document',
  summary: 'Tools named in Hard Boundaries, constraints, HITL rows and budgets are declared in TOOLS.',
  description: 'A contract may say "✅ May use `inventory_api`" without a TOOLS section that declares it: the agent is promised a tool it will never get, or gets one nobody reviewed. Only backticked identifiers count as tool references (docs/contract-format.md, "Cross-references"); names that are pools, entities, roles or layers of this contract are not tools.',
  source: 'docs/contract-format.md §8 (cross-references)',
  messages: { default: '`{name}` is used as a tool here but TOOLS declares no such tool.' },
  examples: {
    bad: `${FM}\n## AGENT_IDENTITY\n\n- **Hard Boundaries**:\n  - ✅ May use \`inventory_api\` to check stock\n\n## TOOLS\n\n### \`check_inventory\`\n\n- **Description**: Returns stock per SKU.\n`,
    good: `${FM}\n## AGENT_IDENTITY\n\n- **Hard Boundaries**:\n  - ✅ May use \`check_inventory\` to check stock\n\n## TOOLS\n\n### \`check_inventory\`\n\n- **Description**: Returns stock per SKU.\n`,
    at: `⟦inventory_api⟧`,
    fixed: `${FM}\n## AGENT_IDENTITY\n\n- **Hard Boundaries**:\n  - ✅ May use \`inventory_api\` to check stock\n\n## TOOLS\n\n### \`check_inventory\`\n\n- **Description**: Returns stock per SKU.\n\n${DECLARED}`,
  },
  fixKind: 'quickfix',
  *check({ model, data, locate, section }) {
    if (declarationsBroken(section, 'tools')) return;
    const refs = referencesOf(model);
    const tools = locate('/tools');
    const banned = new Set(boundaryForms(model).filter((b) => b.kind === 'forbid').map((b) => b.tool));
    for (const c of refs.candidates) {
      // A tool a ❌ boundary forbids must not be declared (forbidden-tool-declared): its absence is right.
      if (forbiddenByBoundary(data, c.pointer, c.name) || (banned.has(c.name) && c.pointer.startsWith('/identity/hard_boundaries/'))) continue;
      yield { code: 'undeclared-tool', range: c.range, args: { name: c.name }, ...(tools ? { related: [{ range: tools.value, messageId: 'related.toolsDeclared' }] } : {}) };
    }
    for (const r of refs.references) {
      if (r.kind === 'tool' && r.via === 'field' && !refs.names.get('tool')?.has(r.name)) {
        yield { code: 'undeclared-tool', range: r.range, args: { name: r.name } };
      }
    }
  },
  // A declared tool one edit away is most likely what was meant; else the tool is declared.
  fix: (d, model) => nearToolFix(d, model) ?? declareToolFix(d, model),
  alternatives: (d, model) => (nearToolFix(d, model) ? [declareToolFix(d, model)].filter((f) => f !== undefined) : []),
};

/**
 * Whether a ❌ boundary forbids the tool itself ("Never call `x`", "禁止调用 `x`") rather than
 * naming it in passing ("Never promise a refund before `get_order` confirms the order").
 */
const FORBIDS = /(?:\b(?:never|not|don't|no|must not|cannot)\s+(?:ever\s+)?(?:(?:call|use|invoke|run|execute|trigger|expose)\b(?:\s+the)?(?:\s+tool)?)?|禁止|不得|不要|不可|严禁|勿)\s*(?:调用|使用|执行|运行)?\s*(?:工具)?\s*[`'"]?$/i;

/**
 * Order, count and "only after success" boundaries in a form the dry run does not check (the
 * checkable ones are parsed in model/boundaries.ts) ("Never call `a` before `b`", "more than 2
 * times per run", "unless `b` succeeded", "在 `b` 之前", "不得超过 2 次", "成功之后") limit a tool
 * the contract declares; they do not forbid it (docs/contract-format.md, AGENT_IDENTITY).
 */
const LIMITS = /\b(?:before|after|unless|until|more than|at most|once)\b|\d+\s*(?:times|calls)\b|之前|之后|以前|以后|超过|\d+\s*次|成功/i;

export function forbidsTool(boundary: string, tool: string): boolean {
  const form = parseBoundary(boundary);
  if (form) return form.kind === 'forbid' && form.tool === tool;
  if (LIMITS.test(boundary)) return false;
  const at = boundary.indexOf(tool);
  if (at < 0) return true;
  const before = boundary.slice(0, at).replace(/❌/u, '').trim();
  return before === '' || before === '`' || FORBIDS.test(before);
}

/** Whether the reference at `pointer` is in a ❌ Hard Boundary that forbids the tool `name` itself. */
function forbiddenByBoundary(data: Readonly<Record<string, unknown>>, pointer: string, name: string): boolean {
  const m = /^\/identity\/hard_boundaries\/(\d+)$/.exec(pointer);
  const text = m ? String(arr(obj(data['identity'])?.['hard_boundaries'])[Number(m[1])] ?? '') : '';
  return text.includes('❌') && forbidsTool(text, name);
}

export const forbiddenToolDeclared: Rule = {
  code: 'forbidden-tool-declared',
  severity: 'error',
  scope: 'document',
  summary: 'No declared tool is forbidden by a ❌ boundary.',
  description: 'A ❌ boundary that forbids a tool TOOLS still declares is a contradiction: the model sees the tool and the prohibition side by side. Remove the tool, or narrow the boundary.',
  source: 'docs/contract-format.md §8 (cross-references)',
  messages: { default: 'Tool `{name}` is declared in TOOLS but this boundary forbids it.' },
  examples: {
    bad: `${FM}\n## AGENT_IDENTITY\n\n- **Hard Boundaries**:\n  - ❌ Never call \`initiate_payment\`\n\n## TOOLS\n\n### \`initiate_payment\`\n\n- **Description**: Pays an invoice.\n`,
    good: `${FM}\n## AGENT_IDENTITY\n\n- **Hard Boundaries**:\n  - ❌ Never call \`initiate_payment\`\n\n## TOOLS\n\n### \`draft_payment_approval\`\n\n- **Description**: Drafts an approval request; pays nothing.\n`,
    at: `  - ❌ Never call \`⟦initiate_payment⟧\``,
  },
  *check({ model, data }) {
    const refs = referencesOf(model);
    for (const r of refs.references) {
      if (r.kind !== 'tool' || !forbiddenByBoundary(data, r.pointer, r.name)) continue;
      const decl = refs.names.get('tool')?.get(r.name);
      if (!decl) continue;
      const f: Finding = { code: 'forbidden-tool-declared', range: r.range, args: { name: r.name }, related: [{ range: decl.range, messageId: 'related.declaredHere' }] };
      yield f;
    }
  },
};

/** Why a checkable boundary can never be met: the message variant and its names. */
function contradiction(b: Boundary, all: readonly Boundary[]): { variant?: string; args: Record<string, string> } | undefined {
  if (b.kind === 'count' && b.max === 0) return { variant: 'zero', args: { tool: b.tool } };
  if (b.kind !== 'order' && b.kind !== 'after-success') return undefined;
  const args = { tool: b.tool, first: b.first };
  if (b.first === b.tool) return { variant: 'self', args };
  if (all.some((o) => o.tool === b.first && (o.kind === 'forbid' || (o.kind === 'count' && o.max === 0)))) return { variant: 'forbidden', args };
  if (all.some((o) => (o.kind === 'order' || o.kind === 'after-success') && o.tool === b.first && o.first === b.tool)) return { args };
  return undefined;
}

const ORDER_TOOLS = `## TOOLS\n\n### \`verify_identity\`\n\n- **Description**: Checks the caller's identity.\n\n### \`export_user_data\`\n\n- **Description**: Exports the caller's data.\n`;

export const boundaryContradiction: Rule = {
  code: 'boundary-contradiction',
  severity: 'error',
  scope: 'document',
  summary: 'An order, count or "only after success" boundary can be met.',
  description: 'A checkable ❌ boundary (docs/contract-format.md, "Checkable boundaries") that can never be met forbids more than it says: a tool that must come after itself, after a tool that is forbidden, or after a tool that must come after it can never be called, and "at most 0 calls" is a prohibition in disguise. The dry run refuses every such call (BOUNDARY_VIOLATED); say what is meant instead.',
  source: 'docs/contract-format.md §8 (checkable boundaries)',
  messages: {
    default: 'This boundary can never be met: `{tool}` must come after `{first}`, and another boundary puts `{first}` after `{tool}`, so neither can ever be called.',
    self: 'This boundary can never be met: `{tool}` must come after itself, so it can never be called.',
    forbidden: 'This boundary can never be met: `{tool}` may only come after `{first}`, which a ❌ boundary forbids, so `{tool}` can never be called.',
    zero: 'At most 0 calls of `{tool}` forbids it outright: write "❌ Never call `{tool}`" and remove it from TOOLS.',
  },
  examples: {
    bad: `${FM}\n## AGENT_IDENTITY\n\n- **Hard Boundaries**:\n  - ❌ Never call \`export_user_data\` unless \`verify_identity\` succeeded\n  - ❌ Never call \`verify_identity\` before \`export_user_data\`\n\n${ORDER_TOOLS}`,
    good: `${FM}\n## AGENT_IDENTITY\n\n- **Hard Boundaries**:\n  - ❌ Never call \`export_user_data\` unless \`verify_identity\` succeeded\n  - ❌ Never call \`verify_identity\` more than 2 times per run\n\n${ORDER_TOOLS}`,
    at: `  - ⟦❌ Never call \`export_user_data\` unless \`verify_identity\` succeeded⟧`,
  },
  *check({ model, locate }) {
    const all = boundaryForms(model);
    for (const b of all) {
      const why = contradiction(b, all);
      const at = why ? locate(b.pointer) : undefined;
      if (why && at) yield { code: 'boundary-contradiction', range: at.value, args: why.args, ...(why.variant ? { variant: why.variant } : {}) };
    }
  },
};

export const AGENT_IDENTITY_RULES: readonly Rule[] = [roleCompleteness, undeclaredTool, forbiddenToolDeclared, boundaryContradiction];
