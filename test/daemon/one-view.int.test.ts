import { describe, expect, it, vi } from 'vitest';
import { displayRows, formatWhen, type DisplayRow } from '../../src/http/status-page-model.js';
import { httpRequest } from '../helpers/http-client.js';
import { daemonTests, injectFault, plantLastGood, type DaemonRig } from './helpers.js';
import { watch, type Watcher } from '../helpers/mqtt-watch.js';

/**
 * One view of a display: state.json, the status page (its model, and /healthz) and MQTT state and diagnostics say the
 * same of the same display, with no answer yet, after a fresh cycle and after a failed one that keeps the last good.
 */

const t = daemonTests({ broker: true });
const TZ = 'Europe/Berlin';
const STATE = 'outfit-display/hallway/state';
const DIAGNOSTICS = 'outfit-display/hallway/diagnostics';

type Json = Record<string, unknown>;

/** The next `count` answers of the simulated service fail with this HTTP status (401: the key is rejected). */
async function failNext(r: DaemonRig, status: number, count: number): Promise<void> {
  await injectFault(r, { kind: 'status', status, count });
}

/** The newest message on a topic sent while the watcher listened (not one left retained by an earlier test). */
function live(w: Watcher, topic: string): Json | null {
  const m = [...w.all].reverse().find((x) => x.topic === topic && !x.retain);
  return m === undefined ? null : (JSON.parse(m.payload.toString()) as Json);
}

/** What each publisher shows of hallway, once MQTT's diagnostics say `status`. */
async function everywhere(
  r: DaemonRig,
  w: Watcher | null,
  status: string,
): Promise<{ state: Json; row: DisplayRow; health: Json; mqttState: Json | null; diagnostics: Json | null }> {
  if (w !== null) await w.waitFor(() => live(w, DIAGNOSTICS)?.status === status, `diagnostics saying ${status}`);
  const state = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Json>();
  const health = (await httpRequest(`${r.http}/healthz`)).json<Json>();
  const display = r.daemon.views.view('hallway')!.display;
  const [row] = displayRows(
    { displays: [display], timezone: TZ, clock: r.clock, views: r.daemon.views },
    r.daemon.views,
    (x) => x,
  );
  return {
    state,
    row: row!,
    health,
    mqttState: w === null ? null : live(w, STATE),
    diagnostics: w === null ? null : live(w, DIAGNOSTICS),
  };
}

