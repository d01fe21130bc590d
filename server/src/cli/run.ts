/**
 * `agents-md run <contract> --snapshot <file> [--query id]`: one dry run, printed as a timeline
 * while it happens (or as JSON), its trace written to `.agents-md/runs/<run id>/trace.jsonl`, the
 * exit code by outcome (docs/cli.md, docs/dry-run.md).
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { RunFolder } from '../node/runFolder.ts';
import { type HumanDecision, type ParsedContract, runMessage, type RunResult, type Snapshot } from '../service/index.ts';
import { contractForSnapshot, executeQuery, fixedDecision, InputError, loadContract, loadSnapshot, resourceReader, storedPath } from '../node/dryRunHost.ts';
import { formatDiagnostics } from './snapshotReport.ts';
import { clauseLocation, formatEvent } from './format/timeline.ts';
import { displayPath } from './report.ts';
import { TOOL_NAME } from './meta.ts';

/** Exit codes of `run` (and `trace fork`), by outcome. */
export const RUN_EXIT = { success: 0, failure: 1, usage: 2, fallback: 3, cancelled: 130 } as const;

export const RUN_EXIT_HELP = `
Exit codes:
  0    the run succeeded: the answer passed every check
  1    the run failed with an outcome code (MEMORY_UNAVAILABLE, SAFETY_VIOLATION, …)
  2    usage error, or a contract or snapshot that cannot be read or is invalid
  3    a FAILURE_PROTOCOL entry with a fallback answered instead
  130  cancelled (Ctrl-C)`;

interface RunCliOptions {
  readonly snapshot: string;
  readonly query?: string;
  readonly json?: boolean;
  readonly root?: string;
  readonly approve?: boolean;
  readonly reject?: boolean;
  readonly realDelays?: boolean;
  readonly color?: boolean;
}

/** Colour only for a terminal, and never when NO_COLOR is set (as `lint`). */
export function wantColor(explicit: boolean | undefined): boolean {
  return explicit ?? (Boolean(process.stdout.isTTY) && !process.env['NO_COLOR']);
}

/** The decision `--approve` / `--reject` give to every pause, or undefined; throws on both. */
export function flagDecision(o: { approve?: boolean; reject?: boolean }): HumanDecision | undefined {
  if (o.approve && o.reject) throw new InputError('--approve and --reject cannot be used together');
  return o.approve ? 'approve' : o.reject ? 'reject' : undefined;
}

/** The result as `--json` prints it. */
export function resultJson(r: RunResult & { tracePath: string }, cwd: string, contract: { path: string; model: ParsedContract }, extra: Record<string, unknown>): Record<string, unknown> {
  const where = (pointer?: string) => clauseLocation({ color: false, contract: { model: contract.model, displayPath: displayPath(cwd, contract.path) } }, pointer);
  const o = r.outcome;
  return {
    ...extra,
    outcome: {
      status: o.status,
      code: o.code,
      message: o.message,
      message_id: o.messageId,
      args: o.args,
      ...(o.clause ? { clause: { pointer: o.clause.pointer, location: where(o.clause.pointer) ?? null } } : {}),
      ...(o.protocol ? { protocol: { pointer: o.protocol.pointer, condition: o.protocol.condition, error_code: o.protocol.errorCode ?? null, location: where(o.protocol.pointer) ?? null } } : {}),
    },
    stats: { steps: r.stats.steps, tokens: r.stats.tokens, tools: r.stats.tools, human_decisions: r.stats.humanDecisions, path: r.stats.path, elapsed_ms: r.stats.elapsedMs },
    ...(r.answer !== undefined ? { answer: r.answer } : {}),
    trace: displayPath(cwd, r.tracePath),
  };
}

