import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/time/backoff-delay.js';

/** The one backoff rule: counted from the first failure, doubling up to the bound, jitter only with a random source. */
describe('backoffDelay', () => {
  const policy = { baseMs: 1000, maxMs: 10_000 };

  it('waits the base after the first failure and doubles per failure up to the bound, without jitter by default', () => {
    expect([1, 2, 3, 4, 5, 6, 100, 5000].map((n) => backoffDelay(n, policy))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000, 10_000, 10_000,
    ]);
  });

  it('with a random source, waits between half the step and all of it', () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(2000);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(3000);
    expect(backoffDelay(3, policy, () => 1)).toBe(4000);
    // A source out of [0, 1] is held to it.
    expect(backoffDelay(3, policy, () => -3)).toBe(2000);
    expect(backoffDelay(3, policy, () => 7)).toBe(4000);
  });

  it('takes no failures yet as the first', () => {
    expect(backoffDelay(0, policy)).toBe(1000);
  });
});
