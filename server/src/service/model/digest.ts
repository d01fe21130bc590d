/**
 * What one contract contributes to checks across contracts (docs/workspace.md): its agent and
 * version, pools with their metadata and lifecycle, pinned resources, error codes, Write By
 * roles, authorised writers and side-effect tools. Small plain data, computed once per model, so
 * that the workspace can keep one per contract without keeping the models.
 */
import type { Range } from '../types.ts';
import type { ParsedContract } from './types.ts';
import { locate } from './locate.ts';
import { referencesOf } from './references.ts';
import { normaliseName } from './names.ts';

export interface Named {
  readonly name: string;
  readonly range: Range;
}

export interface DigestPool extends Named {
  /** Metadata field names, sorted; absent when the pool does not list them. */
  readonly metadata?: readonly string[];
  readonly metadataRange?: Range;
  /** The lifecycle as written, and normalised for comparison (`sameText`). */
  readonly lifecycle?: string;
  readonly lifecycleRange?: Range;
  /** False only when the pool says `Shared: no`. */
  readonly shared: boolean;
}

export interface DigestResource {
  /** The path as written (`configs/resources/vendor_whitelist.csv`). */
  readonly path: string;
  readonly sha256: string;
  /** The SHA-256 cell. */
  readonly range: Range;
}

export interface DigestErrorCode {
  readonly code: string;
  /** The FAILURE_PROTOCOL condition the code is returned for. */
  readonly meaning: string;
  readonly range: Range;
}

export interface DigestTool extends Named {
  readonly sideEffects: 'write' | 'external';
  /** Approval flag, BUDGETS `requires_approval`, or a HUMAN_IN_THE_LOOP row that names the tool. */
  readonly gated: boolean;
}

/** One contract as seen by the cross-contract rules and the workspace report. */
export interface ContractDigest extends ContractContent {
  readonly uri: string;
  /** Path relative to its workspace root (the URI when outside any root). */
  readonly path: string;
}

/** What the contract's text says, independent of where the file is. */
export interface ContractContent {
  /** The agent's name: AGENT_IDENTITY `name`, else the front matter's `name`. */
  readonly agent?: Named;
  readonly version?: { readonly value: string; readonly range: Range };
  readonly pools: readonly DigestPool[];
  /** Pools named in MEMORY_REQUIREMENTS. */
  readonly requiredPools: readonly Named[];
  readonly resources: readonly DigestResource[];
  readonly errorCodes: readonly DigestErrorCode[];
  /** Roles of the MEMORY_CONTRACT `Write By` column. */
  readonly writers: readonly Named[];
  /** AGENT_IDENTITY Authorized Writers (and the agent's own name); undefined when not listed. */
  readonly authorised?: readonly string[];
  readonly authorisedRange?: Range;
  readonly sideEffectTools: readonly DigestTool[];
  /** Every declared tool's name. */
  readonly tools: readonly string[];
  /** What workspace symbol search lists: the agent, tools, pools, roles, HITL scenarios, error codes. */
  readonly symbols: readonly WorkspaceSymbolEntry[];
}

export interface WorkspaceSymbolEntry extends Named {
  readonly kind: 'agent' | 'tool' | 'pool' | 'role' | 'scenario' | 'code';
}

const ZERO: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
const arr = (v: unknown): any[] => (Array.isArray(v) ? v : []);