async function runCommand(contractArg: string, o: RunCliOptions, setExitCode: (code: number) => void): Promise<void> {
  const cwd = process.cwd();
  const root = resolve(cwd, o.root ?? '.');
  const color = wantColor(o.color);
  const err = (s: string) => process.stderr.write(`${TOOL_NAME}: ${s}\n`);
  try {
    const decision = flagDecision(o);
    const contract = await loadContract(resolve(cwd, contractArg), cwd);
    const snapshot = await loadSnapshot(resolve(cwd, o.snapshot), cwd, contract.model);
    for (const line of formatDiagnostics(snapshot.path, cwd, snapshot.read.diagnostics)) process.stderr.write(`${line}\n`);
    const snap: Snapshot | undefined = snapshot.read.snapshot;
    if (!snap) throw new InputError(`${displayPath(cwd, snapshot.path)}: the snapshot has errors (above)`);
    const named = contractForSnapshot(snapshot.path, snap);
    if (named && !samePath(named, contract.path)) err(`note: ${displayPath(cwd, snapshot.path)} is for ${displayPath(cwd, named)}, not ${displayPath(cwd, contract.path)}`);
    const query = o.query !== undefined ? snap.queries.find((q) => q.id === o.query) : snap.queries.length === 1 ? snap.queries[0] : undefined;
    if (!query) {
      const ids = snap.queries.map((q) => q.id).join(', ');
      throw new InputError(o.query !== undefined ? `${displayPath(cwd, snapshot.path)}: no query "${o.query}" (queries: ${ids})` : `${displayPath(cwd, snapshot.path)} has ${snap.queries.length} queries (${ids}): choose one with --query, or run them all with "${TOOL_NAME} eval"`);
    }
    const folder = RunFolder.create(root, query.id);
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    const timeline = { color, contract: { model: contract.model, displayPath: displayPath(cwd, contract.path) } };
    try {
      const result = await executeQuery({
        root,
        contract,
        snapshot: { ...snapshot, read: { ...snapshot.read, snapshot: snap } },
        query,
        file: await resourceReader(root, contract),
        folder,
        traceName: 'trace.jsonl',
        ...(decision ? { decide: fixedDecision(decision) } : {}),
        signal: controller.signal,
        ...(o.realDelays ? { realDelays: true } : {}),
        ...(o.json ? {} : { onEvent: (e) => void process.stdout.write(formatEvent(e, timeline).map((l) => `${l}\n`).join('')) }),
      });
      const json = resultJson(result, cwd, contract, { run_id: folder.id, contract: displayPath(cwd, contract.path), snapshot: displayPath(cwd, snapshot.path), query: query.id });
      folder.writeJson('result.json', { ...json, contract: storedPath(root, contract.path), snapshot: storedPath(root, snapshot.path), trace: storedPath(root, result.tracePath) });
      if (o.json) process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
      else process.stdout.write(`${runMessage('run.trace', { path: displayPath(cwd, result.tracePath) })}\n`);
      setExitCode(RUN_EXIT[result.outcome.status]);
    } finally {
      process.removeListener('SIGINT', onSigint);
    }
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    err(e.message);
    setExitCode(RUN_EXIT.usage);
  }
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}

/** The options `run` and `trace fork` share: decisions for every pause, JSON output, colours, and their exit codes in the help. */
export function withRunOutputOptions(command: Command, pauses: string): Command {
  return command
    .addOption(new Option('--approve', `answer every human pause ${pauses} with approve (instead of the snapshot's decisions)`).conflicts('reject'))
    .addOption(new Option('--reject', `answer every human pause ${pauses} with reject`).conflicts('approve'))
    .option('--json', 'print the result as JSON instead of the timeline')
    .option('--color', 'force coloured output')
    .option('--no-color', 'disable coloured output (also: NO_COLOR=1, or output not to a terminal)')
    .addHelpText('after', RUN_EXIT_HELP);
}

/** Registers `run` on the program. */
export function registerRunCommand(program: Command, setExitCode: (code: number) => void): void {
  const run = program
    .command('run')
    .description('Dry-run a contract against a mocked memory snapshot: prints the run as a timeline (trigger → memory → prompt → tool calls → validation → outcome) and writes its trace to .agents-md/runs/.')
    .argument('<contract>', 'the contract file (AGENTS.md)')
    .requiredOption('-s, --snapshot <file>', 'the snapshot file (*.snapshot.yaml, *.snapshot.json)')
    .option('-q, --query <id>', 'the query of the snapshot to run (needed when it has several)')
    .option('--root <dir>', 'workspace root: runs are written under <root>/.agents-md/runs, resources are found from it (default: the current directory)')
    .option('--real-delays', 'wait for the snapshot\'s mocked delays instead of only counting them (watch a long run unfold)');
  withRunOutputOptions(run, 'of the run').action((contract: string, options: RunCliOptions) => runCommand(contract, options, setExitCode));
}
