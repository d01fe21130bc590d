/**
 * What `agents-md mcp` does for each tool (docs/mcp.md): plain functions from the tool's arguments
 * to JSON data, over the language service and the Node hosts, as the CLI and the language server
 * use them. Every path is resolved inside the workspace root (links included) and read with the
 * bounded reader; only a dry run writes, and only its run folder under `.agents-md/runs/`. Lists
 * are cut at fixed limits and say how many were left out. The dry run uses the snapshot's
 * scripted model only: the server treats its workspace as untrusted (docs/model-providers.md).
 */
import { realpathSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { createLanguageService, describeEvent, proveContract, proveResult, proveText, witnessData, witnessSnapshot, runMessage, diffContracts, NOT_CANCELLED, outcomeText, type ContractDiagnostic, type FileSystem, type LanguageService, type Lang, type SymbolEntry } from '../service/index.ts';
import { diffSummary, format, localiseDiagnostic, localiseDiff, ruleByCode, ruleDocId, recheckAnalyzer } from '../service/host.ts';
import { createNodeFileSystem, fileUri, uriToPath } from '../node/nodeFileSystem.ts';
import { z3Solver } from '../node/z3Solver.ts';
import { contractForSnapshot, createRunFolder, executeQuery, loadContract, loadSnapshot, resourceReader, storedPath } from '../node/dryRunHost.ts';
import { diffPolicyFor } from '../node/diffInputs.ts';
import { InputError } from '../node/inputError.ts';
import { displayPath, isWithin } from '../node/paths.ts';

/** Limits of one answer (docs/mcp.md, "Bounded answers"). */
export const MCP_LIMITS = { findings: 100, names: 500, timeline: 400, changes: 300, proveFindings: 50 } as const;

/** What every tool needs: the workspace root, the display language and one language service. */
export interface McpContext {
  readonly root: string;
  readonly lang: Lang;
  readonly service: LanguageService;
}

export function createMcpContext(root: string, lang: Lang): McpContext {
  const service = createLanguageService({ fs: confinedFileSystem(createNodeFileSystem(() => [root]), root), roots: [fileUri(root)], analyzeRegex: recheckAnalyzer });
  return { root, lang, service };
}

/**
 * `fs` seeing nothing outside `root` (docs/mcp.md: the root is the only folder read): a
 * configuration's `extends: ../../x.json`, or a link out of the root, reads as a missing file.
 */
function confinedFileSystem(fs: FileSystem, root: string): FileSystem {
  const inside = (uri: string) => {
    const p = uriToPath(uri);
    return p !== undefined && isWithin(root, p) && isWithin(real(root), real(p));
  };
  return {
    ...fs,
    readFile: async (uri) => (inside(uri) ? fs.readFile(uri) : undefined),
    stat: async (uri) => (inside(uri) ? fs.stat(uri) : undefined),
    findFiles: async (folder, include, exclude) => (inside(folder) ? (await fs.findFiles(folder, include, exclude)).filter(inside) : []),
  };
}

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/** `path` (relative to the root, or absolute) as an absolute path inside the root; an `InputError` otherwise. */
export function insideRoot(ctx: McpContext, path: string): string {
  const abs = resolve(ctx.root, path);
  if (!isWithin(ctx.root, abs) || !isWithin(real(ctx.root), real(abs))) throw new InputError('mcp.error.outside', { path });
  return abs;
}

/** The first `limit` items and how many were left out. */
function bounded<T>(items: readonly T[], limit: number): { items: T[]; omitted: number } {
  return { items: items.slice(0, limit), omitted: Math.max(0, items.length - limit) };
}

const where = (file: string, d: { range: ContractDiagnostic['range'] }) => `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}`;

/** `lint`: the findings of one contract with codes, ranges (LSP: 0-based), messages and the rules' fixes as edits. */
export async function lintTool(ctx: McpContext, args: { path: string }) {
  const abs = insideRoot(ctx, args.path);
  const file = displayPath(ctx.root, abs);
  const loaded = await loadContract(abs, ctx.root);
  const uri = fileUri(abs);
  const result = await ctx.service.lintBytes(uri, new TextEncoder().encode(loaded.text));
  const model = result.model ?? loaded.model;
  const { items, omitted } = bounded(result.diagnostics, MCP_LIMITS.findings);
  const findings = items.map((d) => {
    const fixes = ctx.service.codeActions({ uri, model }, d.range, { diagnostics: [d], lang: ctx.lang }, NOT_CANCELLED).filter((a) => a.fixes.includes(d.code));
    return {
      code: d.code,
      severity: d.severity,
      message: localiseDiagnostic(d, ctx.lang).message,
      location: where(file, d),
      range: d.range,
      fixes: fixes.map((f) => ({ title: f.title, edits: f.edits })),
    };
  });
  return { file, findings, omitted, configProblems: result.configProblems.map((p) => format(p.messageId, p.args, ctx.lang)) };
}

/** `explain_rule`: a rule's catalogue entry (the text docs/rules.md is generated from) and its examples. */
export function explainRuleTool(ctx: McpContext, args: { code: string }) {
  const rule = ruleByCode(args.code);
  if (!rule) throw new InputError('mcp.error.unknownRule', { code: args.code });
  const text = (part: 'summary' | 'description' | 'source') => format(ruleDocId(rule.code, part), {}, ctx.lang);
  return {
    code: rule.code,
    severity: rule.severity,
    preset: rule.preset ?? 'recommended',
    ...(rule.fixKind ? { fix: rule.fixKind } : {}),
    summary: text('summary'),
    description: text('description'),
    source: text('source'),
    docs: `docs/rules.md#${rule.code}`,
    examples: { bad: rule.examples.bad, good: rule.examples.good },
  };
}

interface NameNode {
  name: string;
  kind: string;
  detail?: string;
  line: number;
  children?: NameNode[];
}

/** `list_names`: the contract's sections and what they declare (tools, pools, scenarios…), as the outline shows them. */
export async function listNamesTool(ctx: McpContext, args: { path: string }) {
  const abs = insideRoot(ctx, args.path);
  const loaded = await loadContract(abs, ctx.root);
  let budget: number = MCP_LIMITS.names;
  let omitted = 0;
  const walk = (list: readonly SymbolEntry[]): NameNode[] =>
    list.flatMap((s) => {
      if (budget <= 0) {
        omitted++;
        return [];
      }
      budget--;
      const children = walk(s.children);
      return [{ name: s.name, kind: s.kind, ...(s.detail ? { detail: s.detail } : {}), line: s.range.start.line + 1, ...(children.length ? { children } : {}) }];
    });
  const symbols = ctx.service.documentSymbols({ uri: fileUri(abs), model: loaded.model }, { lang: ctx.lang }, NOT_CANCELLED);
  return { file: displayPath(ctx.root, abs), kind: loaded.model.kind, sections: walk(symbols), omitted };
}

/** `dry_run`: one snapshot query with the scripted model; the outcome, the timeline and the trace written in the run folder. */
export async function dryRunTool(ctx: McpContext, args: { contract: string; snapshot: string; query?: string | undefined }) {
  const contract = await loadContract(insideRoot(ctx, args.contract), ctx.root);
  const snapshot = await loadSnapshot(insideRoot(ctx, args.snapshot), ctx.root, contract.model);
  const snap = snapshot.read.snapshot;
  const file = displayPath(ctx.root, snapshot.path);
  if (!snap) throw new InputError('run.error.snapshot-has-errors', { file });
  const ids = snap.queries.map((q) => q.id).join(', ');
  const query = args.query !== undefined ? snap.queries.find((q) => q.id === args.query) : snap.queries.length === 1 ? snap.queries[0] : undefined;
  if (!query) throw args.query !== undefined ? new InputError('run.error.no-query', { file, query: args.query, ids }) : new InputError('mcp.error.chooseQuery', { file, ids });
  const named = contractForSnapshot(snapshot.path, snap);
  const folder = createRunFolder(ctx.root, query.id, ctx.root);
  const result = await executeQuery({ root: ctx.root, contract, snapshot: { ...snapshot, read: { ...snapshot.read, snapshot: snap } }, query, file: await resourceReader(ctx.root, contract), folder, traceName: 'trace.jsonl' });
  const lines = result.events.flatMap((e) => describeEvent(e, ctx.lang)).map((l) => ({ stage: runMessage(l.label, {}, ctx.lang), status: l.status, text: l.text, ...(l.nested ? { nested: true } : {}), ...(l.pointer ? { clause: l.pointer } : {}) }));
  const { items, omitted } = bounded(lines, MCP_LIMITS.timeline);
  return {
    query: query.id,
    ...(named ? { snapshotContract: displayPath(ctx.root, named) } : {}),
    outcome: { status: result.outcome.status, code: result.outcome.code, message: outcomeText(result.outcome, ctx.lang) },
    stats: result.stats,
    timeline: items,
    omitted,
    trace: storedPath(ctx.root, result.tracePath),
  };
}

/** `diff`: the semantic diff of two versions of a contract: changes with impact and reason, and the version advice. */
export async function diffTool(ctx: McpContext, args: { older: string; newer: string }) {
  const older = await loadContract(insideRoot(ctx, args.older), ctx.root);
  const newerPath = insideRoot(ctx, args.newer);
  const newer = await loadContract(newerPath, ctx.root);
  const diff = localiseDiff(diffContracts(older.model, newer.model, await diffPolicyFor(newerPath, ctx.root)), ctx.lang);
  const { items, omitted } = bounded(diff.changes, MCP_LIMITS.changes);
  return {
    summary: diffSummary(diff, ctx.lang),
    counts: diff.counts,
    advice: diff.advice,
    changes: items.map((c) => ({ id: c.id, kind: c.kind, section: c.section, identity: c.identity, impact: c.impact, bump: c.bump, reason: c.message })),
    omitted,
  };
}

/**
 * `prove`: the contract's obligations (docs/prove.md), each finding at its clause with its witness
 * and the snapshot that replays it (its `contract` is the contract's file name: saved beside the
 * contract, `dry_run` plays it). Writes nothing.
 */
export async function proveTool(ctx: McpContext, args: { path: string }) {
  const abs = insideRoot(ctx, args.path);
  const file = displayPath(ctx.root, abs);
  const loaded = await loadContract(abs, ctx.root);
  const { items, omitted } = bounded(await proveContract(loaded.model, { solver: await z3Solver() }), MCP_LIMITS.proveFindings);
  const findings = items.map((f) => {
    const snapshot = witnessSnapshot(loaded.model, f, basename(abs));
    return {
      obligation: f.obligation,
      message: proveText(f.message, ctx.lang),
      messageId: f.message.id,
      args: f.message.args,
      location: where(file, f),
      range: f.range,
      clause: f.pointer,
      proved: f.proved,
      result: proveResult(f, ctx.lang),
      qualified: f.qualified.map((q) => proveText(q, ctx.lang)),
      ...(f.witness ? { witness: witnessData(f.witness) } : {}),
      ...(snapshot ? { snapshot } : {}),
      docs: `docs/prove.md#${f.obligation}`,
    };
  });
  return { file, findings, omitted };
}
