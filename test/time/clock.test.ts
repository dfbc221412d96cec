import { describe, expect, it } from 'vitest';
import { sleep, systemClock } from '../../src/time/clock.js';
import { clockAt, FakeClock, manualClock } from '../helpers/fake-clock.js';

const HOUR = 3_600_000;
const T = Date.UTC(2027, 0, 11, 9);

describe('FakeClock', () => {
  it('runs due timers in order, each at its own time; a wall-clock step moves no timer', () => {
    const c = new FakeClock(T);
    const seen: Array<[string, number]> = [];
    c.setTimeout(() => seen.push(['b', c.monotonic()]), 200);
    c.setTimeout(() => {
      seen.push(['a', c.monotonic()]);
      c.setTimeout(() => seen.push(['c', c.monotonic()]), 50);
    }, 100);
    const gone = c.setTimeout(() => seen.push(['x', 0]), 120);
    c.clearTimeout(gone);
    c.setSystemTime(T - HOUR);
    c.advance(1000);
    expect(seen).toEqual([
      ['a', 100],
      ['c', 150],
      ['b', 200],
    ]);
    expect(c.now()).toBe(T - HOUR + 1000);
    expect(c.pendingTimers()).toBe(0);
  });

  it('stalls: time moves and no timer runs, as in a blocked event loop; the next advance runs what fell due', () => {
    const c = new FakeClock(T);
    let ran = 0;
    c.setTimeout(() => ran++, 1000);
    c.stall(5000);
    expect([ran, c.now(), c.msToNextTimer()]).toEqual([0, T + 5000, -4000]);
    c.advance(0);
    expect(ran).toBe(1);
  });

  it('counts the timers set through a view, not the others', () => {
    const c = new FakeClock(T);
    const view = c.view();
    c.setTimeout(() => undefined, 10);
    const h = view.setTimeout(() => undefined, 20);
    view.setTimeout(() => undefined, 30);
    expect([view.pending(), c.pendingTimers()]).toEqual([2, 3]);
    view.clearTimeout(h);
    c.advance(30);
    expect([view.pending(), c.pendingTimers(), view.now()]).toEqual([0, 0, T + 30]);
  });

  it('with sleepsPass, a sleep of hours passes at once, time moved to its end; a cleared timer never runs', async () => {
    const c = new FakeClock(T, { sleepsPass: true });
    const gone = c.setTimeout(() => expect.unreachable(), 60_000);
    c.clearTimeout(gone);
    await sleep(c, 6 * HOUR);
    expect(c.now()).toBe(T + 6 * HOUR);
    await Promise.all([sleep(c, HOUR), sleep(c, 2 * HOUR)]);
    expect(c.now()).toBe(T + 8 * HOUR);
  });
});

describe('manualClock', () => {
  it('is set and moved by the test, over the system timers', async () => {
    const c = manualClock(T);
    c.advance(HOUR);
    expect(c.now()).toBe(T + HOUR);
    c.set(T - HOUR);
    expect(c.now()).toBe(T - HOUR);
    await sleep(c, 5);
    expect(c.now()).toBe(T - HOUR);
  });
});

describe('sleep', () => {
  it('resolves once its time has passed on the clock, not before', async () => {
    const c = new FakeClock(T);
    let done = false;
    const p = sleep(c, 1000).then(() => (done = true));
    c.advance(999);
    await Promise.resolve();
    expect(done).toBe(false);
    c.advance(1);
    await p;
    expect(done).toBe(true);
    expect(c.now()).toBe(T + 1000);
  });

  it('is cut short by an abort, rejecting with the reason and leaving no timer', async () => {
    const c = new FakeClock(T);
    const ac = new AbortController();
    const p = sleep(c, 1000, ac.signal);
    ac.abort(new Error('stop'));
    await expect(p).rejects.toThrow('stop');
    expect(c.pendingTimers()).toBe(0);
  });

  it('never starts on a signal aborted already', async () => {
    const c = new FakeClock(T);
    await expect(sleep(c, 1000, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    expect(c.pendingTimers()).toBe(0);
  });

  it('waits real time on systemClock, counted by its monotonic clock', async () => {
    const start = systemClock.monotonic();
    await sleep(systemClock, 25);
    // Timers may fire up to a millisecond early by the monotonic clock's reading (they round to whole ms).
    expect(systemClock.monotonic() - start).toBeGreaterThanOrEqual(24);
  });
});

describe('clockAt', () => {
  it('reads the wall time the test sets and keeps the system timers and elapsed time', async () => {
    let t = T;
    const c = clockAt(() => t);
    expect(c.now()).toBe(T);
    t += HOUR;
    expect(c.now()).toBe(T + HOUR);
    const before = c.monotonic();
    await sleep(c, 5);
    expect(c.monotonic()).toBeGreaterThan(before);
    expect(c.now()).toBe(T + HOUR);
  });
});
