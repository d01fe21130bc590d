/**
 * `agents-md trace verify|show|replay|fork <trace.jsonl>` (docs/dry-run.md,
 * "Trace"): check a trace's chain and checksums (a torn last line is reported apart), print it as
 * a timeline, re-execute it from its recorded model answers and decisions and compare, or fork it
 * at an event into a new run that goes on with the snapshot's script and new decisions.
 * Everything printed is in the display language; the traces themselves are language-neutral.
 */
import { checkSignature, signaturePath, TRACE_KEY_ENV } from '../node/traceSignature.ts';
import { resolve } from 'node:path';
import { writeFileAtomic } from '../node/atomicWrite.ts';
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { type ContractDiagnostic, createScriptedModel, firstDifference, forkOf, type Lang, recordedDecisions, recordedProvider, refText, runPageHtml, stepMessages, runMessage, scriptedDecisions, type TraceEvent, type TraceVerification } from '../service/index.ts';
import { format, localiseDiagnostic } from '../service/host.ts';
import { executeQuery, InputError, createRunFolder } from '../node/dryRunHost.ts';
import { forkTrace, loadTraceRun, type TraceRun } from '../node/traceRun.ts';
import { formatDiagnostics } from './snapshotReport.ts';
import { formatEvent } from './format/timeline.ts';
import { flagDecision, resultJson, RUN_FORMATS, withRunOutputOptions } from './run.ts';
import { chosenFormat, render, type FormatOptions } from './format/registry.ts';
import { withColorOptions } from './options.ts';
import { EXIT, exitCodesHelp, RUN_EXIT } from './exitCodes.ts';
import { guarded } from './guarded.ts';
import { displayPath } from './report.ts';
import { errorLine, useColor } from './terminal.ts';
import { contractOf, readTrace } from './traceFile.ts';
import { exportCommand, type ExportOptions } from './traceExport.ts';
import './messages.ts';


/** `file:line: problem` lines (the problem in `lang`). */
function problemLines(path: string, cwd: string, v: TraceVerification, lang: Lang): string[] {
  return v.problems.map((p) => `${displayPath(cwd, path)}:${p.line}: ${runMessage(p.messageId, p.args, lang)}`);
}

async function verifyCommand(file: string, lang: Lang, setExitCode: (code: number) => void): Promise<void> {
  const cwd = process.cwd();
  const path = resolve(cwd, file);
  const { bytes, verdict } = await readTrace(path, cwd);
  const out = (s: string) => process.stdout.write(`${s}\n`);
  for (const l of problemLines(path, cwd, verdict, lang)) out(l);
  // The keyed signature, when there is one or a key to check it with (docs/dry-run.md, "Signed traces").
  const signature = checkSignature(path, bytes);
  if (signature !== 'none') out(runMessage(`trace.signature.${signature}`, { file: displayPath(cwd, signaturePath(path)), env: TRACE_KEY_ENV }, lang));
  const forged = signature === 'invalid' || signature === 'missing';
  if (verdict.torn) out(`${displayPath(cwd, path)}:${verdict.torn.line}: ${runMessage('trace.torn', verdict.torn, lang)}`);
  if (verdict.problems.length === 0 && verdict.events.length > 0) out(runMessage('trace.intact', { file: displayPath(cwd, path), count: verdict.events.length }, lang));
  out(runMessage(verdict.complete ? 'trace.complete' : 'trace.incomplete', {}, lang));
  setExitCode(verdict.problems.length > 0 || forged ? EXIT.FAILED : verdict.torn || !verdict.complete ? EXIT.PARTIAL : EXIT.OK);
}

interface ShowOptions {
  readonly color?: boolean;
  readonly root?: string;
  readonly prompt?: boolean;
  readonly messages?: string;
  readonly html?: string;
  readonly beside?: string;
}

