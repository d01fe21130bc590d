/**
 * The `agents-md` command line's own strings (docs/localisation.md): help texts, notes and errors, the text
 * format's summary line, SARIF texts, and commander's built-in texts that commander lets us
 * replace. Plain data; the CLI (server/src/cli/) formats them with `--lang`. Kept in the
 * service's l10n folder because the message registry lives there and the service may not
 * import the CLI.
 */
import { registerMessages } from './registry.ts';

export const CLI_MESSAGES = {
  'cli.description': 'Check AGENTS.md agent contracts: structure, schemas, cross-references.',
  'cli.option.version': 'print the version',
  'cli.option.help': 'show help',
  'cli.option.lang': 'display language: en or zh-cn (default: from LC_ALL, LC_MESSAGES or LANG)',
  'cli.command.help': 'show help for a command',
  'cli.helpAfterError': '(run "{tool} --help" for usage)',
  'cli.exitCodes':
    'Exit codes:\n  0  no errors, and no more warnings than --max-warnings allows\n  1  errors found, or more warnings than --max-warnings allows\n  2  usage error (unknown option, bad value), a path that cannot be read or\n     matches no file, an invalid configuration file, or an internal error',
  'cli.lint.description':
    "Lint contract files. Directories are searched with the configuration's contracts.include globs (default **/AGENTS.md and **/*.agents.md, without node_modules and .git); files named explicitly are linted whatever their name; globs are expanded. Without paths, lints the current directory.",
  'cli.lint.paths': 'files, directories or glob patterns (default: .)',
  'cli.option.format': 'output format',
  'cli.option.root': 'workspace root: where configuration lookup stops, cross-file references and resources are resolved, SARIF paths are relative to (default: the current directory)',
  'cli.option.maxWarnings': 'exit 1 when more than n warnings are found (info and hints do not count)',
  'cli.option.quiet': 'report errors only',
  'cli.option.fix': 'apply the safe fixes (docs/rules.md, "Fixes"), write the files and report what is left',
  'cli.fix.summary': '{file}: fixed {count, plural, one {# problem} other {# problems}} ({codes})',
  'cli.option.color': 'force coloured text output',
  'cli.option.noColor': 'disable coloured text output (also: NO_COLOR=1, or output not to a terminal)',
  'cli.rules.description': 'List the rules: code, default severity and summary.',

  'cli.usage.program': '[options] [command]',
  'cli.usage.lint': '[options] [paths...]',
  'cli.report.description':
    'Report on every contract of the workspace: the compliance coverage matrix, the pool and resource sharing graph, versions and last audit rows, the dry-run coverage of snapshot queries and the cross-contract findings (docs/workspace.md). Paths are found as `lint` finds them; snapshots are searched under the root.',
  'cli.report.exitCodes': 'Exit codes:\n  0  the report was written\n  2  usage error, a path that cannot be read or matches no file, an invalid configuration\n     file, an output file that cannot be written, or an internal error',
  'cli.option.output': 'write the report to this file instead of standard output',
  'cli.report.written': 'Wrote {file}',
  'cli.error.cannotWrite': 'Cannot write {file}: {error}',
  'cli.usage.rules': '[options]',
  'cli.help.usage': 'Usage:',
  'cli.help.arguments': 'Arguments:',
  'cli.help.options': 'Options:',
  'cli.help.commands': 'Commands:',
  'cli.help.choicesDefault': '{description} (choices: {choices}, default: {default})',
  'cli.help.default': '{description} (default: {default})',

  'cli.error.unknownOption': "error: unknown option '{option}'",
  'cli.error.unknownOptionSuggest': "error: unknown option '{option}'\n(Did you mean {suggestion}?)",
  'cli.error.unknownCommand': "error: unknown command '{command}'",
  'cli.error.unknownCommandSuggest': "error: unknown command '{command}'\n(Did you mean {suggestion}?)",
  'cli.error.invalidChoice': "error: option '{option}' argument '{value}' is invalid. Allowed choices are {choices}.",
  'cli.error.invalidArgument': "error: option '{option}' argument '{value}' is invalid. {reason}",
  'cli.error.optionMissingArgument': "error: option '{option}' argument missing",
  'cli.error.missingArgument': "error: missing required argument '{argument}'",
  'cli.error.requiredOption': "error: required option '{option}' not specified",
  'cli.error.conflictingOption': "error: option '{option}' cannot be used with option '{conflicting}'",
  'cli.error.tooManyArguments': 'error: too many arguments. Expected {expected, plural, one {# argument} other {# arguments}} but got {received}.',
  'cli.error.tooManyArgumentsFor': "error: too many arguments for '{command}'. Expected {expected, plural, one {# argument} other {# arguments}} but got {received}.",
  'cli.error.notCount': 'Expected a non-negative integer.',
  'cli.error.unknownLang': 'unknown language "{lang}" for --lang: use en or zh-cn',
  'cli.error.rootNotDirectory': '--root {root}: not a directory',
  'cli.error.internal': 'internal error: {detail}',
  'cli.error.tooManyWarnings': '{count, plural, one {# warning} other {# warnings}} found, more than --max-warnings {max} allows',

  'cli.fileProblem': '{file}: {problem}',
  'cli.files.noContracts': '{arg}: no contract files found (looked for {globs})',
  'cli.files.noMatch': '{arg}: no files match this pattern',
  'cli.files.missing': '{arg}: no such file or directory',
  'cli.files.unreadable': '{arg}: cannot be read ({error})',
  'cli.files.notRegular': '{arg}: cannot be read (not a regular file or directory)',
  'cli.files.outside': '{arg}: not read (a link to a file outside the workspace root; docs/robustness.md)',

  'cli.summary.clean': '✔ no problems in {files, plural, one {# file} other {# files}}',
  'cli.summary.problems':
    '✖ {problems, plural, one {# problem} other {# problems}} ({errors, plural, one {# error} other {# errors}}, {warnings, plural, one {# warning} other {# warnings}}{infos, plural, =0 {} other {, # info}}{hints, plural, =0 {} one {, # hint} other {, # hints}}) in {files, plural, one {# file} other {# files}}',

  'cli.sarif.fullDescription': '{summary} {description}',
  'cli.sarif.helpText': '{description}\n\nSource: {source}. Documentation: {uri}',
  'cli.sarif.helpMarkdown': '{description}\n\nSource: {source}.\n\n[Rule documentation]({uri})',
} as const;

registerMessages('cli', CLI_MESSAGES);
