/**
 * `agents-md run <contract> --snapshot <file> [--query id]`: one dry run, printed as a timeline
 * while it happens (or as JSON), its trace written to `.agents-md/runs/<run id>/trace.jsonl`, the
 * exit code by outcome (docs/cli.md, docs/dry-run.md). Everything printed is in the display
 * language (`--lang`); the trace and the JSON output are the same in every language.
 */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../node/atomicWrite.ts';
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { withColorOptions, withTrustOption } from './options.ts';
import { createScriptedModel, recordedScript, SCRIPTED_PROVIDER_ID, withRecordedScript, type HumanDecision, type Lang, ModelError, type ModelProvider, type ParsedContract, runMessage, type RunResult, type Snapshot, type SnapshotQuery } from '../service/index.ts';
import { format, type MessageArgs } from '../service/host.ts';
import { configuredModel, trustedEndpoints } from '../node/llmConfig.ts';
import { contractForSnapshot, executeQuery, fixedDecision, InputError, loadContract, loadSnapshot, resourceReader, storedPath, createRunFolder } from '../node/dryRunHost.ts';
import { samePath } from '../node/paths.ts';
import { formatDiagnostics } from './snapshotReport.ts';
import { chosenFormat, render, withFormatOptions, type FormatOptions, type Formatters } from './format/registry.ts';
import { clauseLocation, formatEvent } from './format/timeline.ts';
import { displayPath } from './report.ts';
import { TOOL_NAME } from './meta.ts';
import { errorLine, useColor } from './terminal.ts';
import { exitCodesHelp, RUN_EXIT } from './exitCodes.ts';
import { guarded } from './guarded.ts';
import './messages.ts';


interface RunCliOptions extends FormatOptions {
  readonly snapshot: string;
  readonly query?: string;
  readonly root?: string;
  readonly approve?: boolean;
  readonly reject?: boolean;
  readonly realDelays?: boolean;
  readonly color?: boolean;
  readonly trustEndpoint?: string[];
  readonly record?: boolean;
  readonly scripted?: boolean;
}

/** The decision `--approve` / `--reject` give to every pause, or undefined; throws on both. */
export function flagDecision(o: { approve?: boolean; reject?: boolean }): HumanDecision | undefined {
  if (o.approve && o.reject) throw new InputError('run.error.approve-and-reject');
  return o.approve ? 'approve' : o.reject ? 'reject' : undefined;
}

/** A finished run (or fork): its result as JSON, and the closing line of the text format (whose timeline is printed while the run happens). */
export interface RunOutput {
  readonly json: Record<string, unknown>;
  readonly closing: string;
}

export const RUN_FORMATS: Formatters<RunOutput> = {
  text: (r) => `${r.closing}\n`,
  json: (r) => `${JSON.stringify(r.json, null, 2)}\n`,
};

/** The result as `-f json` prints it (and `result.json` keeps it): ids, arguments and the English message, whatever the display language. */
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

