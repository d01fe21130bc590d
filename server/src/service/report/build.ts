/**
 * The workspace report (docs/workspace.md, "The report"): over every contract, a coverage matrix
 * of compliance clauses, the pool and resource sharing graph, versions and last audit rows, the
 * dry-run coverage of snapshot queries and the cross-contract findings. Plain data in and out;
 * the renderers (report/render.ts, report/html.ts) turn it into text, Markdown and HTML.
 */
import type { ContractDiagnostic } from '../types.ts';
import type { ParsedContract } from '../model/types.ts';
import type { Snapshot } from '../run/snapshot/snapshot.ts';
import { digestOf, resourceKey, type ContractContent } from '../model/digest.ts';
import { referencesOf } from '../model/references.ts';
import { normaliseName } from '../model/names.ts';
import { WORKSPACE_RULES } from '../validate/rules/workspace.ts';

/** The compliance clauses of the matrix, in column order. */
export const CLAUSES = ['pii', 'residency', 'audit', 'hitl', 'budgets', 'failureCodes'] as const;
export type ClauseId = (typeof CLAUSES)[number];
/** `na`: the clause does not apply (no side-effect tool needs a HITL gate). */
export type Cell = 'yes' | 'no' | 'na';

export interface ReportContractInput {
  readonly uri: string;
  /** Path relative to the workspace root. */
  readonly path: string;
  readonly model: ParsedContract;
  readonly diagnostics: readonly ContractDiagnostic[];
}

export interface ReportSnapshotInput {
  readonly path: string;
  /** The URI of the contract the snapshot is for, when found. */
  readonly contractUri?: string;
  readonly snapshot: Snapshot;
}

/** A thing snapshot queries can exercise: a side-effect tool, a HITL scenario or an error code. */
export interface CoverageItem {
  readonly kind: 'tool' | 'scenario' | 'code';
  readonly name: string;
  readonly exercised: boolean;
}

/** What production traces showed for a contract (`agents-md report --traces`, docs/conformance.md). */
export interface ProductionSummary {
  readonly runs: number;
  readonly violations: number;
  /** Clauses exercised or violated, of `clauses` gradable ones. */
  readonly exercised: number;
  readonly clauses: number;
}

/** What `agents-md prove` found in a contract (`agents-md report --prove`, docs/prove.md): findings, counted by obligation. */
export interface ProveSummary {
  readonly findings: number;
  readonly obligations: Readonly<Record<string, number>>;
}

export interface ContractRow {
  readonly uri: string;
  readonly path: string;
  readonly agent?: string;
  readonly version?: string;
  readonly lastAudit?: { readonly version: string; readonly date: string; readonly changedBy: string };
  readonly clauses: Readonly<Record<ClauseId, Cell>>;
  /** Compliance clause ids the contract implements (COMPLIANCE `clauses`). */
  readonly clauseIds: readonly string[];
  readonly snapshots: number;
  readonly queries: number;
  readonly coverage: readonly CoverageItem[];
  /** Production traces' grades, when the report was given traces. */
  readonly production?: ProductionSummary;
  /** Its proof's findings, when the report was asked to prove. */
  readonly prove?: ProveSummary;
  /** Cross-contract findings on this contract. */
  readonly findings: readonly { readonly code: string; readonly messageId: string; readonly args: Readonly<Record<string, string | number>>; readonly message: string; readonly line: number }[];
}

export interface SharedNode {
  readonly kind: 'pool' | 'resource';
  readonly name: string;
  /** Paths of the contracts that declare, require or pin it. */
  readonly contracts: readonly string[];
  /** A cross-contract rule reports a disagreement about it. */
  readonly conflict: boolean;
}

export interface WorkspaceReport {
  readonly clauses: readonly ClauseId[];
  /** Whether the report was given production traces (a production column per contract). */
  readonly production?: boolean;
  /** Whether the report proved the contracts (a prove column per contract). */
  readonly prove?: boolean;
  readonly contracts: readonly ContractRow[];
  /** Pools and resources used by two contracts or more. */
  readonly shared: readonly SharedNode[];
  /** The paths whose search for contracts was cut at the walk's limits: contracts beyond the cut are missing. */
  readonly walkCut?: readonly string[];
  readonly totals: {
    readonly contracts: number;
    readonly covered: Readonly<Record<ClauseId, number>>;
    readonly findings: Readonly<Record<string, number>>;
    readonly exercised: number;
    readonly exercisable: number;
  };
}

