/**
 * `agents-md diff`: the semantic diff of two versions of a contract (docs/cli.md, "agents-md diff";
 * docs/semantic-diff.md). Two files, or one file against a git ref (`--against`) or the index
 * (`--index`); text, JSON or Markdown; `--fail-on` gates CI. A thin adapter over `diffContracts`.
 * Its help, reports and errors are in the CLI's display language (`--lang`, the locale).
 */
import { resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { withColorOptions } from '../options.ts';
import { render, withFormatOptions, type FormatOptions, type Formatters } from '../format/registry.ts';
import { contractLikeSection, diffContracts, type Lang } from '../../service/index.ts';
import { diffMessage, format, type DiffMessageId } from '../../service/host.ts';
import { EXIT, exitCodesHelp } from '../exitCodes.ts';
import { displayPath } from '../report.ts';
import { errorLine, useColor } from '../terminal.ts';
import { formatDiffText } from '../format/diffText.ts';
import { formatDiffJson } from '../format/diffJson.ts';
import { formatDiffMarkdown } from '../format/diffMarkdown.ts';
import { diffPolicyFor, loadVersion, type VersionSource } from '../../node/diffInputs.ts';
import { guarded } from '../guarded.ts';
import { versionLabel, type DiffReport } from './report.ts';
import { GATES, trippedGates, type Gate } from './gates.ts';
import '../messages.ts';

const DIFF_FORMATS: Formatters<DiffReport> = {
  text: (r, c) => formatDiffText(r, { color: c.color, lang: c.lang }),
  json: (r, c) => formatDiffJson(r, c.lang),
  markdown: (r, c) => formatDiffMarkdown(r, c.lang),
};

interface DiffOptions extends FormatOptions {
  readonly lang: Lang;
  readonly against?: string;
  readonly index?: boolean;
  readonly failOn?: readonly Gate[];
  readonly color?: boolean;
}

/** A parser of `--fail-on`: `breaking,risk` → the gates; repeated options add up. */
function gateParser(lang: Lang): (value: string, previous?: readonly Gate[]) => Gate[] {
  return (value, previous = []) => {
    const gates = [...previous];
    const parts = value.split(',').map((s) => s.trim()).filter(Boolean);
    // `--fail-on ""` would gate nothing while looking like a gate.
    if (parts.length === 0) throw new InvalidArgumentError(diffMessage('usage.failOn', { value }, lang));
    for (const part of parts) {
      if (!(GATES as readonly string[]).includes(part)) throw new InvalidArgumentError(diffMessage('usage.failOn', { value: part }, lang));
      gates.push(part as Gate);
    }
    return gates;
  };
}

/** The two versions to compare, or the id of a usage message. */
function sourcesOf(file: string, other: string | undefined, options: DiffOptions): [VersionSource, VersionSource] | DiffMessageId {
  const name = (p: string) => displayPath(process.cwd(), resolve(p));
  if (other !== undefined && (options.against !== undefined || options.index)) return 'usage.againstAndTwoFiles';
  if (options.against !== undefined && options.index) return 'usage.againstAndIndex';
  if (other !== undefined) return [{ path: file, file: name(file) }, { path: other, file: name(other) }];
  if (options.against === undefined && !options.index) return 'usage.oneFile';
  return [{ path: file, file: name(file), git: options.index ? 'index' : { ref: options.against! } }, { path: file, file: name(file) }];
}

async function runDiff(file: string, other: string | undefined, options: DiffOptions): Promise<number> {
  const { lang } = options;
  const sources = sourcesOf(file, other, options);
  if (typeof sources === 'string') {
    errorLine(diffMessage(sources, {}, lang));
    return EXIT.USAGE;
  }
  const [before, after] = await Promise.all([loadVersion(sources[0]), loadVersion(sources[1])]);
  for (const v of [before, after]) {
    if (v.model.kind !== 'freeform') continue;
    const like = contractLikeSection(v.model);
    errorLine(like ? diffMessage('report.notContractLooksLike', { file: versionLabel(v.version), title: like.title ?? '' }, lang) : diffMessage('report.notContract', { file: versionLabel(v.version), kind: v.model.kind }, lang));
  }

  // The project's diff policy: the configuration nearest to the newer version, up to the working directory.
  const policy = await diffPolicyFor(sources[1].path, process.cwd());
  const report: DiffReport = { before: before.version, after: after.version, diff: diffContracts(before.model, after.model, policy) };
  process.stdout.write(render(DIFF_FORMATS, options, report, { cwd: process.cwd(), lang, color: useColor(options.color) }));

  const tripped = trippedGates(report.diff, new Set(options.failOn ?? []));
  for (const t of tripped) errorLine(diffMessage(t.messageId, t.args, lang));
  return tripped.length > 0 ? EXIT.FAILED : EXIT.OK;
}

/**
 * Adds `diff` to the program, with its help in `lang`; `setExitCode` receives the command's exit
 * code. The options it shares with `lint` (format, colour) have the CLI messages' texts.
 */
export function registerDiffCommand(program: Command, lang: Lang, setExitCode: (code: number) => void): void {
  const t = (id: string) => format(id, {}, lang);
  const diff = program
    .command('diff')
    .description(t('cli.help.diff.description'))
    .usage(t('cli.help.diff.usage'))
    .argument('<file>', t('cli.help.diff.argument.file'))
    .argument('[after]', t('cli.help.diff.argument.after'))
    .option('--against <ref>', t('cli.help.diff.option.against'))
    .option('--index', t('cli.help.diff.option.index'));
  withFormatOptions(diff, DIFF_FORMATS, lang)
    .option('--fail-on <kinds>', t('cli.help.diff.option.failOn'), gateParser(lang));
  withColorOptions(diff, lang)
    .addHelpText('after', exitCodesHelp('diff', lang))
    .action(guarded(setExitCode, lang, async (file: string, other: string | undefined, options: Omit<DiffOptions, 'lang'>) => {
      setExitCode(await runDiff(file, other, { ...options, lang }));
    }));
}
