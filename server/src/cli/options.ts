/**
 * The options several commands share, declared once with their help texts (docs/cli.md; the
 * output format is in format/registry.ts): colours, the model endpoint to trust, and "run `agents-md <command> --help`" after a
 * usage error.
 */
import { type Command } from 'commander';
import { type Lang } from '../service/index.ts';
import { format } from '../service/host.ts';
import './messages.ts';

/** The `--color` / `--no-color` options, worded as `lint`'s. */
export function withColorOptions(command: Command, lang: Lang): Command {
  return command.option('--color', format('cli.option.color', {}, lang)).option('--no-color', format('cli.option.noColor', {}, lang));
}

/** The model options of `run` and `eval`: `--trust-endpoint <url>` (repeatable) and `--scripted`. */
export function withTrustOption(command: Command, lang: Lang): Command {
  return command
    .option('--trust-endpoint <url>', format('cli.help.run.trust-endpoint', {}, lang), (v: string, all: string[] = []) => [...all, v])
    .option('--scripted', format('cli.help.run.scripted', {}, lang));
}