async function showCommand(file: string, o: ShowOptions, lang: Lang, setExitCode: (code: number) => void): Promise<void> {
  const cwd = process.cwd();
  const path = resolve(cwd, file);
  const { verdict } = await readTrace(path, cwd);
  const out = (s: string) => process.stdout.write(`${s}\n`);
  if (o.prompt) {
    const prompt = verdict.events.find((e) => e.event_type === 'prompt');
    if (!prompt) throw new InputError('run.trace.no-prompt', { file: displayPath(cwd, path) });
    out(String(prompt.payload['text'] ?? ''));
  } else if (o.messages !== undefined) {
    await showMessages(verdict.events, o.messages, resolve(cwd, o.root ?? '.'), cwd, lang, out);
  } else {
    const contract = await contractOf(verdict.events, resolve(cwd, o.root ?? '.'), cwd).catch(() => undefined);
    const options = { color: useColor(o.color), lang, ids: true, ...(contract ? { contract: { model: contract.model, displayPath: displayPath(cwd, contract.path) } } : {}) };
    if (o.html !== undefined) {
      const target = resolve(cwd, o.html);
      const start = verdict.events[0]?.payload ?? {};
      const title = typeof start['query_id'] === 'string' ? `${start['query_id']} · ${String((start['run'] as Record<string, unknown> | undefined)?.['contract'] ?? start['contract_name'] ?? '')}` : displayPath(cwd, path);
      const beside = o.beside === undefined ? undefined : await readTrace(resolve(cwd, o.beside), cwd);
      const label = (file: string, events: readonly TraceEvent[]) => `${displayPath(cwd, resolve(cwd, file))}${forkOf(events) ? ` · ${runMessage('page.fork-label', { at: String(forkOf(events)!.payload['at'] ?? '') }, lang)}` : ''}`;
      writeFileAtomic(target, runPageHtml({
        title, lang, nonce: randomBytes(16).toString('base64'),
        run: { label: label(file, verdict.events), events: verdict.events },
        ...(beside && o.beside !== undefined ? { beside: { label: label(o.beside, beside.verdict.events), events: beside.verdict.events } } : {}),
        ...(contract ? { contract: { model: contract.model, displayPath: displayPath(cwd, contract.path) } } : {}),
      }), {}, displayPath(cwd, target));
      out(runMessage('trace.html', { path: displayPath(cwd, target) }, lang));
    } else for (const e of verdict.events) process.stdout.write(formatEvent(e, options).map((l) => `${l}\n`).join(''));
  }
  for (const l of problemLines(path, cwd, verdict, lang)) process.stderr.write(`${l}\n`);
  setExitCode(verdict.problems.length > 0 ? EXIT.FAILED : EXIT.OK);
}

/** Prints the messages the model was sent at one step, re-executed from the trace (docs/dry-run.md, "The trace"). */
async function showMessages(events: readonly TraceEvent[], stepArg: string, root: string, cwd: string, lang: Lang, out: (s: string) => void): Promise<void> {
  const step = Number(stepArg);
  const steps = events.filter((e) => e.event_type === 'model_step').length;
  if (!Number.isInteger(step) || step < 1 || step > steps) throw new InputError('run.trace.no-such-step', { step: stepArg, steps });
  const run = await loadRun(events, root, cwd, lang);
  const messages = await stepMessages({ contract: run.contract.model, query: run.query, events, step, file: run.file, ...(run.snapshot.read.snapshot.now ? { now: run.snapshot.read.snapshot.now } : {}) });
  if (!messages) throw new InputError('run.trace.no-such-step', { step: stepArg, steps });
  for (const m of messages) {
    out(`── ${m.role}${m.toolCallId ? ` ${m.toolCallId}` : ''} ──`);
    if (m.content) out(m.content);
    for (const c of m.toolCalls ?? []) out(`→ ${c.id} ${c.name} ${c.rawArguments}`);
  }
}

/** What `loadTraceRun` reports, printed: the snapshot's problems, those of a `--set` named by it, changed files (in `lang`). */
function loadListeners(cwd: string, lang: Lang) {
  return {
    diagnostics: (path: string, d: readonly ContractDiagnostic[]) => formatDiagnostics(path, cwd, d, lang).forEach((l) => process.stderr.write(`${l}\n`)),
    setProblems: (set: string, d: readonly ContractDiagnostic[]) => d.forEach((x) => errorLine(runMessage('trace.set-problem', { set, code: x.code, message: localiseDiagnostic(x, lang).message }, lang))),
  };
}

/** The run a trace records, loaded again; notes the files changed since (in `lang`). */
async function loadRun(events: readonly TraceEvent[], root: string, cwd: string, lang: Lang, snapshotArg?: string, sets: readonly string[] = []): Promise<TraceRun> {
  const run = await loadTraceRun(events, root, cwd, { ...(snapshotArg ? { snapshotArg } : {}), sets, ...loadListeners(cwd, lang) });
  noteChanged(run, lang);
  return run;
}

