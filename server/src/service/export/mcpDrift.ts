/**
 * A live MCP server's tools (`tools/list`) against the contract (docs/enforcement.md, "A live MCP
 * server"): tools the contract declares that the server lacks, tools the server offers that the
 * contract does not declare or forbids, input schemas that differ in meaning (required
 * properties, types, enums, ranges), and annotations that contradict side effects and
 * idempotence. Findings are diagnostics at the contract's lines. Pure: the client is in cli/.
 */
import type { ParsedContract } from '../parse/parseContract.ts';
import { contractView, type ToolView } from '../model/contractView.ts';
import { locate } from '../model/locate.ts';
import { arr, obj, str } from '../model/data.ts';
import { normaliseName } from '../model/names.ts';
import { equal } from '../run/engine/expression.ts';
import { format } from '../l10n/format.ts';
import { ZERO_RANGE, type ContractDiagnostic, type Range, type Severity } from '../types.ts';
import type { ForbiddenTool } from './cedar.ts';

type Json = Record<string, unknown>;
/** Deepest schema nesting compared (hostile schemas are bounded). */
const MAX_DEPTH = 8;
/** The keywords whose difference changes which values a property accepts. */
const RANGE_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'pattern', 'const', 'format'] as const;

interface Ctx {
  readonly model: ParsedContract;
  readonly out: ContractDiagnostic[];
}

/** A finding at a pointer's clause, or at a given range. */
function add(c: Ctx, code: string, severity: Severity, where: string | Range, args: Record<string, string>): void {
  const messageId = `mcp.drift.${code}`;
  const range = (typeof where === 'string' ? locate(c.model, where)?.value : where) ?? ZERO_RANGE;
  c.out.push({ code: `mcp-${code}`, severity, range, message: format(messageId, args, 'en'), messageId, args });
}

const typesOf = (s: Json): string => {
  const t = s['type'];
  return t === undefined ? 'any' : (Array.isArray(t) ? [...t].map(String).sort() : [String(t)]).join('|');
};
const show = (v: unknown): string => (v === undefined ? '—' : JSON.stringify(v));

/** The differences in meaning between the contract's schema and the server's, property by property. */
function compareSchemas(c: Ctx, tool: string, pointer: string, mine: Json, theirs: Json, path: string, depth: number): void {
  if (depth > MAX_DEPTH) return;
  const at = (p: string) => path ? `${path}.${p}` : p;
  const drift = (what: string, contract: unknown, server: unknown, ptr = pointer) => add(c, 'schema', 'error', ptr, { tool, path: path || '(input)', what, contract: show(contract), server: show(server) });
  if (typesOf(mine) !== typesOf(theirs)) drift('type', mine['type'], theirs['type']);
  // Enums compare as sets: the order of the values means nothing.
  const [em, et] = [mine['enum'], theirs['enum']];
  const sameEnum = Array.isArray(em) && Array.isArray(et) ? em.length === et.length && em.every((v) => et.some((w) => equal(v, w))) : em === et;
  if (!sameEnum) drift('enum', em, et);
  for (const k of RANGE_KEYWORDS) if (!equal(mine[k], theirs[k])) drift(k, mine[k], theirs[k]);
  const req = (s: Json) => new Set(arr(s['required']).map(String));
  const [rm, rt] = [req(mine), req(theirs)];
  for (const r of rm) if (!rt.has(r)) add(c, 'required', 'error', pointer, { tool, property: at(r), side: 'contract' });
  for (const r of rt) if (!rm.has(r)) add(c, 'required', 'error', pointer, { tool, property: at(r), side: 'server' });
  const pm = obj(mine['properties']) ?? {};
  const pt = obj(theirs['properties']) ?? {};
  for (const [name, s] of Object.entries(pm)) {
    const own = `${pointer}/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!(name in pt)) add(c, 'property', 'error', own, { tool, property: at(name), side: 'contract' });
    else compareSchemas(c, tool, own, obj(s) ?? {}, obj(pt[name]) ?? {}, at(name), depth + 1);
  }
  for (const name of Object.keys(pt)) if (!(name in pm)) add(c, 'property', 'error', pointer, { tool, property: at(name), side: 'server' });
  const [im, it] = [obj(mine['items']), obj(theirs['items'])];
  if (im && it) compareSchemas(c, tool, `${pointer}/items`, im, it, `${path || '(input)'}[]`, depth + 1);
}

/** Annotations that contradict the tool's side effects and idempotence (explicit values only: MCP's defaults are hints). */
function compareAnnotations(c: Ctx, t: ToolView, annotations: Json): void {
  const d = obj(arr(c.model.data['tools'])[Number(t.pointer.split('/')[2])]) ?? {};
  const effects = str(d['side_effects']);
  const at = (field: string) => (d[field] !== undefined ? `${t.pointer}/${field}` : t.pointer);
  const contradiction = (hint: string, value: unknown, field: string, clause: string) => add(c, 'annotation', 'error', at(field), { tool: t.name, hint, value: show(value), clause });
  const writes = effects === 'write' || effects === 'external';
  if (writes && annotations['readOnlyHint'] === true) contradiction('readOnlyHint', true, 'side_effects', `side_effects: ${effects}`);
  if (writes && d['rollback'] === undefined && annotations['destructiveHint'] === false) contradiction('destructiveHint', false, 'side_effects', `side_effects: ${effects}, no rollback`);
  if (typeof d['idempotent'] === 'boolean' && typeof annotations['idempotentHint'] === 'boolean' && annotations['idempotentHint'] !== d['idempotent']) contradiction('idempotentHint', annotations['idempotentHint'], 'idempotent', `idempotent: ${d['idempotent'] ? 'yes' : 'no'}`);
  if (effects === 'external' && annotations['openWorldHint'] === false) contradiction('openWorldHint', false, 'side_effects', 'side_effects: external');
  if (effects && effects !== 'external' && annotations['openWorldHint'] === true) contradiction('openWorldHint', true, 'side_effects', `side_effects: ${effects}`);
}

/** The drift of a server's `tools/list` tools from the contract, as diagnostics at the contract's lines. */
export function mcpDrift(model: ParsedContract, serverTools: readonly unknown[], forbidden: readonly ForbiddenTool[] = []): ContractDiagnostic[] {
  const c: Ctx = { model, out: [] };
  const view = contractView(model);
  const banned = new Map(forbidden.map((f) => [f.name, f]));
  const offered = new Map<string, Json>();
  for (const t of serverTools) {
    const o = obj(t);
    const name = normaliseName(o?.['name']);
    if (o && name && !offered.has(name)) offered.set(name, o);
  }
  for (const t of view.tools.values()) {
    const theirs = offered.get(t.name);
    if (banned.has(t.name)) continue;
    if (!theirs) {
      add(c, 'missing', 'error', t.pointer, { tool: t.name });
      continue;
    }
    compareSchemas(c, t.name, `${t.pointer}/input_schema`, t.inputSchema ?? { type: 'object', properties: {} }, obj(theirs['inputSchema']) ?? {}, '', 0);
    compareAnnotations(c, t, obj(theirs['annotations']) ?? {});
  }
  for (const name of offered.keys()) {
    const f = banned.get(name);
    if (f) add(c, 'forbidden', 'error', { start: { line: f.line - 1, character: 0 }, end: { line: f.line - 1, character: 0 } }, { tool: name });
    else if (!view.tools.has(name)) add(c, 'undeclared', 'warning', '/tools', { tool: name });
  }
  return c.out;
}