const CROSS = new Set(WORKSPACE_RULES.map((r) => r.code));
const arr = (v: unknown): any[] => (Array.isArray(v) ? v : []);
const has = (v: unknown) => (typeof v === 'string' ? v.trim().length > 0 : Array.isArray(v) ? v.length > 0 : v !== undefined && v !== null);

function clausesOf(model: ParsedContract, digest: ContractContent): Record<ClauseId, Cell> {
  const d = model.data as Record<string, any>;
  const c = d['compliance'] ?? {};
  const b = d['budgets'] ?? {};
  const yes = (ok: boolean): Cell => (ok ? 'yes' : 'no');
  const failures = arr(d['failure_protocol']);
  return {
    pii: yes(has(c.pii_handling) || has(c.pii_fields)),
    residency: yes(has(c.data_residency)),
    audit: yes(has(c.audit_trail) && has(d['memory_policy']?.override_reasons)),
    hitl: digest.sideEffectTools.length === 0 ? 'na' : yes(digest.sideEffectTools.every((t) => t.gated)),
    budgets: yes(has(b.max_steps) && has(b.token_budget) && has(b.timeout)),
    failureCodes: yes(failures.length > 0 && failures.every((f) => has(f?.code))),
  };
}

/** Names a query exercises, lower-cased: tools it calls or expects, decisions, fired names, expected error code. */
function exercisedBy(snapshots: readonly Snapshot[]): Set<string> {
  const out = new Set<string>();
  for (const s of snapshots) {
    for (const q of s.queries) {
      for (const step of q.model) {
        if (step.kind === 'calls') for (const c of step.calls) out.add(`tool:${c.name.toLowerCase()}`);
        for (const f of step.fire) out.add(`fire:${f.toLowerCase()}`);
      }
      for (const t of q.expect?.tools ?? []) out.add(`tool:${t.toLowerCase()}`);
      for (const k of Object.keys(q.human)) out.add(`human:${k.toLowerCase()}`);
      for (const f of q.fire) out.add(`fire:${f.toLowerCase()}`);
      if (q.expect?.errorCode) out.add(`code:${q.expect.errorCode.toLowerCase()}`);
    }
  }
  return out;
}

function coverageOf(model: ParsedContract, digest: ContractContent, seen: Set<string>): CoverageItem[] {
  const items: CoverageItem[] = [];
  const named = (n: string) => seen.has(`human:${n}`) || seen.has(`fire:${n}`);
  for (const t of digest.sideEffectTools) items.push({ kind: 'tool', name: t.name, exercised: seen.has(`tool:${t.name.toLowerCase()}`) });
  for (const s of referencesOf(model).declarations.filter((x) => x.kind === 'scenario')) items.push({ kind: 'scenario', name: s.name, exercised: named(s.name.toLowerCase()) });
  for (const c of digest.errorCodes) {
    const n = c.code.toLowerCase();
    items.push({ kind: 'code', name: c.code, exercised: seen.has(`code:${n}`) || named(n) || named(c.meaning.toLowerCase()) });
  }
  return items;
}

function lastAuditOf(model: ParsedContract): ContractRow['lastAudit'] {
  const rows = arr((model.data as Record<string, unknown>)['versioning']).filter((r) => r && typeof r === 'object');
  // Rows are newest first by convention (docs/contract-format.md); take the latest date to be safe.
  const latest = [...rows].sort((a, b) => String(b.date ?? '').localeCompare(String(a.date ?? '')))[0];
  return latest ? { version: String(latest.version ?? ''), date: String(latest.date ?? ''), changedBy: String(latest.changed_by ?? '') } : undefined;
}

