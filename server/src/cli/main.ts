/**
 * The `agents-md` command line: `lint` and `rules` here; `diff`, `run`, `eval`, `trace`, `report`,
 * `export`, `mcp`, `check-mcp` and `conformance` each register from their own module; output
 * formats come from format/registry.ts. A thin adapter over the language service; bundled by
 * esbuild.mjs into dist/cli.cjs and started by
 * bin/agents-md.cjs, which calls `main()` and exits with the code it returns. Every text it
 * prints is in the display language (`--lang`, else the locale: cli/lang.ts).
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { type ConfigProblem, type Lang } from '../service/index.ts';
import { format } from '../service/host.ts';
import { collectFiles } from './collectFiles.ts';
import { lintFiles, lintService } from './lintFiles.ts';
import { jobsOption, lintInWorkers, workerCount } from './lintPool.ts';
import { fixFiles } from './fixFiles.ts';
import { TOOL_NAME, TOOL_VERSION } from './meta.ts';
import { uriToPath } from '../node/nodeFileSystem.ts';
import { diskSummaryStore } from '../node/summaryStore.ts';
import { countSeverities, displayPath, type FileReport } from './report.ts';
import { LINT_FORMATS, RULES_FORMATS } from './format/lint.ts';
import { render, withFormatOptions, type FormatOptions } from './format/registry.ts';
import { cliLang } from './lang.ts';
import { defaultLocale } from './defaultLocale.ts';
import { localiseCommander } from './commanderText.ts';
import { EXIT, exitCodesHelp } from './exitCodes.ts';
import { registerDiffCommand } from './diff/command.ts';
import { errorLine, guardOutput, useColor } from './terminal.ts';
import { registerRunCommand } from './run.ts';
import { withColorOptions } from './options.ts';
import { registerEvalCommand } from './eval.ts';
import { registerTraceCommand } from './trace.ts';
import { registerReportCommand } from './workspaceReport.ts';
import { registerExportCommand } from './export.ts';
import { registerMcpCommand } from './mcp.ts';
import { registerCheckMcpCommand } from './checkMcp.ts';
import { registerConformanceCommand } from './conformance.ts';
import { registerProveCommand } from './prove.ts';
import { printStats } from './stats.ts';
import './messages.ts';

export { EXIT } from './exitCodes.ts';

interface LintOptions extends FormatOptions {
  readonly lang: Lang;
  readonly root?: string;
  readonly maxWarnings?: number;
  readonly quiet?: boolean;
  readonly color?: boolean;
  readonly fix?: boolean;
  readonly stats?: boolean;
  readonly jobs?: number;
}

function countParser(lang: Lang): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(format('cli.error.notCount', {}, lang));
    return Number(value);
  };
}

async function runLint(paths: readonly string[], options: LintOptions): Promise<number> {
  const cwd = process.cwd();
  const root = resolve(cwd, options.root ?? '.');
  if (!(await stat(root).then((s) => s.isDirectory(), () => false))) {
    errorLine(format('cli.error.rootNotDirectory', { root: options.root ?? '.' }, options.lang));
    return EXIT.USAGE;
  }

  const store = diskSummaryStore(root);
  const service = lintService(root, true, store);
  const implicit = paths.length === 0;
  const collected = await collectFiles(implicit ? ['.'] : paths, { cwd, root, workspace: service.workspace, implicit, lang: options.lang });
  // Many files: worker threads, unless the models are needed here (--fix, --stats) (docs/cli.md).
  const workers = options.fix || options.stats ? 0 : workerCount(collected.files.length, options.jobs);
  const linted = (await lintInWorkers(collected.files, workers, { root, cwd, lang: options.lang, boundToRoot: true, withModel: false }, store)) ?? (await lintFiles(service, collected.files, (p) => displayPath(cwd, p), options.lang, root));
  store?.save();
  const fixedRun = options.fix ? await fixFiles(service, linted.reports, (p) => displayPath(cwd, p), options.lang) : undefined;
  const run = fixedRun ? { ...linted, reports: fixedRun.reports } : linted;
  for (const s of fixedRun?.summaries ?? []) {
    const codes = [...new Set(s.fixed)].map((c) => `${c} ×${s.fixed.filter((x) => x === c).length}`).join(', ');
    errorLine(format('cli.fix.summary', { file: displayPath(cwd, s.path), count: s.fixed.length, codes }, options.lang));
  }

  const problems = [...collected.problems, ...run.readErrors, ...(fixedRun?.problems ?? [])];
  const configProblems = new Map<string, ConfigProblem>();
  for (const p of [...collected.configProblems, ...run.configProblems]) configProblems.set(`${p.uri}\0${p.message}`, p);

  for (const note of collected.notes) errorLine(note);
  for (const p of problems) errorLine(p);
  for (const p of configProblems.values()) {
    const path = uriToPath(p.uri);
    const file = path ? displayPath(cwd, path) : p.uri;
    process.stderr.write(`${format('cli.fileProblem', { file, problem: format(p.messageId, p.args, options.lang) }, options.lang)}\n`);
  }

  const counts = countSeverities(run.reports);
  const shown: FileReport[] = options.quiet ? run.reports.map((r) => ({ ...r, diagnostics: r.diagnostics.filter((d) => d.severity === 'error') })) : run.reports;
  const nothingLinted = run.reports.length === 0 && (problems.length > 0 || configProblems.size > 0);
  const output = render(LINT_FORMATS, options, { shown, root, configProblems: [...configProblems.values()], problems, nothingLinted }, { cwd, color: useColor(options.color), lang: options.lang });
  process.stdout.write(output);
  if (options.stats) printStats(run.reports, cwd, options.lang);

  let code: number = EXIT.OK;
  if (counts.error > 0) code = EXIT.FAILED;
  if (options.maxWarnings !== undefined && counts.warning > options.maxWarnings) {
    errorLine(format('cli.error.tooManyWarnings', { count: counts.warning, max: options.maxWarnings }, options.lang));
    code = EXIT.FAILED;
  }
  if (problems.length > 0 || configProblems.size > 0) code = EXIT.USAGE;
  return code;
}

/** The program with every command, its texts in `lang`; `setExitCode` receives the exit code of the command run. */
export function buildProgram(lang: Lang, setExitCode: (code: number) => void): Command {
  const t = (id: string, args: Readonly<Record<string, string | number>> = {}) => format(id, args, lang);
  const exitCodes = exitCodesHelp('lint', lang);
  const program = localiseCommander(new Command(TOOL_NAME), lang)
    .description(t('cli.description'))
    .usage(t('cli.usage.program'))
    .version(TOOL_VERSION, '-V, --version', t('cli.option.version'))
    .helpOption('-h, --help', t('cli.option.help'))
    .helpCommand('help [command]', t('cli.command.help'))
    // Read before parsing (cli/lang.ts); declared so that commander accepts and documents it.
    .option('--lang <lang>', t('cli.option.lang'))
    .exitOverride()
    .showHelpAfterError(t('cli.helpAfterError', { tool: TOOL_NAME }))
    .addHelpText('after', exitCodes);

  const lint = withFormatOptions(program.command('lint').description(t('cli.lint.description')).usage(t('cli.usage.lint')).argument('[paths...]', t('cli.lint.paths')), LINT_FORMATS, lang)
    .option('--root <dir>', t('cli.option.root'))
    .option('--max-warnings <n>', t('cli.option.maxWarnings'), countParser(lang))
    .option('-q, --quiet', t('cli.option.quiet'))
    .option('--fix', t('cli.option.fix'))
    .option('--stats', t('cli.option.stats'))
    .addOption(jobsOption(lang));
  withColorOptions(lint, lang)
    .addHelpText('after', exitCodes)
    .action(async (paths: string[], options: Omit<LintOptions, 'lang'>) => {
      setExitCode(await runLint(paths, { ...options, lang }));
    });

  const rules = program
    .command('rules')
    .description(t('cli.rules.description'))
    .usage(t('cli.usage.rules'));
  // The same output options as every command (docs/cli.md); the reference has no colours to turn off.
  withColorOptions(withFormatOptions(rules, RULES_FORMATS, lang), lang)
    .action((options: FormatOptions) => {
      process.stdout.write(render(RULES_FORMATS, options, undefined, { cwd: process.cwd(), color: false, lang }));
      setExitCode(EXIT.OK);
    });

  registerDiffCommand(program, lang, setExitCode);
  registerRunCommand(program, setExitCode, lang);
  registerEvalCommand(program, setExitCode, lang);
  registerTraceCommand(program, setExitCode, lang);
  registerReportCommand(program, lang, setExitCode);
  registerExportCommand(program, lang, setExitCode);
  registerMcpCommand(program, lang, setExitCode);
  registerCheckMcpCommand(program, lang, setExitCode);
  registerConformanceCommand(program, lang, setExitCode);
  registerProveCommand(program, lang, setExitCode);

  // A usage error of a subcommand points at that subcommand's help (`agents-md trace fork --help`).
  const pointAtOwnHelp = (command: Command, path: string): void => {
    for (const sub of command.commands) {
      const own = `${path} ${sub.name()}`;
      sub.showHelpAfterError(t('cli.helpAfterError', { tool: own }));
      pointAtOwnHelp(sub, own);
    }
  };
  pointAtOwnHelp(program, TOOL_NAME);
  return program;
}

/** Runs the CLI on `argv` (node's form: two leading entries, then the arguments) and returns the exit code. */
export async function main(argv: readonly string[] = process.argv): Promise<number> {
  // Output piped into `head` closes early: the rest of the output is dropped, but the command (a
  // dry run writing its trace) still finishes and exits with its own code.
  guardOutput();
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
    });
  }
  const { lang, unknown } = cliLang(argv.slice(2), process.env, defaultLocale);
  if (unknown !== undefined) {
    errorLine(format('cli.error.unknownLang', { lang: unknown }, lang));
    return EXIT.USAGE;
  }
  let code: number = EXIT.OK;
  const program = buildProgram(lang, (c) => (code = c));
  try {
    await program.parseAsync([...argv]);
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Commander has already printed its message, or the help / version text. Help asked for
      // (`--help`, `help`) and `--version` exit 0; everything else, including help shown because
      // no command was given, is a usage error.
      return e.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    }
    errorLine(format('cli.error.internal', { detail: e instanceof Error ? (e.stack ?? e.message) : String(e) }, lang));
    return EXIT.USAGE;
  }
}
