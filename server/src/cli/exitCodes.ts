import { type Lang } from '../service/index.ts';
import { format } from '../service/host.ts';
import './messages.ts';

/** The exit codes of every `agents-md` command: one table (docs/cli.md, "Exit codes"). */
export const EXIT = {
  OK: 0,
  /** lint: errors, or more warnings than --max-warnings allows; prove: a finding; diff: a change matched --fail-on; run: `failure`; eval: a query did not give its expected outcome; trace: broken, or a replay that differs. */
  FAILED: 1,
  /** Usage errors, unreadable inputs, invalid configuration, git failures, internal errors. */
  USAGE: 2,
  /** run: `fallback` (a FAILURE_PROTOCOL entry answered); trace verify: intact but incomplete. */
  PARTIAL: 3,
  /** run: cancelled (Ctrl+C). */
  CANCELLED: 130,
} as const;

/** The exit code of a run by its outcome status. */
export const RUN_EXIT = { success: EXIT.OK, failure: EXIT.FAILED, fallback: EXIT.PARTIAL, cancelled: EXIT.CANCELLED } as const;

/** Each command's exit codes with the message that says when it exits so: the "Exit codes" of its help. */
export const EXIT_HELP = {
  lint: [[EXIT.OK, 'cli.exit.lint.0'], [EXIT.FAILED, 'cli.exit.lint.1'], [EXIT.USAGE, 'cli.exit.lint.2']],
  report: [[EXIT.OK, 'cli.exit.report.0'], [EXIT.USAGE, 'cli.exit.report.2']],
  diff: [[EXIT.OK, 'cli.exit.diff.0'], [EXIT.FAILED, 'cli.exit.diff.1'], [EXIT.USAGE, 'cli.exit.diff.2']],
  run: [[EXIT.OK, 'cli.exit.run.0'], [EXIT.FAILED, 'cli.exit.run.1'], [EXIT.USAGE, 'cli.exit.run.2'], [EXIT.PARTIAL, 'cli.exit.run.3'], [EXIT.CANCELLED, 'cli.exit.run.130']],
  eval: [[EXIT.OK, 'cli.exit.eval.0'], [EXIT.FAILED, 'cli.exit.eval.1'], [EXIT.USAGE, 'cli.exit.eval.2']],
  traceVerify: [[EXIT.OK, 'cli.exit.trace-verify.0'], [EXIT.FAILED, 'cli.exit.trace-verify.1'], [EXIT.USAGE, 'cli.exit.trace-verify.2'], [EXIT.PARTIAL, 'cli.exit.trace-verify.3']],
  traceReplay: [[EXIT.OK, 'cli.exit.trace-replay.0'], [EXIT.FAILED, 'cli.exit.trace-replay.1'], [EXIT.USAGE, 'cli.exit.trace-replay.2']],
  prove: [[EXIT.OK, 'cli.exit.prove.0'], [EXIT.FAILED, 'cli.exit.prove.1'], [EXIT.USAGE, 'cli.exit.prove.2']],
  traceExport: [[EXIT.OK, 'cli.exit.trace-export.0'], [EXIT.FAILED, 'cli.exit.trace-export.1'], [EXIT.USAGE, 'cli.exit.trace-export.2']],
} as const satisfies Record<string, readonly (readonly [number, string])[]>;

/**
 * The help text after a command's options: a blank line, "Exit codes:", then one line per code,
 * the codes padded to one width and a message's further lines indented under its first.
 */
export function exitCodesHelp(command: keyof typeof EXIT_HELP, lang: Lang): string {
  const rows: readonly (readonly [number, string])[] = EXIT_HELP[command];
  const width = Math.max(...rows.map(([code]) => String(code).length));
  // A two-column layout (code, text), not a sentence: the text is one whole message.
  const indent = (text: string) => text.split('\n').join(`\n${' '.repeat(width + 4)}`);
  const lines = rows.map(([code, id]) => ['', String(code).padEnd(width), indent(format(id, {}, lang))].join('  '));
  return ['', format('cli.exit.title', {}, lang), ...lines].join('\n');
}
