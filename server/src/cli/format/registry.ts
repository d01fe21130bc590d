/**
 * The CLI's output formats (docs/cli.md, "Output formats"): one list of names, one formatter
 * signature, and the `-f, --format` option every command builds from the formatters it has,
 * with `--json` as the alias of `-f json` wherever JSON is one of them.
 */
import { type Command, Option } from 'commander';
import { type Lang } from '../../service/index.ts';
import { format } from '../../service/host.ts';
import '../messages.ts';

export const OUTPUT_FORMATS = ['text', 'json', 'sarif', 'junit', 'markdown', 'html', 'codequality', 'github'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** What a formatter may use besides the command's result. */
export interface FormatContext {
  /** Paths are shown relative to it. */
  readonly cwd: string;
  readonly lang: Lang;
  /** Colours on (text only). */
  readonly color: boolean;
}

/** One formatter: a command's result and the context → the text written to standard output. */
export type Formatter<R> = (result: R, context: FormatContext) => string;

/** The formats one command offers, by name; every command has `text`. */
export type Formatters<R> = { readonly text: Formatter<R> } & { readonly [F in Exclude<OutputFormat, 'text'>]?: Formatter<R> };

/** The options a command with formats receives. */
export interface FormatOptions {
  readonly format: OutputFormat;
  readonly json?: boolean;
}

/** The names of the formats a command offers, in the registry's order. */
export function formatNames(formatters: Formatters<never>): OutputFormat[] {
  return OUTPUT_FORMATS.filter((f) => formatters[f] !== undefined);
}

/**
 * Adds `-f, --format <format>` (the command's formats as choices, `text` by default) and, where
 * JSON is one of them, `--json`: the same as `-f json`, refused beside another `-f`.
 */
export function withFormatOptions(command: Command, formatters: Formatters<never>, lang: Lang): Command {
  const names = formatNames(formatters);
  command.addOption(new Option('-f, --format <format>', format('cli.option.format', {}, lang)).choices(names).default('text'));
  if (names.includes('json')) command.addOption(new Option('--json', format('cli.option.json', {}, lang)).conflicts('format'));
  return command;
}

/** The format asked for: `--json` is `-f json`. */
export function chosenFormat(options: FormatOptions): OutputFormat {
  return options.json ? 'json' : options.format;
}

/** The output of `result` in the format asked for (one the command offers: commander checked the choice). */
export function render<R>(formatters: Formatters<R>, options: FormatOptions, result: R, context: FormatContext): string {
  const name = chosenFormat(options);
  const formatter = formatters[name];
  if (!formatter) throw new Error(`no ${name} formatter`);
  return formatter(result, context);
}
