import { closest, normaliseLabel } from '../schema/normalise.ts';
import type { FieldSpec } from '../schema/sections.ts';

/**
 * Spellings of other agent formats for our fields (docs/contract-format.md §9): what a user
 * migrating a contract is likely to write, and the field it means.
 */
const FOREIGN_KEYS: Readonly<Record<string, string>> = {
  timeout_s: 'timeout',
  timeout_sec: 'timeout',
  timeout_seconds: 'timeout',
  timeout_ms: 'timeout',
  approval_required_tools: 'requires_approval',
  approval_required: 'requires_approval',
  require_approval: 'requires_approval',
  needs_human_approval: 'requires_approval',
  human_approval: 'requires_approval',
  has_side_effects: 'side_effects',
  side_effect: 'side_effects',
  desc: 'description',
  params: 'input_schema',
  parameters_schema: 'input_schema',
  args_schema: 'input_schema',
  returns_schema: 'output_schema',
  response_schema: 'output_schema',
  max_iterations: 'max_steps',
  max_turns: 'max_steps',
  max_tokens_per_task: 'token_budget',
};
/** The unit other formats put in the key (`timeout_s: 60`); ours goes in the value (`timeout: 60s`). */
const FOREIGN_UNITS: Readonly<Record<string, string>> = { timeout_s: 's', timeout_sec: 's', timeout_seconds: 's', timeout_ms: 'ms' };

/** The unit a foreign key carries, if it is one of those. */
export function foreignUnit(label: string): string | undefined {
  return Object.entries(FOREIGN_UNITS).find(([k]) => normaliseLabel(k) === normaliseLabel(label))?.[1];
}

const FOREIGN: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(FOREIGN_KEYS).map(([k, v]) => [normaliseLabel(k), v]));

/**
 * The field an unknown label most likely means: another format's spelling of it, or the closest
 * field name or alias by edit distance (at most a quarter of the label's length, and at least one
 * edit). Returns the field's key, written as the user writes labels: `requires_approval` in YAML
 * keys, `Requires Approval` in bullet labels and table headers.
 */
export function suggestField(label: string, fields: readonly FieldSpec[]): string | undefined {
  const n = normaliseLabel(label);
  if (!n) return undefined;
  const keys = new Set(fields.map((f) => f.key));
  let key = FOREIGN[n] && keys.has(FOREIGN[n]!) ? FOREIGN[n] : undefined;
  if (!key) {
    const near = closest(n, fields.flatMap((f) => f.labels), Math.max(1, Math.floor(n.length / 4)));
    if (near === undefined) return undefined;
    key = fields.find((f) => f.labels.includes(near))?.key;
  }
  if (!key) return undefined;
  const snake = /_/.test(label) || label === label.toLowerCase();
  return snake ? key : key.split('_').map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');
}
