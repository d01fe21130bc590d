/**
 * "New snapshot for this contract" (docs/dry-run.md, "A first snapshot"): a snapshot that sits in
 * `snapshots/` beside the contract, with every pool healthy and fresh, a mock per tool, a
 * happy-path query, one query per FAILURE_PROTOCOL entry that expects that entry's error
 * code, and one query per tool that needs approval, which reaches the approval gate. It validates
 * against schemas/snapshot.schema.json; the placeholders (`TODO`) are the user's to fill in.
 */
import { stringify } from 'yaml';
import type { ParsedContract } from '../../parse/parseContract.ts';
import { contractView } from '../../model/contractView.ts';
import { runMessage } from '../runMessage.ts';

export interface SnapshotSkeletonOptions {
  /** The day the snapshot's clock stands on (YYYY-MM-DD). */
  readonly today: string;
  /** The snapshot's path to the schema, for editors (`$schema`); left out when not given. */
  readonly schemaPath?: string;
  /** The language of the comment and placeholder texts (the UI's); English when not given. */
  readonly lang?: string;
}

/** A value that satisfies a JSON Schema's type and required properties, with `TODO` for text. */
function placeholder(schema: unknown, depth = 0): unknown {
  const s = (schema && typeof schema === 'object' ? schema : {}) as Record<string, unknown>;
  if (Array.isArray(s['examples']) && s['examples'].length) return s['examples'][0];
  if (Array.isArray(s['enum']) && s['enum'].length) return s['enum'][0];
  const type = Array.isArray(s['type']) ? s['type'][0] : s['type'];
  switch (type) {
    case 'array':
      return depth > 4 ? [] : [placeholder(s['items'], depth + 1)];
    case 'number':
    case 'integer':
      return typeof s['minimum'] === 'number' ? s['minimum'] : 0;
    case 'boolean':
      return false;
    case 'string':
      return 'TODO';
    default: {
      if (depth > 4) return {};
      const props = (s['properties'] ?? {}) as Record<string, unknown>;
      const required = Array.isArray(s['required']) ? (s['required'] as string[]) : Object.keys(props);
      return Object.fromEntries(required.map((k) => [k, placeholder(props[k], depth + 1)]));
    }
  }
}

/** A query id from an error code or a condition: `memory-unavailable`, `fmt001`. */
function queryId(text: string, used: Set<string>): string {
  const base = text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'failure';
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
  used.add(id);
  return id;
}

/** A query the first intent pattern matches, when the pattern is words joined by `.*` (else a TODO). */
function sampleQuery(patterns: readonly { readonly pattern: string }[], lang: string): string {
  const p = patterns[0]?.pattern ?? '';
  const parts = p.split('.*');
  return p && parts.every((w) => /^[\p{L}\p{N} _,'-]*$/u.test(w)) ? parts.join(' ').replace(/\s+/g, ' ').trim() : runMessage('skeleton.query', {}, lang);
}

/** The snapshot's YAML text. */
export function snapshotSkeleton(model: ParsedContract, options: SnapshotSkeletonOptions): string {
  const view = contractView(model);
  const lang = options.lang ?? 'en';
  const now = `${options.today}T00:30:00Z`;
  const fresh = `${options.today}T00:00:00Z`;
  const entities = Object.fromEntries(view.entities.map((e) => [e.name, `${e.name}-1`]));
  const poolNames = [...new Set([...view.pools.keys(), ...view.requirements.map((r) => r.pool)])];
  const pools = Object.fromEntries(poolNames.map((name) => {
    // A filter on `{{extracted_x}}` finds the record when it carries the entity's value.
    const filters = view.requirements.filter((r) => r.pool === name).flatMap((r) => r.filters);
    const value = (v: unknown) => /^\{\{\s*extracted_(\w+)\s*\}\}$/.exec(String(v))?.[1];
    const record = { id: `${name}-1`, ...Object.fromEntries(filters.map((f) => [f.field, value(f.value) !== undefined ? `${value(f.value)}-1` : 'TODO'])), timestamp: fresh };
    return [name, { status: 'healthy', updated_at: fresh, records: [record] }];
  }));
  const tools = Object.fromEntries([...view.tools.values()].map((t) => [t.name, [{ output: placeholder(t.outputSchema) }]]));
  const base = { query: sampleQuery(view.intentPatterns, lang), ...(view.entities.length ? { entities } : {}) };
  const required = view.requirements.find((r) => r.required)?.pool;
  const used = new Set<string>(['happy-path']);
  const failures = view.failures.map((f) => {
    const expect = { outcome: 'failure', ...(f.code ? { error_code: f.code } : {}) };
    const id = queryId(f.code ?? f.condition, used);
    if (f.code === 'MEMORY_UNAVAILABLE' && required) return { id, description: f.condition, ...base, pools: { [required]: { status: 'unavailable' } }, model: [], expect: { ...expect, code: 'MEMORY_UNAVAILABLE' } };
    if (f.code === 'MEMORY_STALE' && required) return { id, description: f.condition, ...base, pools: { [required]: { status: 'stale' } }, model: [], expect: { ...expect, code: 'MEMORY_STALE' } };
    return { id, description: f.condition, ...base, fire: [f.code ?? f.condition], model: [], expect };
  });
  // A call of each tool that needs approval: the run stops at the gate and asks the human
  // (in VS Code a dialog; the script's answer is a rejection, Approve goes on to the answer).
  const gates = [...view.tools.values()].filter((t) => t.requiresApproval).map((t) => ({
    id: queryId(`approve-${t.name}`, used), description: runMessage('skeleton.gate', { tool: t.name }, lang), ...base,
    model: [{ call: t.name, arguments: placeholder(t.inputSchema) }, { final: placeholder(view.outputSchema) }],
    human: { [t.name]: 'reject' }, expect: { outcome: 'failure', code: 'HUMAN_REJECTED' },
  }));
  const snapshot = {
    ...(options.schemaPath ? { $schema: options.schemaPath } : {}),
    description: runMessage('skeleton.world', { agent: view.name || 'the agent' }, lang),
    now,
    ...(poolNames.length ? { pools } : {}),
    ...(view.tools.size ? { tools } : {}),
    queries: [
      { id: 'happy-path', description: runMessage('skeleton.happyPath', {}, lang), ...base, model: [{ final: placeholder(view.outputSchema) }], expect: { outcome: 'success', code: 'OK' } },
      ...failures,
      ...gates,
    ],
  };
  const header = runMessage('skeleton.header', { lens: runMessage('view.lens.run', {}, lang) }, lang);
  return `${header}\n${stringify(snapshot, { lineWidth: 0, aliasDuplicateObjects: false })}`;
}
