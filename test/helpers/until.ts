import { expect, vi } from 'vitest';

export interface UntilOptions {
  /** How long to wait in all (default 20 s). */
  timeoutMs?: number;
  /** How often to ask again (default 100 ms). */
  everyMs?: number;
  /** More to say when it times out (the daemon's output, say). */
  context?: () => string;
}

/**
 * `vi.waitFor` for a check that gives a value: resolves with the first value that is not undefined, null or false,
 * and when time runs out fails naming `what` it waited for.
 */
export async function until<T>(
  what: string,
  fn: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  opts: UntilOptions = {},
): Promise<T> {
  const value = await vi.waitFor(
    async () => {
      const v = await fn();
      if (v === undefined || v === null || v === false) {
        throw new Error(
          `timed out after ${opts.timeoutMs ?? 20_000} ms waiting for ${what}${opts.context ? `\n${opts.context()}` : ''}`,
        );
      }
      return v;
    },
    { timeout: opts.timeoutMs ?? 20_000, interval: opts.everyMs ?? 100 },
  );
  // Counted as an assertion: a test that waits for a sign and nothing more still asserts that the sign came.
  expect([undefined, null, false], what).not.toContain(value);
  return value;
}
