import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectError, ServiceError, TimeoutError } from '../../src/api/errors.js';
import type { FetchOutcome } from '../../src/budget/governor.js';
import { DisplayCycle } from '../../src/daemon/cycle.js';
import { drawInProcess, displayRenderOptions } from '../../src/render/display-frame.js';
import { LastGoodStore } from '../../src/store/last-good.js';
import { keeper, testViews } from '../helpers/views.js';
import { NORMAL } from '../fixtures/samples.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { display } from '../fixtures/display.js';
import { manualClock } from '../helpers/fake-clock.js';

/**
 * Fresh, or visibly not, at the cycle: whatever else is wrong, the frame is drawn with the
 * outfit's age once it is out of date by the schedule, and a failed purchase is worded by what failed, with the time
 * the next try will really come.
 */

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const HOUR = 3_600_000;

async function rig(o: { fetched: number; staleAfterMs: number; outcome: FetchOutcome; next: number }) {
  const dir = await mkdtemp(path.join(tmpdir(), 'stale-frame-'));
  dirs.push(dir);
  const hallway = display('hallway', { panel: 'waveshare-7in5-v2' });
  const clock = manualClock();
  const store = new LastGoodStore(dir);
  await store.save('hallway', { ...NORMAL, fetched_at: new Date(o.fetched).toISOString() });
  const out = keeper();
  const asked: (Date | null | undefined)[] = [];
  const render = displayRenderOptions(hallway, { timezone: 'UTC' });
  const side = testViews({ displays: [hallway], clock });
  const cycle = new DisplayCycle({
    display: hallway,
    render,
    store,
    fetch: () => Promise.resolve(o.outcome),
    publishers: [out],
    displayBook: side.displayBook,
    views: side.views,
    clock,
    // The scheduler's answer: the retry asked for when it comes before the next slot, else that slot.
    nextUpdateAt: (retryAt) => {
      asked.push(retryAt);
      return retryAt instanceof Date && retryAt.getTime() < o.next ? retryAt : new Date(o.next);
    },
    logger: capturingLogger().logger,
    purchaseIntervalMs: 60_000,
    staleFrom: (servedAt) => new Date(servedAt + o.staleAfterMs),
  });
  await cycle.restore({ publish: false });
  return { cycle, out, clock, render, asked };
}

describe('a failed purchase on the frame', () => {
  it('an outfit out of date and a 5xx: the frame carries both the age and the service error, with the retry time', async () => {
    const now = manualClock().now();
    const retryAt = new Date(now + 5 * 60_000);
    const err = new ServiceError('POST /recweather: HTTP 502: non-JSON error body (text/html): 502 Bad Gateway', {
      status: 502,
    });
    const r = await rig({
      fetched: now - 3 * HOUR,
      staleAfterMs: HOUR,
      outcome: { kind: 'failed', error: err, retryAt },
      next: now + HOUR,
    });
    const result = await r.cycle.run('schedule');
    expect(result.retryAt).toEqual(retryAt);
    const shown = r.out.updates.at(-1)!;
    expect(shown.stale).toBe(true);
    expect(shown.status).toMatchObject({ kind: 'service_error', problem: 'error', retryAt, message: err.message });
    expect(r.asked).toContainEqual(retryAt);
    // The frame on the wall is exactly the one drawn with the age badge, and not the one without.
    const state = { rec: shown.rec, status: shown.status, now: new Date(r.clock.now()) };
    expect(shown.frame.hash).toBe((await drawInProcess(r.render, { ...state, stale: true })).hash);
    expect(shown.frame.hash).not.toBe((await drawInProcess(r.render, { ...state, stale: false })).hash);
  });

  it('a current outfit and a refused connection: "unreachable", no age badge, the next slot when no retry comes before it', async () => {
    const now = manualClock().now();
    const next = now + 10 * 60_000;
    const r = await rig({
      fetched: now - 10 * 60_000,
      staleAfterMs: HOUR,
      outcome: {
        kind: 'failed',
        error: new ConnectError('connect ECONNREFUSED 127.0.0.1:9'),
        retryAt: new Date(now + 20 * 60_000),
      },
      next,
    });
    await r.cycle.run('schedule');
    const shown = r.out.updates.at(-1)!;
    expect(shown.stale).toBe(false);
    expect(shown.status).toMatchObject({ kind: 'unreachable', retryAt: new Date(next) });
  });

  it('no answer in time is the service failing, worded as such', async () => {
    const now = manualClock().now();
    const r = await rig({
      fetched: now,
      staleAfterMs: HOUR,
      outcome: { kind: 'failed', error: new TimeoutError('no answer within 30 s') },
      next: now + HOUR,
    });
    await r.cycle.run('schedule');
    expect(r.out.updates.at(-1)!.status).toMatchObject({
      kind: 'service_error',
      problem: 'no_answer',
      retryAt: new Date(now + HOUR),
    });
  });
});
