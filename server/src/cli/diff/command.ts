/**
 * `agents-md diff`: the semantic diff of two versions of a contract (docs/cli.md, "agents-md diff";
 * docs/semantic-diff.md). Two files, or one file against a git ref (`--against`) or the index
 * (`--index`); text, JSON or Markdown; `--fail-on` gates CI. A thin adapter over `diffContracts`.
 */
import { resolve } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { diffContracts, diffMessage } from '../../service/index.ts';
import { EXIT } from '../exitCodes.ts';
import { displayPath } from '../report.ts';
import { errorLine, useColor } from '../terminal.ts';
import { formatDiffText } from '../format/diffText.ts';
import { formatDiffJson } from '../format/diffJson.ts';
import { formatDiffMarkdown } from '../format/diffMarkdown.ts';
import { InputError, loadVersion, type LoadedVersion, type VersionSource } from './inputs.ts';
import { versionLabel, type DiffReport } from './report.ts';

const FORMATS = ['text', 'json', 'markdown'] as const;
const GATES = ['breaking', 'risk', 'bump'] as const;
type Gate = (typeof GATES)[number];

interface DiffOptions {
  readonly against?: string;
  readonly index?: boolean;
  readonly format: (typeof FORMATS)[number];
  readonly failOn?: readonly Gate[];
  readonly color?: boolean;
}

/** `breaking,risk` → the gates; repeated options add up. */
function parseGates(value: string, previous: readonly Gate[] = []): Gate[] {
  const gates = [...previous];
  for (const part of value.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (!(GATES as readonly string[]).includes(part)) throw new InvalidArgumentError(diffMessage('usage.failOn', { value: part }));
    gates.push(part as Gate);
  }
  return gates;
}

/** The two versions to compare, or a usage message. */
function sourcesOf(file: string, other: string | undefined, options: DiffOptions): [VersionSource, VersionSource] | string {
  const name = (p: string) => displayPath(process.cwd(), resolve(p));
  if (other !== undefined && (options.against !== undefined || options.index)) return diffMessage('usage.againstAndTwoFiles');
  if (options.against !== undefined && options.index) return diffMessage('usage.againstAndIndex');
  if (other !== undefined) return [{ path: file, file: name(file) }, { path: other, file: name(other) }];
  if (options.against === undefined && !options.index) return diffMessage('usage.oneFile');
  return [{ path: file, file: name(file), git: options.index ? 'index' : { ref: options.against! } }, { path: file, file: name(file) }];
}

async function runDiff(file: string, other: string | undefined, options: DiffOptions): Promise<number> {
  const sources = sourcesOf(file, other, options);
  if (typeof sources === 'string') {
    errorLine(sources);
    return EXIT.USAGE;
  }
  let before: LoadedVersion;
  let after: LoadedVersion;
  try {
    [before, after] = await Promise.all([loadVersion(sources[0]), loadVersion(sources[1])]);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    errorLine(e.message);
    return EXIT.USAGE;
  }
  for (const v of [before, after]) if (v.model.kind === 'freeform') errorLine(diffMessage('report.notContract', { file: versionLabel(v.version), kind: v.model.kind }));

  const report: DiffReport = { before: before.version, after: after.version, diff: diffContracts(before.model, after.model) };
  const output = options.format === 'json' ? formatDiffJson(report) : options.format === 'markdown' ? formatDiffMarkdown(report) : formatDiffText(report, { color: useColor(options.color) });
  process.stdout.write(output);

  const gates = new Set(options.failOn ?? []);
  const { counts, advice } = report.diff;
  let code: number = EXIT.OK;
  if (gates.has('breaking') && counts.breaking > 0) {
    errorLine(diffMessage('gate.breaking', { count: counts.breaking }));
    code = EXIT.DIFF_GATED;
  }
  if (gates.has('risk') && counts['risk-increasing'] > 0) {
    errorLine(diffMessage('gate.risk', { count: counts['risk-increasing'] }));
    code = EXIT.DIFF_GATED;
  }
  if (gates.has('bump') && !advice.sufficient) {
    errorLine(diffMessage('gate.bump'));
    code = EXIT.DIFF_GATED;
  }
  return code;
}

/** Adds `diff` to the program; `setExitCode` receives the command's exit code. */
export function registerDiffCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('diff')
    .description(diffMessage('cli.description'))
    .argument('<file>', diffMessage('cli.argument.file'))
    .argument('[after]', diffMessage('cli.argument.after'))
    .option('--against <ref>', diffMessage('cli.option.against'))
    .option('--index', diffMessage('cli.option.index'))
    .addOption(new Option('-f, --format <format>', diffMessage('cli.option.format')).choices(FORMATS).default('text'))
    .option('--fail-on <kinds>', diffMessage('cli.option.failOn'), parseGates)
    .option('--color', diffMessage('cli.option.color'))
    .option('--no-color', diffMessage('cli.option.noColor'))
    .addHelpText('after', diffMessage('cli.exitCodes'))
    .action(async (file: string, other: string | undefined, options: DiffOptions) => {
      setExitCode(await runDiff(file, other, options));
    });
}
