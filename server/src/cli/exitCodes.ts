/** The exit codes of every `agents-md` command: one table (docs/cli.md, "Exit codes"). */
export const EXIT = {
  OK: 0,
  /** lint: errors, or more warnings than --max-warnings allows; diff: a change matched --fail-on; run: `failure`; eval: a query did not give its expected outcome; trace: broken, or a replay that differs. */
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
