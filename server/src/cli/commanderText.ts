/**
 * Commander's own texts in the CLI's language (docs/localisation.md), where commander lets them be replaced:
 * help section titles, option details and command terms through `configureHelp` (usage lines
 * through each command's `.usage()`), widths through string-width
 * (so Chinese help text wraps by display width), and error messages through `configureOutput`.
 * Commander builds its errors as English sentences with no id; the patterns below recognise the
 * ones a user meets and give our whole message instead. Anything unrecognised is
 * shown as commander wrote it.
 */
import type { Command, Help, Option } from 'commander';
import { format, displayWidth, wrapDisplay } from '../service/host.ts';
import './messages.ts';

const TITLES: Readonly<Record<string, string>> = { 'Usage:': 'cli.help.usage', 'Arguments:': 'cli.help.arguments', 'Options:': 'cli.help.options', 'Commands:': 'cli.help.commands' };

/** Help configuration for `program.configureHelp()` in `lang`. */
export function localisedHelp(lang: string): Partial<Help> {
  return {
    styleTitle: (title: string) => (TITLES[title] ? format(TITLES[title], {}, lang) : title),
    optionDescription(option: Option): string {
      const description = option.description;
      const choices = option.argChoices?.map((c) => JSON.stringify(c)).join(', ');
      const shown = option.defaultValue !== undefined && (option.required || option.optional);
      const dflt = shown ? (option.defaultValueDescription ?? JSON.stringify(option.defaultValue)) : undefined;
      if (choices && dflt) return format('cli.help.choicesDefault', { description, choices, default: dflt }, lang);
      if (dflt) return format('cli.help.default', { description, default: dflt }, lang);
      return description;
    },
    // A command's term in the Commands list: its name and its (localised) usage, not commander's English `[options]`.
    subcommandTerm: (cmd: Command) => `${cmd.name()} ${cmd.usage()}`.trimEnd(),
    displayWidth: (s: string) => displayWidth(s),
    // Commander wraps at spaces only; Chinese text has none between words.
    boxWrap(this: Help, str: string, width: number): string {
      return width < this.minWidthToWrap ? str : wrapDisplay(str, width);
    },
  };
}

/** [pattern of commander's English error, message id, names of the captured groups]. */
const ERRORS: readonly [RegExp, string, readonly string[]][] = [
  [/^error: unknown option '(.+?)'\n\(Did you mean (.+?)\?\)$/s, 'cli.error.unknownOptionSuggest', ['option', 'suggestion']],
  [/^error: unknown option '(.+?)'$/s, 'cli.error.unknownOption', ['option']],
  [/^error: unknown command '(.+?)'\n\(Did you mean (.+?)\?\)$/s, 'cli.error.unknownCommandSuggest', ['command', 'suggestion']],
  [/^error: unknown command '(.+?)'$/s, 'cli.error.unknownCommand', ['command']],
  [/^error: option '(.+?)' argument '(.*?)' is invalid\. Allowed choices are (.+)\.$/s, 'cli.error.invalidChoice', ['option', 'value', 'choices']],
  [/^error: option '(.+?)' argument '(.*?)' is invalid\. (.+)$/s, 'cli.error.invalidArgument', ['option', 'value', 'reason']],
  [/^error: option '(.+?)' argument missing$/s, 'cli.error.optionMissingArgument', ['option']],
  [/^error: missing required argument '(.+?)'$/s, 'cli.error.missingArgument', ['argument']],
  [/^error: required option '(.+?)' not specified$/s, 'cli.error.requiredOption', ['option']],
  [/^error: option '(.+?)' cannot be used with option '(.+?)'$/s, 'cli.error.conflictingOption', ['option', 'conflicting']],
  [/^error: too many arguments for '(.+?)'\. Expected (\d+) arguments? but got (\d+)\.$/s, 'cli.error.tooManyArgumentsFor', ['command', 'expected', 'received']],
  [/^error: too many arguments\. Expected (\d+) arguments? but got (\d+)\.$/s, 'cli.error.tooManyArguments', ['expected', 'received']],
];

/** A commander error message (without its trailing newline) in `lang`. */
export function localisedCommanderError(message: string, lang: string): string {
  for (const [re, id, names] of ERRORS) {
    const m = re.exec(message);
    if (m) return format(id, Object.fromEntries(names.map((n, i) => [n, /^\d+$/.test(m[i + 1]!) ? Number(m[i + 1]) : m[i + 1]!])), lang);
  }
  return message;
}

/** Applies the localised help and error output to a command and (commander copies them) its subcommands. */
export function localiseCommander(command: Command, lang: string): Command {
  return command.configureHelp(localisedHelp(lang)).configureOutput({
    outputError: (text, write) => write(`${localisedCommanderError(text.replace(/\n$/, ''), lang)}\n`),
  });
}