function noteChanged(run: TraceRun, lang: Lang): void {
  for (const c of run.changed) errorLine(runMessage('trace.replay-input-changed', { what: c.what, expected: c.expected.slice(0, 12), actual: c.actual.slice(0, 12) }, lang));
}

async function replayCommand(file: string, o: { root?: string }, lang: Lang, setExitCode: (code: number) => void): Promise<void> {
  const cwd = process.cwd();
  const root = resolve(cwd, o.root ?? '.');
  const path = resolve(cwd, file);
  const { text, verdict } = await readTrace(path, cwd);
  if (verdict.problems.length > 0) {
    for (const l of problemLines(path, cwd, verdict, lang)) process.stderr.write(`${l}\n`);
    setExitCode(EXIT.FAILED);
    return;
  }
  // A fork is replayed as it was made: its prefix re-executed and matched, then its own namespace, with the snapshot it used.
  const fork = forkOf(verdict.events);
  const forkSnapshot = typeof fork?.payload['snapshot'] === 'string' ? resolve(root, fork.payload['snapshot']) : undefined;
  const forkSets = Array.isArray(fork?.payload['set']) ? (fork.payload['set'] as unknown[]).map(String) : [];
  const run = await loadRun(verdict.events, root, cwd, lang, forkSnapshot, forkSets);
  // An interrupted run is replayed as far as it went, then resumed with the snapshot's script.
  const resume = verdict.complete ? undefined : createScriptedModel(run.query.model);
  const folder = createRunFolder(root, `${run.query.id}-replay`, cwd);
  const result = await executeQuery({
    root,
    ...run,
    folder,
    traceName: 'trace.jsonl',
    provider: recordedProvider(verdict.events, resume),
    decide: recordedDecisions(verdict.events, verdict.complete ? undefined : scriptedDecisions(run.query.human)),
    ...(fork ? { fork: { ...fork, prefixText: `${text.split('\n').slice(0, fork.prefix.length).join('\n')}\n` } } : {}),
  });
  const original = verdict.events;
  const replayed = verdict.complete ? result.events : result.events.slice(0, original.length);
  const diverged = result.divergence as { index: number; expected: TraceEvent } | undefined;
  const diff = diverged ? { index: diverged.index + 1, id: diverged.expected.event_id, detail: { id: 'replay.prefix', args: {} } } : firstDifference(original, replayed);
  const name = displayPath(cwd, path);
  if (diff) process.stdout.write(`${refText({ id: 'trace.replay-differs', args: { file: name, index: diff.index, id: diff.id, detail: diff.detail } }, lang)}\n`);
  else process.stdout.write(`${runMessage('trace.replay-same', { file: name, count: original.length }, lang)}\n`);
  process.stdout.write(`${runMessage('run.trace', { path: displayPath(cwd, result.tracePath) }, lang)}\n`);
  setExitCode(diff ? EXIT.FAILED : EXIT.OK);
}

interface ForkOptions extends FormatOptions {
  readonly at: string;
  readonly snapshot?: string;
  readonly root?: string;
  readonly approve?: boolean;
  readonly reject?: boolean;
  readonly color?: boolean;
  readonly set?: readonly string[];
}

async function forkCommand(file: string, o: ForkOptions, lang: Lang, setExitCode: (code: number) => void): Promise<void> {
  const cwd = process.cwd();
  const root = resolve(cwd, o.root ?? '.');
  const path = resolve(cwd, file);
  const decision = flagDecision(o);
  const { text, verdict } = await readTrace(path, cwd);
  if (verdict.problems.length > 0) {
    for (const l of problemLines(path, cwd, verdict, lang)) process.stderr.write(`${l}\n`);
    setExitCode(EXIT.FAILED);
    return;
  }
  const timeline = { color: useColor(o.color), lang };
  const { run, folder, result } = await forkTrace({
    root, cwd, path, text, events: verdict.events, at: o.at, sets: o.set ?? [],
    ...(decision ? { decision } : {}),
    ...(o.snapshot ? { snapshotArg: o.snapshot } : {}),
    ...loadListeners(cwd, lang),
    loaded: (r) => noteChanged(r, lang),
    ...(chosenFormat(o) === 'json' ? {} : { onEvent: (e: TraceEvent, r: TraceRun) => void process.stdout.write(formatEvent(e, { ...timeline, contract: { model: r.contract.model, displayPath: displayPath(cwd, r.contract.path) } }).map((l) => `${l}\n`).join('')) }),
  });
  if (result.divergence) {
    errorLine(runMessage('trace.fork-diverged', { at: o.at, index: (result.divergence as { index: number }).index + 1 }, lang));
    setExitCode(EXIT.FAILED);
    return;
  }
  const json = resultJson(result, cwd, run.contract, { run_id: folder.id, forked_from: run.info.id, at: o.at });
  process.stdout.write(render(RUN_FORMATS, o, { json, closing: runMessage('trace.fork', { file: displayPath(cwd, path), at: o.at, path: displayPath(cwd, result.tracePath) }, lang) }, { cwd, lang, color: timeline.color }));
  setExitCode(RUN_EXIT[result.outcome.status]);
}

