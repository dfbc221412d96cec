import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import {
  BadResponseError,
  ConnectError,
  NetworkError,
  RateLimitedError,
  ServiceError,
  TimeoutError,
  type ApiError,
} from '../../src/api/errors.js';
import { LEDGER_FILE } from '../../src/budget/ledger.js';
import { berlin } from './helpers.js';
import { one, rig, START } from './governor-rig.js';

const sentFaults: Array<[string, () => ApiError, 'charged' | 'unknown']> = [
  ['a 500', () => new ServiceError('500', { status: 500 }), 'unknown'],
  ['a response timeout', () => new TimeoutError('no answer within 60000 ms (UND_ERR_HEADERS_TIMEOUT)'), 'unknown'],
  ['a reset after sending', () => new NetworkError('ECONNRESET'), 'unknown'],
  ['a 200 whose body is not JSON', () => new BadResponseError('not JSON', null, { status: 200 }), 'charged'],
  ['a 200 that lacks outfit', () => new BadResponseError('outfit missing', 'outfit', { status: 200 }), 'charged'],
];

describe('Paying once: a request that was sent is never bought again in the cycle', () => {
  it.each(sentFaults)(
    '%s: one request, counted, the next try after the failure backoff',
    async (_name, fault, result) => {
      const r = await rig({}, [fault(), fault(), fault()]);
      expect(await one(r)).toMatchObject({ kind: 'failed' });
      expect(r.fake.calls).toHaveLength(1);
      const s = r.governor.status();
      expect(s.spentToday).toBe(3);
      expect(result === 'charged' ? s.chargedToday : s.unknownToday).toBe(3);
      expect(await one(r)).toMatchObject({ kind: 'deferred' });
      expect(r.fake.calls).toHaveLength(1);
      r.clock.advance(60_000); // the first failure backoff: 30-60 s
      expect(await one(r)).toMatchObject({ kind: 'failed' });
      expect(r.fake.calls).toHaveLength(2);
    },
  );

  it('a request that never reached the service (connection refused, DNS, connect timeout) is sent again at once and costs nothing', async () => {
    const r = await rig({}, [new ConnectError('ECONNREFUSED'), new ConnectError('UND_ERR_CONNECT_TIMEOUT')]);
    expect((await one(r)).kind).toBe('fresh');
    expect(r.fake.calls).toHaveLength(3);
    expect(r.governor.status()).toMatchObject({ spentToday: 3, chargedToday: 3, unknownToday: 0, refusedToday: 0 });
  });

  it('three connect failures: the cycle fails, nothing counted, the next cycle waits for the backoff', async () => {
    const r = await rig({}, [new ConnectError('a'), new ConnectError('b'), new ConnectError('c')]);
    expect(await one(r)).toMatchObject({ kind: 'failed', error: { code: 'E_CONNECT' } });
    expect(r.fake.calls).toHaveLength(3);
    expect(r.governor.status().spentToday).toBe(0);
    expect(await one(r)).toMatchObject({ kind: 'deferred' });
  });
});

describe('Paying once: the honest ledger', () => {
  it('records each paid request as charged, refused or unknown, on disk and in the status', async () => {
    const r = await rig({}, [new RateLimitedError('429', 2_000, { status: 429 })]);
    expect((await one(r)).kind).toBe('fresh');
    r.clock.advance(3_600_000);
    r.fake.script.push(new ServiceError('502', { status: 502 }));
    expect((await one(r)).kind).toBe('failed');
    expect(r.governor.status()).toMatchObject({ spentToday: 6, chargedToday: 3, unknownToday: 3, refusedToday: 1 });
    await r.governor.flush();
    expect(await r.ledger()).toMatchObject({
      version: 2,
      day_spent: 6,
      day_charged: 3,
      day_unknown: 3,
      day_refused: 1,
      month_unknown: 3,
    });
  });

  it('reads a version-1 ledger: its spending counts as unknown, its 402 as an empty account asked again at once', async () => {
    const r0 = await rig();
    const v1 = {
      version: 1,
      timezone: 'Europe/Berlin',
      day: '2027-01-11',
      day_spent: 12,
      day_refresh_spent: 0,
      month: '2027-01',
      month_spent: 40,
      high_water: START - 60_000,
      untrusted_carry: 0,
      exhausted_period: 'day:2027-01-11',
      rate_blocked_until: null,
      updated_at: '',
    };
    await writeFile(path.join(r0.dir, LEDGER_FILE), JSON.stringify(v1));
    const r = await rig({}, [], { dir: r0.dir, clock: r0.clock });
    expect(r.governor.status()).toMatchObject({
      spentToday: 12,
      unknownToday: 12,
      spentMonth: 40,
      creditsOut: { since: new Date(START - 60_000) },
    });
    expect((await one(r)).kind).toBe('fresh');
    expect(r.governor.status()).toMatchObject({ spentToday: 15, chargedToday: 3, creditsOut: null });
  });
});

describe('Paying once: rate window and Retry-After', () => {
  it('the rate window survives a restart (primed from the ledger)', async () => {
    const raw = { budget: { credits_per_day: 200, rate_limit_per_minute: 2 } }; // 1 request a minute after the margin
    const r = await rig(raw);
    expect((await one(r)).kind).toBe('fresh');
    r.clock.advance(10_000);
    const again = await rig(raw, [], { dir: r.dir, clock: r.clock });
    expect((await one(again)).kind).toBe('fresh');
    expect(again.fake.calls[0]!.wall).toBeGreaterThanOrEqual(START + 60_000);
  });

  it.each([0, -5])('Retry-After: %i waits at least one second', async (seconds) => {
    const r = await rig({}, [new RateLimitedError('429', seconds * 1000, { status: 429 })]);
    expect((await one(r)).kind).toBe('fresh');
    const [a, b] = r.fake.calls;
    expect(b!.mono - a!.mono).toBeGreaterThanOrEqual(1_000);
  });
});

describe('Paying once: catch-up ticks, clock warnings', () => {
  it('W_CLOCK_UNTRUSTED is logged once per change, not on every tick', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (s: string) => void lines.push(s) });
    const r = await rig({}, [], { logger });
    expect((await one(r)).kind).toBe('fresh');
    r.clock.setSystemTime(berlin('2027-01-11T08:00:00')); // stepped back two hours
    for (let i = 0; i < 5; i++) {
      r.clock.advance(60_000);
      r.governor.status();
      await one(r);
    }
    const warned = lines.filter((l) => l.includes('W_CLOCK_UNTRUSTED'));
    expect(warned).toHaveLength(1);
  });
});
