import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLedger } from '../../src/budget/ledger-file.js';
import { until } from '../helpers/until.js';
import { daemonTests, hallwayState, injectFault, linesWithCode, type DaemonRig } from './helpers.js';

/**
 * An answer bought is used once, whatever its size, and a failure's wait outlives the process. A whole daemon on a
 * fake clock against the simulated service over real HTTP, stopped and started again on one folder: the service
 * answers the same way to every request, so every purchase the daemon makes is counted.
 */

const t = daemonTests({ broker: false });
const MIN = 60_000;
const MB = 1_000_000;

async function ledgerOf(r: DaemonRig): Promise<{ charged: number; unknown: number }> {
  const l = await readLedger(path.join(r.dir, 'state', 'budget-ledger.json'));
  if (l.kind !== 'ok') throw new Error(`the ledger: ${l.kind}`);
  return { charged: l.state.dayCharged, unknown: l.state.dayUnknown };
}

describe('an answer of 1, 2, 20 and 200 MB, sent for every request: one purchase each, across a restart', () => {
  it.each([1, 2, 20, 200])('%i MB', async (mb) => {
    // A field beyond the spec full of numbers, as the service may add: legal, and kept only within its limits.
    const fault = {
      kind: 'large_field',
      path: 'recweather',
      field: 'samples',
      bytes: mb * MB,
      fill: 'numbers',
      count: 1000,
    };
    const usable = mb * MB < 32 * 1024 * 1024;
    const r = await t.rig({ schedule: '{MM} {HH} * * *' });
    await injectFault(r, fault);
    await r.daemon.start();
    expect(await r.paidRequests()).toBe(1);
    const st = await until('the purchase on show', async () => {
      const s = await hallwayState(r);
      return s.status !== 'none' && (usable ? typeof s.outfit === 'string' : s.status === 'service_error') ? s : null;
    });
    // Paid for, as the docs say of a 2xx: charged, not unknown.
    expect(await ledgerOf(r)).toEqual({ charged: 3, unknown: 0 });
    if (usable) {
      expect(st.status).toBe('ok');
      expect(linesWithCode(r.logText(), 'W_RESPONSE_TRIMMED').length).toBeGreaterThan(0);
    } else {
      // The frame says what happened, and the next try is the next slot (a day away), not a retry of this one.
      expect(st.outfit).toBeUndefined();
      expect((st.last_error as { code: string }).code).toBe('E_BAD_RESPONSE');
      expect(String(st.status_detail)).toMatch(/over 32 MiB/);
      expect(Date.parse(String(st.next_update_at)) - r.clock.now()).toBeGreaterThan(23 * 60 * MIN);
      // Half an hour of the same slot: the backoff ends within it, and nothing more is bought.
      for (let i = 0; i < 30; i++) r.clock.advance(MIN);
      await until('the cycle to have settled', async () => (await hallwayState(r)).status === 'service_error');
      expect(await r.paidRequests()).toBe(1);
    }
    await r.stop();

    const again = await t.rig({ dir: r.dir, schedule: r.schedule, at: r.clock.now() + MIN });
    await injectFault(again, fault);
    await again.daemon.start();
    const shown = await until('the start’s frame', async () => {
      const s = await hallwayState(again);
      return s.status !== 'none' ? s : null;
    });
    expect(await again.paidRequests()).toBe(0);
    if (usable) {
      expect(shown.outfit).toBe(st.outfit);
    } else {
      // The start says what the last purchase got, as the process before it did.
      expect(shown.status).toBe('service_error');
      expect((shown.last_error as { message: string }).message).toContain('not bought again');
    }
    await again.stop();
  });
});

describe('a failure’s backoff outlives the process', () => {
  it('the service answering 500: six restarts within the backoff buy nothing; the wait ends on time', async () => {
    const r = await t.rig({ schedule: '*/10 * * * *' });
    await injectFault(r, { kind: 'status', status: 500, path: 'recweather', count: 1000 });
    await r.daemon.start();
    expect(await r.paidRequests()).toBe(1);
    await until('the failure on show', async () => (await hallwayState(r)).status === 'service_error');
    await r.stop();
    let dir = r.dir;
    let at = r.clock.now();
    let last: DaemonRig = r;
    for (let i = 0; i < 6; i++) {
      at += 4_000;
      const again = await t.rig({ dir, at });
      await injectFault(again, { kind: 'status', status: 500, path: 'recweather', count: 1000 });
      await again.daemon.start();
      // The positive sign: the start's catch-up was deferred by the backoff it read back.
      await until('the start’s deferral', () =>
        Promise.resolve(/backing off after failed requests/.test(again.logText())),
      );
      expect(await again.paidRequests()).toBe(0);
      await again.stop();
      dir = again.dir;
      last = again;
    }
    // The last start waits out what is left of the wait (at most a minute after the failure), then tries again.
    const final = await t.rig({ dir, at: at + 1_000 });
    await final.daemon.start();
    expect(await final.paidRequests()).toBe(0);
    final.clock.advance(MIN);
    await until('the slot tried again after the backoff', async () => (await final.paidRequests()) === 1);
    await until('its answer on show', async () => typeof (await hallwayState(final)).outfit === 'string');
    expect(last.dir).toBe(final.dir);
  });

  it('a paid request a crash cut off counts as a failure: the start waits instead of buying again', async () => {
    // What a kill -9 mid-request leaves: the write-ahead charge with the request in flight. The process that wrote it
    // is gone without a word, as after a kill.
    const r = await t.rig({ schedule: '*/10 * * * *' });
    await injectFault(r, { kind: 'slow', delay_ms: 3_600_000, path: 'recweather', count: 1 });
    void r.daemon.start();
    await until('the write-ahead charge with the request in flight', async () => {
      const l = await readLedger(path.join(r.dir, 'state', 'budget-ledger.json'));
      return l.kind === 'ok' && l.state.inFlight.length === 1;
    });
    const again = await t.rig({ dir: r.dir, at: r.clock.now() + 3_000 });
    await again.daemon.start();
    await until('the cut-off request named', () =>
      Promise.resolve(linesWithCode(again.logText(), 'W_PAID_REQUEST_CUT').length === 1),
    );
    expect(await again.paidRequests()).toBe(0);
    const l = await readLedger(path.join(again.dir, 'state', 'budget-ledger.json'));
    expect(l.kind === 'ok' && l.state.inFlight).toEqual([]);
    expect(l.kind === 'ok' && l.state.backoff.failures).toBe(1);
    again.clock.advance(MIN);
    await until('bought once the wait is over', async () => (await again.paidRequests()) === 1);
    // The first process last: its stop would write the folder's ledger.
    await again.stop();
    await r.stop();
  });
});