/** Registers `trace` and its subcommands on the program, their help and output in `lang`. */
export function registerTraceCommand(program: Command, setExitCode: (code: number) => void, lang: Lang = 'en'): void {
  const t = (id: string) => format(id, {}, lang);
  const trace = program.command('trace').description(t('cli.help.trace')).usage(t('cli.help.trace.usage'));
  // Every subcommand takes the same output options (`--color`, `--no-color`), used or not.
  const verify = trace
    .command('verify')
    .description(t('cli.help.trace.verify'))
    .usage(t('cli.help.trace.file-usage'))
    .argument('<trace>', t('cli.help.trace.file'))
    .addHelpText('after', exitCodesHelp('traceVerify', lang));
  withColorOptions(verify, lang).action(guarded(setExitCode, lang, (file: string) => verifyCommand(file, lang, setExitCode)));
  const show = trace
    .command('show')
    .description(t('cli.help.trace.show'))
    .usage(t('cli.help.trace.file-usage'))
    .argument('<trace>', t('cli.help.trace.file'))
    .option('--root <dir>', t('cli.help.trace.root'))
    .option('--prompt', t('cli.help.trace.prompt'))
    .option('--messages <step>', t('cli.help.trace.messages'))
    .option('--html <file>', t('cli.help.trace.html'))
    .option('--beside <trace>', t('cli.help.trace.beside'));
  withColorOptions(show, lang).action(guarded(setExitCode, lang, (file: string, o: ShowOptions) => showCommand(file, o, lang, setExitCode)));
  const replay = trace
    .command('replay')
    .description(t('cli.help.trace.replay'))
    .usage(t('cli.help.trace.file-usage'))
    .argument('<trace>', t('cli.help.trace.file'))
    .option('--root <dir>', t('cli.help.trace.root'))
    .addHelpText('after', exitCodesHelp('traceReplay', lang));
  withColorOptions(replay, lang).action(guarded(setExitCode, lang, (file: string, o: { root?: string }) => replayCommand(file, o, lang, setExitCode)));
  const fork = trace
    .command('fork')
    .description(t('cli.help.trace.fork'))
    .usage(t('cli.help.trace.file-usage'))
    .argument('<trace>', t('cli.help.trace.file'))
    .requiredOption('--at <event-id>', t('cli.help.trace.at'))
    .option('-s, --snapshot <file>', t('cli.help.trace.snapshot'))
    .option('--set <path=value>', t('cli.help.trace.set'), (v: string, all: string[]) => [...all, v], [] as string[])
    .option('--root <dir>', t('cli.help.trace.root'));
  withRunOutputOptions(fork, { approve: 'cli.help.trace.approve', reject: 'cli.help.trace.reject' }, lang).action(guarded(setExitCode, lang, (file: string, o: ForkOptions) => forkCommand(file, o, lang, setExitCode)));
  const exportTrace = trace
    .command('export')
    .description(t('cli.help.trace.export'))
    .usage(t('cli.help.trace.export.usage'))
    .argument('<trace>', t('cli.help.trace.file'))
    .requiredOption('--otlp <file|url>', t('cli.help.trace.otlp'))
    .option('--timeout <ms>', t('cli.help.trace.otlp-timeout'))
    .option('--root <dir>', t('cli.help.trace.root'))
    .addHelpText('after', exitCodesHelp('traceExport', lang));
  withColorOptions(exportTrace, lang).action(guarded(setExitCode, lang, (file: string, o: ExportOptions) => exportCommand(file, o, lang, setExitCode)));
}
