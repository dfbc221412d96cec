/**
 * The CLI's exit codes, listed in docs/reference/commands.md and docs/reference/errors.md: scripts and systemd rely on
 * them, so they never change.
 */
export const EXIT = {
  OK: 0,
  /** The job failed (a cycle, a publisher, a plan over budget). */
  FAILURE: 1,
  /** Bad usage or a bad config. */
  USAGE: 2,
  /** The service rejected the API key (401/403). */
  KEY_REJECTED: 3,
  /** The credit budget is used up. */
  BUDGET_EXHAUSTED: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
