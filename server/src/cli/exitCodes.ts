/** Exit codes of `agents-md` (docs/cli.md, "Exit codes"). */
export const EXIT = {
  OK: 0,
  /** lint: errors, or more warnings than --max-warnings allows. */
  LINT_FAILED: 1,
  /** diff: a change matched --fail-on. */
  DIFF_GATED: 1,
  /** Usage errors, unreadable inputs, invalid configuration, git failures, internal errors. */
  USAGE: 2,
} as const;

export const EXIT_CODES_HELP = `
Exit codes:
  0  no errors, and no more warnings than --max-warnings allows
  1  errors found, or more warnings than --max-warnings allows
  2  usage error (unknown option, bad value), a path that cannot be read or
     matches no file, an invalid configuration file, or an internal error`;