/** Text compared for meaning: case, spaces, backticks, quotes and end punctuation ignored. */
export function sameText(s: string): string {
  return s.normalize('NFKC').toLowerCase().replace(/[`"'“”‘’]/g, '').replace(/\s+/g, ' ').replace(/[\s.。;；,，]+$/u, '').trim();
}

/** A resource path as a key: `./` and a leading resource root (`configs/resources/`) removed. */
export function resourceKey(path: string, roots: readonly string[]): string {
  let p = path.replace(/\\/g, '/').replace(/^\.\//, '');
  for (const r of roots) {
    const root = r.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/$/, '') + '/';
    if (p.startsWith(root)) p = p.slice(root.length);
  }
  return p;
}

/**
 * True when two contracts work on the same things: a pool (declared or required), a pinned
 * resource or a tool of the same name. Their error codes then reach the same consumers.
 */
export function shareSomething(a: ContractContent, b: ContractContent, roots: readonly string[]): boolean {
  const pools = new Set([...a.pools, ...a.requiredPools].map((p) => p.name));
  if ([...b.pools, ...b.requiredPools].some((p) => pools.has(p.name))) return true;
  const tools = new Set(a.tools);
  if (b.tools.some((t) => tools.has(t))) return true;
  const files = new Set(a.resources.map((r) => resourceKey(r.path, roots)));
  return b.resources.some((r) => files.has(resourceKey(r.path, roots)));
}

const cache = new WeakMap<ParsedContract, ContractContent>();

/** The cross-contract content of a model (cached per model). */
export function digestOf(model: ParsedContract): ContractContent {
  const hit = cache.get(model);
  if (hit) return hit;
  const d = model.data as Record<string, any>;
  const at = (pointer: string): Range => locate(model, pointer)?.value ?? ZERO;
  const refs = referencesOf(model);

  const idName = normaliseName(d['identity']?.name);
  const fmName = normaliseName(d['name']);
  const agent = idName ? { name: idName, range: at('/identity/name') } : fmName ? { name: fmName, range: at('/name') } : undefined;
  const version = typeof d['version'] === 'string' || typeof d['version'] === 'number' ? { value: String(d['version']).replace(/^v/i, ''), range: at('/version') } : undefined;

  const pools: DigestPool[] = [];
  arr(d['memory_pools']).forEach((p, i) => {
    const name = normaliseName(p?.name);
    if (!name) return;
    const meta = Array.isArray(p?.metadata) ? p.metadata.map(normaliseName).filter(Boolean).sort() : undefined;
    const lifecycle = typeof p?.lifecycle === 'string' && p.lifecycle.trim() ? p.lifecycle.trim() : undefined;
    pools.push({
      name,
      range: at(`/memory_pools/${i}/name`),
      ...(meta && meta.length > 0 ? { metadata: meta, metadataRange: at(`/memory_pools/${i}/metadata`) } : {}),
      ...(lifecycle ? { lifecycle, lifecycleRange: at(`/memory_pools/${i}/lifecycle`) } : {}),
      shared: p?.shared !== false,
    });
  });
  const requiredPools = arr(d['memory_requirements'])
    .map((r, i) => ({ name: normaliseName(r?.pool), range: at(`/memory_requirements/${i}/pool`) }))
    .filter((r) => r.name);

  const resources: DigestResource[] = [];
  arr(d['resources']).forEach((r, i) => {
    const p = normaliseName(r?.path);
    const sha = typeof r?.sha256 === 'string' ? r.sha256.trim().toLowerCase() : '';
    if (p && /^[0-9a-f]{64}$/.test(sha)) resources.push({ path: p, sha256: sha, range: at(`/resources/${i}/sha256`) });
  });

  const errorCodes: DigestErrorCode[] = [];
  arr(d['failure_protocol']).forEach((f, i) => {
    const code = typeof f?.code === 'string' ? f.code.trim() : '';
    const meaning = typeof f?.condition === 'string' ? f.condition.trim() : '';
    if (code && meaning) errorCodes.push({ code, meaning, range: at(`/failure_protocol/${i}/code`) });
  });

  const writers = refs.references.filter((r) => r.kind === 'role' && r.pointer.startsWith('/memory_contract/')).map((r) => ({ name: r.name, range: r.range }));
  const listed = d['identity']?.authorized_writers;
  const authorised = Array.isArray(listed) ? [...listed.map(normaliseName).filter(Boolean), ...(idName ? [idName] : [])] : undefined;

  const approved = new Set(arr(d['budgets']?.requires_approval).map(normaliseName));
  const hitlNamed = new Set(refs.references.filter((r) => r.kind === 'tool' && r.pointer.startsWith('/human_in_the_loop/')).map((r) => r.name));
  const sideEffectTools: DigestTool[] = [];
  arr(d['tools']).forEach((t, i) => {
    const name = normaliseName(t?.name);
    const effects = typeof t?.side_effects === 'string' ? t.side_effects.trim().toLowerCase() : '';
    if (!name || (effects !== 'write' && effects !== 'external')) return;
    sideEffectTools.push({ name, range: at(`/tools/${i}/name`), sideEffects: effects, gated: t?.requires_approval === true || approved.has(name) || hitlNamed.has(name) });
  });

  const digest: ContractContent = {
    ...(agent ? { agent } : {}),
    ...(version ? { version } : {}),
    pools,
    requiredPools,
    resources,
    errorCodes,
    writers,
    ...(authorised ? { authorised, authorisedRange: at('/identity/authorized_writers') } : {}),
    sideEffectTools,
    tools: [...(refs.names.get('tool')?.keys() ?? [])],
    symbols: [
      ...(agent ? [{ kind: 'agent' as const, ...agent }] : []),
      ...refs.declarations.flatMap((x) => (x.kind === 'tool' || x.kind === 'pool' || x.kind === 'scenario' || (x.kind === 'role' && x.pointer !== '/identity/name') ? [{ kind: x.kind, name: x.name, range: x.range }] : [])),
      ...errorCodes.map((c) => ({ kind: 'code' as const, name: c.code, range: c.range })),
    ],
  };
  cache.set(model, digest);
  return digest;
}
