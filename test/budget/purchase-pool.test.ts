import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/api/errors.js';
import type { FetchOutcome } from '../../src/budget/governor-types.js';
import { PurchasePool, SHARE_WINDOW_MS, purchaseKey, type PurchaseRequest } from '../../src/budget/purchase-pool.js';
import { rec } from '../fixtures/rec.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { sleep } from '../../src/time/clock.js';

/** One purchase per distinct request: in flight awaited, a recent one handed out again, on a fake clock. */

const ANNA: PurchaseRequest = { lat: 52.52, lon: 13.405, unit: 'metric', gender: 'female', endpoint: 'recweather' };
const BEN: PurchaseRequest = { ...ANNA, gender: 'male' };

function counting(clock: FakeClock, delayMs = 0): { buy: () => Promise<FetchOutcome>; count: () => number } {
  let n = 0;
  return {
    buy: async () => {
      n++;
      if (delayMs > 0) await sleep(clock, delayMs);
      return { kind: 'fresh', rec: rec({ outfit: `Answer ${n}.`, fetchedAt: null }) };
    },
    count: () => n,
  };
}

describe('PurchasePool', () => {
  it('two identical requests at once: one purchase, the second awaits it and shares its answer', async () => {
    const clock = new FakeClock(Date.UTC(2027, 0, 11, 9));
    const pool = new PurchasePool({ clock });
    const seller = counting(clock, 2_000);
    const both = Promise.all([pool.buy(ANNA, 'schedule', seller.buy), pool.buy({ ...ANNA }, 'schedule', seller.buy)]);
    clock.advance(2_000);
    const [a, b] = await both;
    expect(seller.count()).toBe(1);
    expect(a.shared).toBe(false);
    expect(b.shared).toBe(true);
    expect(a.outcome).toEqual(b.outcome);
  });

  it('an answer bought before a restart, remembered: handed out within the window from its purchase, the newest kept', async () => {
    const clock = new FakeClock(Date.UTC(2027, 0, 11, 9));
    const pool = new PurchasePool({ clock });
    const seller = counting(clock);
    const older = rec({ outfit: 'Older.', fetchedAt: null });
    const newer = rec({ outfit: 'Newer.', fetchedAt: null });
    pool.remember(ANNA, newer, clock.now() - 60_000);
    pool.remember(ANNA, older, clock.now() - 120_000);
    // One from beyond the window, or dated ahead of the clock, is not handed out.
    pool.remember(BEN, older, clock.now() - SHARE_WINDOW_MS);
    pool.remember({ ...BEN, unit: 'imperial' }, older, clock.now() + 1_000);
    const got = await pool.buy(ANNA, 'schedule', seller.buy);
    expect(got).toEqual({ outcome: { kind: 'fresh', rec: newer }, boughtAt: clock.now() - 60_000, shared: true });
    await pool.buy(BEN, 'schedule', seller.buy);
    await pool.buy({ ...BEN, unit: 'imperial' }, 'schedule', seller.buy);
    expect(seller.count()).toBe(2);
    // The window counts from the purchase, not from remember(): it ends a minute earlier.
    clock.advance(SHARE_WINDOW_MS - 60_000);
    await pool.buy(ANNA, 'schedule', seller.buy);
    expect(seller.count()).toBe(3);
  });

  it('a different gender is a different request: bought apart', async () => {
    const clock = new FakeClock(Date.UTC(2027, 0, 11, 9));
    const pool = new PurchasePool({ clock });
    const seller = counting(clock);
    await pool.buy(ANNA, 'schedule', seller.buy);
    await pool.buy(BEN, 'schedule', seller.buy);
    expect(seller.count()).toBe(2);
    expect(purchaseKey(ANNA)).not.toBe(purchaseKey(BEN));
  });

  it('an answer bought within the window is handed out again without spending; after it, bought anew', async () => {
    const clock = new FakeClock(Date.UTC(2027, 0, 11, 9));
    const pool = new PurchasePool({ clock });
    const seller = counting(clock);
    const first = await pool.buy(ANNA, 'schedule', seller.buy);
    clock.advance(SHARE_WINDOW_MS - 1_000);
    const again = await pool.buy(ANNA, 'schedule', seller.buy);
    expect(seller.count()).toBe(1);
    expect(again).toMatchObject({ shared: true, boughtAt: first.boughtAt });
    clock.advance(1_000);
    const later = await pool.buy(ANNA, 'schedule', seller.buy);
    expect(seller.count()).toBe(2);
    expect(later.shared).toBe(false);
    expect(later.boughtAt).toBe(clock.now());
  });

  it('a refresh asks for a new answer: a recent purchase is not handed to it', async () => {
    const clock = new FakeClock(Date.UTC(2027, 0, 11, 9));
    const pool = new PurchasePool({ clock });
    const seller = counting(clock);
    await pool.buy(ANNA, 'schedule', seller.buy);
    const pressed = await pool.buy(ANNA, 'refresh', seller.buy);
    expect(seller.count()).toBe(2);
    expect(pressed.shared).toBe(false);
  });

  it('a purchase in flight that failed is not handed on: the waiter buys for itself', async () => {
    const clock = new FakeClock(Date.UTC(2027, 0, 11, 9));
    const pool = new PurchasePool({ clock });
    let calls = 0;
    const failing = async (): Promise<FetchOutcome> => {
      calls++;
      await sleep(clock, 1_000);
      return { kind: 'failed', error: new ServiceError('boom', { status: 500 }) };
    };
    const ok = counting(clock);
    const first = pool.buy(ANNA, 'schedule', failing);
    const second = pool.buy(ANNA, 'schedule', ok.buy);
    clock.advance(1_000);
    expect((await first).outcome.kind).toBe('failed');
    const got = await second;
    expect(calls).toBe(1);
    expect(ok.count()).toBe(1);
    expect(got).toMatchObject({ shared: false, outcome: { kind: 'fresh' } });
  });
});
