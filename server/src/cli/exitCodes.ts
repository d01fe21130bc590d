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
