/**
 * `agents-md export <contract> --to cedar|cedar-schema [--check <dir>]` (docs/enforcement.md):
 * the contract's Cedar policies or schema, validated by Cedar's engine before they are written;
 * with `--check`, Cedar's decision on every tool call of the dry-run traces under a folder
 * compared with the dry run's.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { cedarExport, validateContract, verifyTrace, type CedarExport, type ForbiddenTool, type Lang, type ParsedContract } from '../service/index.ts';
import { format } from '../service/host.ts';
import { validateExport, type Decision } from '../node/cedarEngine.ts';
import { checkTrace, type CallVerdict } from '../node/cedarCheck.ts';
import { loadTraceRun, runInfo } from '../node/traceRun.ts';
import { InputError } from '../node/inputError.ts';
import { RUNS_DIR } from '../node/runFolder.ts';
import { displayPath } from './report.ts';
import { errorLine } from './terminal.ts';
import { EXIT } from './exitCodes.ts';

const DECISION_IDS: Record<Decision, string> = { allowed: 'cli.cedar.decision.allowed', human: 'cli.cedar.decision.human', refused: 'cli.cedar.decision.refused' };

/** Most trace files one check reads. */
const MAX_TRACES = 10_000;

/** The declared tools a ❌ boundary forbids (rule forbidden-tool-declared), with the boundary's line. */
export function forbiddenTools(model: ParsedContract): ForbiddenTool[] {
  return validateContract(model)
    .filter((d) => d.code === 'forbidden-tool-declared')
    .map((d) => ({ name: String(d.args?.['name']), line: d.range.start.line + 1 }));
}

/** The export, validated by the engine: invalid policies are our bug, reported rather than written. */
export function validatedCedar(model: ParsedContract, file: string, forbidden: readonly ForbiddenTool[], lang: Lang): CedarExport {
  const x = cedarExport(model, { file, forbidden });
  const problems = validateExport(x);
  if (problems.length > 0) throw new InputError('cli.cedar.invalid', { file, problems: problems.join('\n') });
  for (const h of x.humans) errorLine(format('cli.cedar.human', { clause: h.clause, reason: h.reason }, lang));
  return x;
}

/** The trace files under `dir` (`*.jsonl`), sorted, at most MAX_TRACES. */
function traceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= MAX_TRACES) return;
      const p = join(d, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== '.git') walk(p);
      else if (entry.isFile() && entry.name.endsWith('.jsonl')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** The workspace root of a trace: the folder holding its `.agents-md/runs`, else `fallback`. */
function traceRoot(path: string, fallback: string): string {
  const at = path.lastIndexOf(`${sep}${RUNS_DIR}${sep}`);
  return at >= 0 ? path.slice(0, at) : fallback;
}

/** Runs the decision check over the traces of `contractPath` under `dir`; returns the exit code. */
export async function checkFolder(x: CedarExport, contractPath: string, dir: string, forbidden: ReadonlySet<string>, lang: Lang, json: boolean): Promise<number> {
  const cwd = process.cwd();
  const folder = resolve(cwd, dir);
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw new InputError('cli.cedar.noFolder', { dir });
  const verdicts: CallVerdict[] = [];
  let traces = 0;
  for (const path of traceFiles(folder)) {
    const verdict = await verifyTrace(readFileSync(path, 'utf8'));
    const root = traceRoot(path, cwd);
    let info: ReturnType<typeof runInfo>;
    try {
      info = runInfo(verdict.events);
    } catch {
      continue;
    }
    // Traces of other contracts are not this contract's decisions.
    if (resolve(root, info.contract) !== contractPath) continue;
    const run = await loadTraceRun(verdict.events, root, cwd);
    traces++;
    verdicts.push(...checkTrace(x, { name: displayPath(cwd, path), events: verdict.events, data: run.query.data, file: run.file }, forbidden));
  }
  if (traces === 0) throw new InputError('cli.cedar.noTraces', { dir, contract: displayPath(cwd, contractPath) });
  const count = (v: CallVerdict['verdict']) => verdicts.filter((c) => c.verdict === v).length;
  if (json) {
    process.stdout.write(`${JSON.stringify({ traces, calls: verdicts.length, equal: count('equal'), stricter: count('stricter'), mismatches: count('mismatch'), verdicts }, null, 2)}\n`);
  } else {
    const decision = (d: Decision) => format(DECISION_IDS[d], {}, lang);
    for (const v of verdicts.filter((c) => c.verdict !== 'equal')) {
      const after = v.afterApproval;
      const detail = after ? format('cli.cedar.stillDenied', { decision: decision(after.decision), approvals: after.approvals.join(', '), reasons: after.reasons.join(', ') }, lang) : v.reasons.join(', ') || '—';
      process.stdout.write(`${format(v.verdict === 'mismatch' ? 'cli.cedar.mismatch' : 'cli.cedar.stricter', { trace: v.trace, call: v.callId, tool: v.tool, expected: decision(v.expected), cedar: decision(v.cedar), detail }, lang)}\n`);
    }
    process.stdout.write(`${format('cli.cedar.summary', { traces, calls: verdicts.length, equal: count('equal'), stricter: count('stricter'), mismatches: count('mismatch') }, lang)}\n`);
  }
  return count('mismatch') > 0 ? EXIT.FAILED : EXIT.OK;
}

/** Where the schema goes beside a policy file: `policies.cedar` → `policies.cedarschema`. */
export function schemaPath(policyFile: string): string {
  const name = basename(policyFile).replace(/\.cedar$/, '');
  return join(dirname(policyFile), `${name}.cedarschema`);
}