async function runCommand(contractArg: string, o: RunCliOptions, lang: Lang, setExitCode: (code: number) => void): Promise<void> {
  const cwd = process.cwd();
  const root = resolve(cwd, o.root ?? '.');
  const color = useColor(o.color);
  const decision = flagDecision(o);
  const contract = await loadContract(resolve(cwd, contractArg), cwd);
  const snapshot = await loadSnapshot(resolve(cwd, o.snapshot), cwd, contract.model);
  for (const line of formatDiagnostics(snapshot.path, cwd, snapshot.read.diagnostics, lang)) process.stderr.write(`${line}\n`);
  const snap: Snapshot | undefined = snapshot.read.snapshot;
  const file = displayPath(cwd, snapshot.path);
  if (!snap) throw new InputError('run.error.snapshot-has-errors', { file });
  const named = contractForSnapshot(snapshot.path, snap);
  if (named && !samePath(named, contract.path)) errorLine(runMessage('error.snapshot-for-other', { snapshot: file, named: displayPath(cwd, named), contract: displayPath(cwd, contract.path) }, lang));
  const query = o.query !== undefined ? snap.queries.find((q) => q.id === o.query) : snap.queries.length === 1 ? snap.queries[0] : undefined;
  if (!query) {
    const ids = snap.queries.map((q) => q.id).join(', ');
    throw o.query !== undefined ? new InputError('run.error.no-query', { file, query: o.query, ids }) : new InputError('run.error.choose-query', { file, count: snap.queries.length, ids, tool: TOOL_NAME });
  }
  const provider = await cliModel(root, contract.path, o.trustEndpoint, o.scripted);
  // Recording the snapshot's own script would record nothing new (docs/dry-run.md, "Recording a live run").
  if (o.record && provider(query).id === SCRIPTED_PROVIDER_ID) throw new InputError('run.error.record-scripted', { file });
  const folder = createRunFolder(root, query.id, cwd);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  const timeline = { color, lang, contract: { model: contract.model, displayPath: displayPath(cwd, contract.path) } };
  try {
    const result = await executeQuery({
      root,
      contract,
      snapshot: { ...snapshot, read: { ...snapshot.read, snapshot: snap } },
      query,
      file: await resourceReader(root, contract),
      folder,
      traceName: 'trace.jsonl',
      provider: provider(query),
      ...(decision ? { decide: fixedDecision(decision) } : {}),
      signal: controller.signal,
      ...(o.realDelays ? { realDelays: true } : {}),
      ...(chosenFormat(o) === 'json' ? {} : { onEvent: (e) => void process.stdout.write(formatEvent(e, timeline).map((l) => `${l}\n`).join('')) }),
    });
    const json = resultJson(result, cwd, contract, { run_id: folder.id, contract: displayPath(cwd, contract.path), snapshot: displayPath(cwd, snapshot.path), query: query.id });
    folder.writeJson('result.json', { ...json, contract: storedPath(root, contract.path), snapshot: storedPath(root, snapshot.path), trace: storedPath(root, result.tracePath) });
    process.stdout.write(render(RUN_FORMATS, o, { json, closing: runMessage('run.trace', { path: displayPath(cwd, result.tracePath) }, lang) }, { cwd, lang, color: timeline.color }));
    if (o.record) recordRun(snapshot.path, file, query, result, lang);
    setExitCode(RUN_EXIT[result.outcome.status]);
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

/** The outcomes a script cannot play back: the endpoint failed, or the run was stopped. */
const UNRECORDABLE = new Set(['MODEL_UNAVAILABLE', 'MODEL_TIMEOUT', 'MODEL_PROTOCOL_ERROR', 'CANCELLED']);

/** `--record`: the run's model answers into the query's script in the snapshot file (docs/dry-run.md, "Recording a live run"). */
function recordRun(path: string, file: string, query: SnapshotQuery, result: RunResult, lang: Lang): void {
  if (UNRECORDABLE.has(result.outcome.code)) {
    errorLine(runMessage('run.record.skipped', { file, query: query.id, code: result.outcome.code }, lang));
    return;
  }
  const steps = recordedScript(result.events, query.model);
  const original = readFileSync(path);
  const text = withRecordedScript(original.toString('utf8'), query.id, steps, path.toLowerCase().endsWith('.json') ? 'json' : 'yaml');
  if (text === undefined) throw new InputError('run.error.no-query', { file, query: query.id, ids: query.id });
  // All or nothing, and not over an edit made while the run went on.
  writeFileAtomic(path, text, { expected: original }, file);
  errorLine(runMessage('run.record.written', { file, query: query.id, steps: steps.length }, lang));
}

/**
 * The model of `run` and `eval`: the configuration's `model` section, its endpoint used only when
 * the user confirmed it (docs/model-providers.md); a refusal or invalid settings are an
 * `InputError` (exit 2) before anything runs.
 */
export async function cliModel(root: string, contractPath: string, flags: readonly string[] = [], scripted = false): Promise<(query: SnapshotQuery) => ModelProvider> {
  // `--scripted`: the snapshot's script, whatever the configuration names (a recorded run, offline).
  if (scripted) return (query) => createScriptedModel(query.model);
  try {
    return await configuredModel(root, contractPath, process.env, trustedEndpoints(process.env, flags));
  } catch (e) {
    if (e instanceof ModelError && e.detail) throw new InputError(e.detail.id, e.detail.args as MessageArgs);
    throw e;
  }
}

/**
 * The options `run` and `trace fork` share: decisions for every pause (`help`: the messages
 * describing `--approve` and `--reject` for this command), the output format, colours, and the exit
 * codes in the help.
 */
export function withRunOutputOptions(command: Command, help: { readonly approve: string; readonly reject: string }, lang: Lang): Command {
  const t = (id: string) => format(id, {}, lang);
  command
    .addOption(new Option('--approve', t(help.approve)).conflicts('reject'))
    .addOption(new Option('--reject', t(help.reject)).conflicts('approve'));
  return withColorOptions(withFormatOptions(command, RUN_FORMATS, lang), lang).addHelpText('after', exitCodesHelp('run', lang));
}

/** Registers `run` on the program, its help and output in `lang`. */
export function registerRunCommand(program: Command, setExitCode: (code: number) => void, lang: Lang = 'en'): void {
  const t = (id: string) => format(id, {}, lang);
  const run = program
    .command('run')
    .description(t('cli.help.run'))
    .usage(t('cli.help.run.usage'))
    .argument('<contract>', t('cli.help.run.contract'))
    .requiredOption('-s, --snapshot <file>', t('cli.help.run.snapshot'))
    .option('-q, --query <id>', t('cli.help.run.query'))
    .option('--root <dir>', t('cli.help.run.root'))
    .option('--real-delays', t('cli.help.run.real-delays'))
    .addOption(new Option('--record', t('cli.help.run.record')).conflicts('scripted'));
  withTrustOption(run, lang);
  withRunOutputOptions(run, { approve: 'cli.help.run.approve', reject: 'cli.help.run.reject' }, lang).action(guarded(setExitCode, lang, (contract: string, options: RunCliOptions) => runCommand(contract, options, lang, setExitCode)));
}
