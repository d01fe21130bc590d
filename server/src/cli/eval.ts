/**
 * `agents-md eval [paths...]`: runs every query of every snapshot found, checks each against its
 * expectations, and reports the regression figures (success rate, average rounds, tokens,
 * human-intervention rate) and the path drift against the previous eval run found under
 * `.agents-md/runs/` (docs/cli.md, docs/dry-run.md "Eval"). The report is in the display
 * language, its columns aligned by display width; the JSON report is the same in every language.
 */
import { resolve } from 'node:path';
import { type Command } from 'commander';
import { evalFigures, type Lang, passRates, pathDrift, type QueryReport, runMessage } from '../service/index.ts';
import { format } from '../service/host.ts';
import { readRunJson, runsWith } from '../node/runFolder.ts';
import { createRunFolder } from '../node/dryRunHost.ts';
import { findSnapshots, loadEvalWork, runEvalWork } from './evalQueries.ts';
import { compareCommand } from './evalCompare.ts';
import { InputError } from '../node/inputError.ts';
import { cliModel } from './run.ts';
import { withColorOptions, withTrustOption } from './options.ts';
import { EXIT, exitCodesHelp } from './exitCodes.ts';
import { guarded } from './guarded.ts';
import { errorLine, progressLine, useColor } from './terminal.ts';
import { EVAL_FORMATS, type EvalOutput } from './format/eval.ts';
import { chosenFormat, render, withFormatOptions, type FormatOptions } from './format/registry.ts';
import './messages.ts';

/** The name of eval run folders (`<stamp>-eval`), where the previous run for drift is looked for. */
const EVAL_RUN = 'eval';

interface EvalOptions extends FormatOptions {
  readonly root?: string;
  readonly color?: boolean;
  readonly repeat?: string;
  readonly compare?: boolean;
  readonly trustEndpoint?: string[];
  readonly scripted?: boolean;
}

/** `--repeat`: a whole number from 1 to 1000 (default 1). */
function repeatOf(value: string | undefined): number {
  if (value === undefined) return 1;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > 1000) throw new InputError('run.eval.repeat-invalid', { value });
  return n;
}

async function evalCommand(paths: string[], o: EvalOptions, lang: Lang, setExitCode: (code: number) => void): Promise<void> {
  if (o.compare) return compareCommand(paths, o, lang, setExitCode);
  const repeat = repeatOf(o.repeat);
  const cwd = process.cwd();
  const root = resolve(cwd, o.root ?? '.');
  const t = (id: string, args: Readonly<Record<string, string | number>> = {}) => runMessage(id, args, lang);
  const err = (s: string) => process.stderr.write(`${s}\n`);
  const progress = Boolean(process.stderr.isTTY) && chosenFormat(o) === 'text';
  const { files, problems } = await findSnapshots(paths.length > 0 ? paths : ['.'], cwd, lang);
  for (const p of problems) errorLine(p);
  let usage = problems.length > 0;
  if (files.length === 0) {
    errorLine(t('eval.no-snapshots', { paths: (paths.length > 0 ? paths : ['.']).join(', ') }));
    setExitCode(EXIT.USAGE);
    return;
  }

  // Read everything first, so that the progress counter knows the total.
  const loaded = await loadEvalWork(files, root, cwd, lang, { diagnostics: (lines) => lines.forEach(err), error: errorLine }, undefined, (contractPath) => cliModel(root, contractPath, o.trustEndpoint, o.scripted));
  if (!loaded.usable) usage = true;
  // Nothing could run (a refused endpoint, snapshots with errors): no run folder, so no empty eval run becomes the next drift baseline.
  if (loaded.work.length === 0) {
    setExitCode(EXIT.USAGE);
    return;
  }

  // The previous eval run that ran something is the drift baseline.
  const previousRuns = runsWith(root, 'eval.json');
  const folder = createRunFolder(root, EVAL_RUN, cwd);
  const reports = await runEvalWork(loaded.work, {
    root, cwd, folder, repeat,
    onQuery: (done, total, snapshot, query) => progress && progressLine(t('run.progress', { done, total, snapshot, query })),
  });
  if (progress) progressLine('');

  const figures = evalFigures(reports);
  // The newest earlier eval run that ran something is the drift baseline.
  let previousId: string | undefined;
  let previous: { queries?: QueryReport[] } | undefined;
  for (const id of [...previousRuns].reverse()) {
    previous = readRunJson(root, id, 'eval.json') as { queries?: QueryReport[] } | undefined;
    if ((previous?.queries?.length ?? 0) > 0) {
      previousId = id;
      break;
    }
    previous = undefined;
  }
  // Repeated queries drift by their first run.
  const first = (rs: readonly QueryReport[]) => rs.filter((r) => (r.attempt ?? 1) === 1);
  const drift = previous?.queries ? pathDrift(first(reports), first(previous.queries)) : undefined;
  const rates = repeat > 1 ? passRates(reports) : undefined;
  folder.writeJson('eval.json', { run_id: folder.id, figures, ...(rates ? { repeat, pass_rates: rates } : {}), ...(drift ? { drift: { previous: previousId, ...drift } } : {}), queries: reports });

  const result: EvalOutput = { runId: folder.id, figures, repeat, rates, previousId, drift, reports, runsDir: resolve(root, '.agents-md/runs'), folderDir: folder.dir };
  process.stdout.write(render(EVAL_FORMATS, o, result, { cwd, lang, color: useColor(o.color) }));
  setExitCode(usage ? EXIT.USAGE : figures.passed < figures.total ? EXIT.FAILED : EXIT.OK);
}

/** Registers `eval` on the program, its help and report in `lang`. */
export function registerEvalCommand(program: Command, setExitCode: (code: number) => void, lang: Lang = 'en'): void {
  const t = (id: string) => format(id, {}, lang);
  const command = program
    .command('eval')
    .description(t('cli.help.eval'))
    .usage(t('cli.help.eval.usage'))
    .argument('[paths...]', t('cli.help.eval.paths'))
    .option('--root <dir>', t('cli.help.eval.root'))
    .option('--repeat <n>', t('cli.help.eval.repeat'))
    .option('--compare', t('cli.help.eval.compare'));
  withColorOptions(withTrustOption(withFormatOptions(command, EVAL_FORMATS, lang), lang), lang)
    .addHelpText('after', exitCodesHelp('eval', lang))
    .action(guarded(setExitCode, lang, (paths: string[], options: EvalOptions) => evalCommand(paths, options, lang, setExitCode)));
}
