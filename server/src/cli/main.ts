/**
 * The `agents-md` command line: `agents-md lint [paths...]` and `agents-md rules`. A thin adapter
 * over the language service; bundled by esbuild.mjs into dist/cli.cjs and started by
 * bin/agents-md.cjs, which calls `main()` and exits with the code it returns.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { createLanguageService, recheckAnalyzer, type ConfigProblem } from '../service/index.ts';
import { collectFiles } from './collectFiles.ts';
import { lintFiles } from './lintFiles.ts';
import { TOOL_NAME, TOOL_VERSION } from './meta.ts';
import { createNodeFileSystem, fileUri, uriToPath } from '../node/nodeFileSystem.ts';
import { countSeverities, displayPath, type FileReport } from './report.ts';
import { formatText } from './format/text.ts';
import { formatJson } from './format/json.ts';
import { formatSarif } from './format/sarif.ts';
import { formatRulesJson, formatRulesText } from './format/rules.ts';
import { registerRunCommand } from './run.ts';
import { registerEvalCommand } from './eval.ts';
import { registerTraceCommand } from './trace.ts';

/** Exit codes of `agents-md`. */
export const EXIT = { OK: 0, LINT_FAILED: 1, USAGE: 2 } as const;

export const EXIT_CODES_HELP = `
Exit codes:
  0  no errors, and no more warnings than --max-warnings allows
  1  errors found, or more warnings than --max-warnings allows
  2  usage error (unknown option, bad value), a path that cannot be read or
     matches no file, an invalid configuration file, or an internal error`;

const FORMATS = ['text', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

interface LintOptions {
  readonly format: Format;
  readonly root?: string;
  readonly maxWarnings?: number;
  readonly quiet?: boolean;
  readonly color?: boolean;
}

function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('Expected a non-negative integer.');
  return Number(value);
}

/** Colour only for a terminal, and never when NO_COLOR is set (https://no-color.org). */
function useColor(explicit: boolean | undefined): boolean {
  if (explicit !== undefined) return explicit;
  return Boolean(process.stdout.isTTY) && !process.env['NO_COLOR'];
}

function errorLine(message: string): void {
  process.stderr.write(`${TOOL_NAME}: ${message}\n`);
}

async function runLint(paths: readonly string[], options: LintOptions): Promise<number> {
  const cwd = process.cwd();
  const root = resolve(cwd, options.root ?? '.');
  try {
    if (!(await stat(root)).isDirectory()) throw new Error('not a directory');
  } catch {
    errorLine(`--root ${options.root ?? '.'}: not a directory`);
    return EXIT.USAGE;
  }

  const service = createLanguageService({ fs: createNodeFileSystem(), roots: [fileUri(root)], analyzeRegex: recheckAnalyzer });
  const implicit = paths.length === 0;
  const collected = await collectFiles(implicit ? ['.'] : paths, { cwd, root, workspace: service.workspace, implicit });
  const run = await lintFiles(service, collected.files, (p) => displayPath(cwd, p));

  const problems = [...collected.problems, ...run.readErrors];
  const configProblems = new Map<string, ConfigProblem>();
  for (const p of [...collected.configProblems, ...run.configProblems]) configProblems.set(`${p.uri}\0${p.message}`, p);

  for (const note of collected.notes) errorLine(note);
  for (const p of problems) errorLine(p);
  for (const p of configProblems.values()) {
    const path = uriToPath(p.uri);
    process.stderr.write(`${path ? displayPath(cwd, path) : p.uri}: ${p.message}\n`);
  }

  const counts = countSeverities(run.reports);
  const shown: FileReport[] = options.quiet ? run.reports.map((r) => ({ ...r, diagnostics: r.diagnostics.filter((d) => d.severity === 'error') })) : run.reports;
  let output: string;
  switch (options.format) {
    case 'json':
      output = formatJson(shown, cwd);
      break;
    case 'sarif':
      output = formatSarif(shown, { root, configProblems: [...configProblems.values()], problems });
      break;
    default:
      output = formatText(shown, { cwd, color: useColor(options.color) });
  }
  process.stdout.write(output);

  let code: number = EXIT.OK;
  if (counts.error > 0) code = EXIT.LINT_FAILED;
  if (options.maxWarnings !== undefined && counts.warning > options.maxWarnings) {
    errorLine(`${counts.warning} warning${counts.warning === 1 ? '' : 's'} found, more than --max-warnings ${options.maxWarnings} allows`);
    code = EXIT.LINT_FAILED;
  }
  if (problems.length > 0 || configProblems.size > 0) code = EXIT.USAGE;
  return code;
}

function buildProgram(setExitCode: (code: number) => void): Command {
  const program = new Command(TOOL_NAME)
    .description('Check AGENTS.md agent contracts: structure, schemas, cross-references.')
    .version(TOOL_VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .exitOverride()
    .showHelpAfterError(`(run "${TOOL_NAME} --help" for usage)`)
    .addHelpText('after', EXIT_CODES_HELP);

  program
    .command('lint')
    .description(
      'Lint contract files. Directories are searched with the configuration\'s contracts.include globs (default **/AGENTS.md and **/*.agents.md, without node_modules and .git); files named explicitly are linted whatever their name; globs are expanded. Without paths, lints the current directory.',
    )
    .argument('[paths...]', 'files, directories or glob patterns (default: .)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(FORMATS).default('text'))
    .option('--root <dir>', 'workspace root: where configuration lookup stops, cross-file references and resources are resolved, SARIF paths are relative to (default: the current directory)')
    .option('--max-warnings <n>', 'exit 1 when more than n warnings are found (info and hints do not count)', parseCount)
    .option('-q, --quiet', 'report errors only')
    .option('--color', 'force coloured text output')
    .option('--no-color', 'disable coloured text output (also: NO_COLOR=1, or output not to a terminal)')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (paths: string[], options: LintOptions) => {
      setExitCode(await runLint(paths, options));
    });

  program
    .command('rules')
    .description('List the rules: code, default severity and summary.')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action((options: { format: 'text' | 'json' }) => {
      process.stdout.write(options.format === 'json' ? formatRulesJson() : formatRulesText());
      setExitCode(EXIT.OK);
    });

  registerRunCommand(program, setExitCode);
  registerEvalCommand(program, setExitCode);
  registerTraceCommand(program, setExitCode);

  return program;
}

/** Runs the CLI on `argv` (node's form: two leading entries, then the arguments) and returns the exit code. */
export async function main(argv: readonly string[] = process.argv): Promise<number> {
  let code: number = EXIT.OK;
  const program = buildProgram((c) => (code = c));
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
    errorLine(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return EXIT.USAGE;
  }
}