describe('one view of a display on every publisher', () => {
  it('with no answer yet (the first cycle fails): no outfit anywhere, the same status and error', async () => {
    const w = await watch(t.broker().url, ['outfit-display/hallway/#']);
    const r = await t.rig({ mqttUrl: t.broker().url });
    await failNext(r, 401, 5);
    expect((await r.daemon.runOnce('hallway', 'schedule')).get('hallway')?.outcome).toBe('failed');

    const { state, row, health, mqttState, diagnostics } = await everywhere(r, w, 'key_rejected');
    expect(state).toMatchObject({
      status: 'key_rejected',
      stale: true,
      last_success_at: null,
      last_error: { code: 'E_KEY_REJECTED' },
    });
    expect(state.outfit).toBeUndefined();
    expect(row.page).toMatchObject({ status: 'key_rejected', outfit: null, lastSuccess: 'never', healthy: false });
    expect(row.page.lastError).toMatch(/^E_KEY_REJECTED: /);
    expect(health).toMatchObject({ ok: false });
    // MQTT sends no state before the first Recommendation; its diagnostics carry the same status.
    expect(mqttState).toBeNull();
    expect(diagnostics).toMatchObject({ status: 'key_rejected', status_detail: state.status_detail });
    await w.close();
  });

  it('after a fresh cycle and after a failed one (the last good kept, the problem shown): the same outfit, status and times', async () => {
    const w = await watch(t.broker().url, ['outfit-display/hallway/#']);
    const r = await t.rig({ mqttUrl: t.broker().url });
    expect((await r.daemon.runOnce('hallway', 'schedule')).get('hallway')?.outcome).toBe('fresh');

    const fresh = await everywhere(r, w, 'ok');
    const outfit = fresh.state.outfit as string;
    expect(outfit.length).toBeGreaterThan(0);
    expect(fresh.mqttState).toMatchObject({
      outfit,
      fetched_at: fresh.state.fetched_at,
      next_update_at: fresh.state.next_update_at,
      stale: false,
    });
    expect(fresh.state).toMatchObject({
      status: 'ok',
      stale: false,
      last_success_at: fresh.state.fetched_at,
      last_error: null,
    });
    expect(fresh.row.page).toMatchObject({ outfit, status: 'ok', healthy: true, lastError: null });
    expect(fresh.row.page.lastSuccess).toBe(formatWhen(fresh.state.last_success_at as string, TZ, r.clock.now()));
    expect(fresh.health).toMatchObject({ ok: true });

    await failNext(r, 401, 5);
    r.clock.advance(10 * 60_000);
    expect((await r.daemon.runOnce('hallway', 'schedule')).get('hallway')?.outcome).toBe('failed');
    const failed = await everywhere(r, w, 'key_rejected');
    expect(failed.state).toMatchObject({
      outfit,
      status: 'key_rejected',
      stale: true,
      fetched_at: fresh.state.fetched_at,
      last_success_at: fresh.state.last_success_at,
      last_error: { code: 'E_KEY_REJECTED' },
    });
    expect(failed.mqttState).toMatchObject({
      outfit,
      fetched_at: fresh.state.fetched_at,
      next_update_at: failed.state.next_update_at,
      stale: true,
    });
    expect(failed.diagnostics).toMatchObject({ status: 'key_rejected', status_detail: failed.state.status_detail });
    expect(failed.row.page).toMatchObject({ outfit, status: 'key_rejected' });
    // Ten minutes old: still within its freshness, on /healthz as on the page.
    expect(failed.health).toMatchObject({ ok: true, displays: [{ status: 'key_rejected' }] });
    const healthDisplay = (failed.health.displays as { last_success_at: string }[])[0]!;
    expect(Date.parse(healthDisplay.last_success_at)).toBe(Date.parse(fresh.state.last_success_at as string));
    expect(failed.row.page.lastSuccess).toBe(formatWhen(fresh.state.last_success_at as string, TZ, r.clock.now()));
    expect(failed.row.page.lastError).toMatch(/^E_KEY_REJECTED: /);
    await w.close();
  });

  it('a last good answer dated in the future is no success on any of them: /healthz is 503, the page says "never"', async () => {
    const future = new Date(Date.now() + 24 * 3_600_000).toISOString();
    const r = await t.rig({
      prepare: (dir) => plantLastGood(dir, 'A planted outfit from the future.', future),
    });
    await failNext(r, 401, 5);
    expect((await r.daemon.runOnce('hallway', 'schedule')).get('hallway')?.outcome).toBe('failed');
    // Shown, as better than nothing, but its age is unknown: it must not count as fresh data anywhere (read over HTTP
    // only, as an owner would).
    const state = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Json>();
    expect(state).toMatchObject({
      outfit: 'A planted outfit from the future.',
      status: 'key_rejected',
      last_success_at: null,
    });
    const health = await httpRequest(`${r.http}/healthz`);
    expect(health.status).toBe(503);
    expect(health.json<{ reason: string }>().reason).toContain('no good data yet');
    const page = (await httpRequest(`${r.http}/`)).text();
    expect(page).toContain('A planted outfit from the future.');
    expect(page).toContain('<tr><th>Last success</th><td>never</td></tr>');
  });

  it('while the first cycle runs, before any frame: state.json says "none" and stale, as /healthz and the page do', async () => {
    const r = await t.rig();
    // The service answers only once the (fake) clock has moved on: the first cycle is in flight meanwhile.
    await injectFault(r, { kind: 'slow', delay_ms: 5_000 });
    const run = r.daemon.runOnce('hallway', 'schedule');
    const state = await vi.waitFor(async () => {
      const res = await httpRequest(`${r.http}/displays/hallway/state.json`);
      expect(res.status).toBe(200);
      return res.json<Json>();
    });
    expect(state).toMatchObject({ status: 'none', stale: true, frame: null });
    expect((await httpRequest(`${r.http}/healthz`)).json<{ reason: string }>().reason).toContain('no frame yet');
    expect((await httpRequest(`${r.http}/`)).text()).toContain('No frame yet.');
    let done = false;
    void run.finally(() => (done = true));
    await vi.waitFor(
      () => {
        r.clock.advance(1_000);
        expect(done).toBe(true);
      },
      { timeout: 10_000 },
    );
  });
});
