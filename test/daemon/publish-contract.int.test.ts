import { describe, expect, it } from 'vitest';
import { until } from '../helpers/until.js';
import { shownView } from '../helpers/views.js';
import { daemonTests, hallwayState, injectFault } from './helpers.js';

/**
 * The publish contract: a display's cycle records its state in the display book and hands every
 * publisher the display's one view; nothing is pushed beside it and read back. Whether the answer on show is stale is
 * worked out once, when the frame is drawn, and every publisher shows that.
 */

const t = daemonTests({ broker: false });
const MIN = 60_000;
const HOUR = 60 * MIN;

const state = hallwayState;

describe('what a publisher is handed', () => {
  it('is the display’s view from the daemon’s views: the display book’s record with what the views add', async () => {
    const r = await t.rig();
    await r.daemon.start();
    expect(await r.paidRequests()).toBe(1);
    const handed = r.published.at(-1)!;
    const view = shownView(r.daemon.views, 'hallway');
    // The very record the views read (its times are the book's), not a copy made for the publishers.
    expect(handed.kind).toBe('shown');
    expect(handed.frame.hash).toBe(view.frame.hash);
    expect(handed.frameSince).toEqual(view.frameSince);
    expect(handed.updatedAt).toEqual(view.updatedAt);
    expect(handed.lastSuccessAt).toBe(view.lastSuccessAt);
    expect(handed.lastSuccessAt).toBe(handed.rec?.fetched_at);
    // Every field the publishers need is in it, with the view's rules applied (none hidden, none left out).
    expect(handed).toMatchObject({
      status: { kind: 'ok' },
      stale: false,
      staleSince: null,
      storeProblem: null,
      outputProblem: null,
      refreshRefused: null,
      lastError: null,
      panel: null,
    });
    expect(handed.nextUpdateAt?.getTime()).toBeGreaterThan(r.clock.now());
  });

  it('stale once, when the frame is drawn: the frame, the handed view, the views and state.json say the same', async () => {
    const r = await t.rig({ schedule: '{MM} {HH} * * *' });
    await r.daemon.start();
    expect(await r.paidRequests()).toBe(1);
    expect(r.published.at(-1)).toMatchObject({ stale: false, staleSince: null });

    // The next day's slot is refused for an hour (a 429): no new answer; 10 minutes after the slot it is stale.
    await injectFault(r, { kind: 'rate_limit', retry_after: 3600, count: 1, path: 'recweather' });
    r.clock.advance(24 * HOUR - MIN);
    r.clock.advance(MIN);
    await until('the next slot tried', async () => (await r.paidRequests()) === 2);
    r.clock.advance(10 * MIN + 1000);
    const handed = await until('the stale redraw handed to the publishers', () => {
      const last = r.published.at(-1)!;
      return Promise.resolve(last.stale ? last : null);
    });
    expect(handed.status.kind).toBe('stale');
    expect(handed.staleSince).toBeInstanceOf(Date);
    const view = shownView(r.daemon.views, 'hallway');
    expect([view.stale, view.staleSince, view.frame.hash]).toEqual([true, handed.staleSince, handed.frame.hash]);
    const json = await state(r);
    expect(json.stale).toBe(true);
    expect(Date.parse(String(json.stale_since))).toBe(handed.staleSince!.getTime());
  });
});
