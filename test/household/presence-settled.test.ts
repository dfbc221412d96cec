import { describe, expect, it } from 'vitest';
import { PresenceBook } from '../../src/household/presence-book.js';
import { FakeClock } from '../helpers/fake-clock.js';

/** The start's wait for retained presence (daemon.ts, PRESENCE_SETTLE_MS): as long as the people are unknown, at most. */
describe('PresenceBook.settled', () => {
  const book = (): { clock: FakeClock; b: PresenceBook } => {
    const clock = new FakeClock();
    return { clock, b: new PresenceBook({ personIds: ['anna', 'ben'], clock }) };
  };
  const state = (p: Promise<void>): { done: boolean } => {
    const s = { done: false };
    void p.then(() => (s.done = true));
    return s;
  };

  it('resolves when each of the people is known, home or away, and no sooner', async () => {
    const { clock, b } = book();
    const s = state(b.settled(['anna', 'ben'], 3_000));
    b.record('anna', 'not_home');
    await Promise.resolve();
    expect(s.done).toBe(false);
    b.record('ben', 'home');
    await expect.poll(() => s.done).toBe(true);
    // Its timer is cleared: nothing is left to run.
    expect(clock.msToNextTimer()).toBeNull();
  });

  it('resolves after its while with someone still unknown (no retained message): they count as at home', async () => {
    const { clock, b } = book();
    const s = state(b.settled(['anna', 'ben'], 3_000));
    b.record('anna', 'not_home');
    clock.advance(2_999);
    await Promise.resolve();
    expect(s.done).toBe(false);
    clock.advance(1);
    await expect.poll(() => s.done).toBe(true);
    expect(b.isHome('ben')).toBe(true);
  });

  it('resolves at once for nobody, or for people already known', async () => {
    const { clock, b } = book();
    // The clock stands still: a wait on a timer would never end.
    await expect(b.settled([], 3_000)).resolves.toBeUndefined();
    b.record('anna', 'home');
    await expect(b.settled(['anna'], 3_000)).resolves.toBeUndefined();
    expect(clock.msToNextTimer()).toBeNull();
  });
});