/** Builds the report. `resourceRoots` are the config's, to match resource paths as the rules do. */
export function buildReport(contracts: readonly ReportContractInput[], snapshots: readonly ReportSnapshotInput[], resourceRoots: readonly string[] = ['configs/resources']): WorkspaceReport {
  const byContract = new Map<string, Snapshot[]>();
  for (const s of snapshots) {
    if (!s.contractUri) continue;
    const list = byContract.get(s.contractUri) ?? [];
    list.push(s.snapshot);
    byContract.set(s.contractUri, list);
  }
  const pools = new Map<string, Set<string>>();
  const resources = new Map<string, Set<string>>();
  const conflicts = new Set<string>();
  const add = (m: Map<string, Set<string>>, k: string, path: string) => (m.get(k) ?? m.set(k, new Set()).get(k)!).add(path);
  const findings: Record<string, number> = {};

  const rows = [...contracts].sort((a, b) => a.path.localeCompare(b.path)).map((c): ContractRow => {
    const digest = digestOf(c.model);
    for (const p of [...digest.pools, ...digest.requiredPools]) add(pools, p.name, c.path);
    for (const r of digest.resources) add(resources, resourceKey(r.path, resourceRoots), c.path);
    const snaps = byContract.get(c.uri) ?? [];
    const cross = c.diagnostics.filter((d) => CROSS.has(d.code));
    for (const d of cross) {
      findings[d.code] = (findings[d.code] ?? 0) + 1;
      if (d.code === 'shared-pool-mismatch' || d.code === 'shared-pool-writer-unauthorised') conflicts.add(`pool:${d.args['pool']}`);
      if (d.code === 'resource-pin-drift') conflicts.add(`resource:${resourceKey(String(d.args['name']), resourceRoots)}`);
    }
    const fm = c.model.data as Record<string, unknown>;
    const lastAudit = lastAuditOf(c.model);
    return {
      uri: c.uri,
      path: c.path,
      ...(digest.agent ? { agent: digest.agent.name } : {}),
      ...(digest.version ? { version: digest.version.value } : typeof fm['version'] === 'string' ? { version: fm['version'] } : {}),
      ...(lastAudit ? { lastAudit } : {}),
      clauses: clausesOf(c.model, digest),
      clauseIds: arr((fm['compliance'] as Record<string, unknown> | undefined)?.['clauses']).map(normaliseName).filter(Boolean),
      snapshots: snaps.length,
      queries: snaps.reduce((n, s) => n + s.queries.length, 0),
      coverage: coverageOf(c.model, digest, exercisedBy(snaps)),
      findings: cross.map((d) => ({ code: d.code, messageId: d.messageId, args: d.args, message: d.message, line: d.range.start.line + 1 })),
    };
  });

  const shared: SharedNode[] = [];
  for (const [kind, m] of [['pool', pools], ['resource', resources]] as const) {
    for (const [name, users] of [...m].sort((a, b) => a[0].localeCompare(b[0]))) {
      if (users.size >= 2) shared.push({ kind, name, contracts: [...users].sort(), conflict: conflicts.has(`${kind}:${name}`) });
    }
  }
  const covered = Object.fromEntries(CLAUSES.map((k) => [k, rows.filter((r) => r.clauses[k] === 'yes').length])) as Record<ClauseId, number>;
  const items = rows.flatMap((r) => r.coverage);
  return {
    clauses: CLAUSES,
    contracts: rows,
    shared,
    totals: { contracts: rows.length, covered, findings, exercised: items.filter((i) => i.exercised).length, exercisable: items.length },
  };
}

/** The report with a production column: each contract's grades by its URI (none: no run of its agent). */
export function withProduction(report: WorkspaceReport, byUri: ReadonlyMap<string, ProductionSummary>): WorkspaceReport {
  const none: ProductionSummary = { runs: 0, violations: 0, exercised: 0, clauses: 0 };
  return { ...report, production: true, contracts: report.contracts.map((r) => ({ ...r, production: byUri.get(r.uri) ?? none })) };
}

/** A contract's prove findings counted by obligation. */
export function proveSummary(findings: readonly { readonly obligation: string }[]): ProveSummary {
  const obligations: Record<string, number> = {};
  for (const f of findings) obligations[f.obligation] = (obligations[f.obligation] ?? 0) + 1;
  return { findings: findings.length, obligations };
}

/** The report with a prove column: each contract's findings by its URI (none: nothing found). */
export function withProve(report: WorkspaceReport, byUri: ReadonlyMap<string, ProveSummary>): WorkspaceReport {
  const none: ProveSummary = { findings: 0, obligations: {} };
  return { ...report, prove: true, contracts: report.contracts.map((r) => ({ ...r, prove: byUri.get(r.uri) ?? none })) };
}
