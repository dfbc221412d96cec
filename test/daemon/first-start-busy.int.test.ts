import { describe, expect, it } from 'vitest';
import { loadPanel } from '../../src/panels/panels.js';
import { renderFrame, renderIndices } from '../../src/render/frame.js';
import type { FrameInput } from '../../src/render/layout/content.js';
import { httpRequest } from '../helpers/http-client.js';
import { until } from '../helpers/until.js';
import { shownView } from '../helpers/views.js';
import { daemonTests, hallwayState, injectFault } from './helpers.js';
import { watch } from '../helpers/mqtt-watch.js';

/**
 * The first start while the service refuses us (a 429 asking for two hours showed "Waiting for the first
 * outfit" with status ok and /healthz 200 for the hour we wait): nothing can be bought and there is nothing to show,
 * so the status is the service's error, "busy", with until when in plain words and E_RATE_LIMITED, everywhere an
 * owner looks and on the frame; the purchase after the wait clears it. A whole daemon against the simulated service
 * over real HTTP, a real Mosquitto, a fake clock.
 */

const t = daemonTests({ broker: true });
const HOUR = 3_600_000;

/** "09:41" in the rig's zone. */
const wallTime = (ms: number): string =>
  new Date(ms).toLocaleTimeString('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' });

describe('the first start under a 429 with a long Retry-After', () => {
  it('is service_error "busy" until the wait ends on state.json, /healthz, the diagnostics and the frame; the purchase after it clears it', async () => {
    const w = await watch(t.broker().url, ['outfit-display/hallway/diagnostics']);
    const diagnostics = (): Record<string, unknown> | null => {
      const d = w.latest('outfit-display/hallway/diagnostics');
      return d === undefined ? null : (JSON.parse(d.payload.toString()) as Record<string, unknown>);
    };
    // Daily, at the start's own minute: the start buys at once, and the service asks for two hours.
    const r = await t.rig({ mqttUrl: t.broker().url, schedule: '{MM} {HH} * * *' });
    await injectFault(r, { kind: 'rate_limit', retry_after: 7200, count: 1, path: 'recweather' });
    await r.daemon.start();
    expect(await r.paidRequests()).toBe(1);
    // A Retry-After is honoured for an hour at most.
    const until_ = wallTime(r.clock.now() + HOUR);

    const st = await hallwayState(r);
    expect(st.status).toBe('service_error');
    expect(st.status_detail).toBe(
      `the service asked us to wait until ${until_} (E_RATE_LIMITED: HTTP 429 with Retry-After)`,
    );
    expect(st.last_error).toMatchObject({ code: 'E_RATE_LIMITED' });
    expect(st.outfit).toBeUndefined();
    const health = await httpRequest(`${r.http}/healthz`);
    expect(health.status).toBe(503);
    expect(health.json<{ displays: { status: string; reason: string }[] }>().displays[0]).toMatchObject({
      status: 'service_error',
      reason: expect.stringContaining('E_RATE_LIMITED') as unknown,
    });
    await w.waitFor(() => diagnostics()?.status === 'service_error', 'diagnostics with the service error');
    expect(String(diagnostics()?.status_detail)).toContain(`until ${until_} (E_RATE_LIMITED`);

    // The frame says so, with the time of the next try, not "Waiting for the first outfit".
    const shown = shownView(r.daemon.views, 'hallway');
    expect(shown.status).toMatchObject({
      kind: 'service_error',
      problem: 'busy',
      retryAt: new Date(r.clock.now() + HOUR),
    });
    const input: FrameInput = {
      rec: null,
      displayName: 'hallway',
      timezone: 'Europe/Berlin',
      status: shown.status,
      now: new Date(r.clock.now()),
      storeProblem: null,
    };
    const panel = loadPanel('waveshare-4in2');
    const texts = renderIndices(input, panel, { rotation: 0 }).report.texts.join(' ');
    expect(texts).toContain('The outfit service is busy');
    expect(texts).toContain(until_);
    expect(texts).not.toContain('Waiting for the first outfit');
    expect(shown.frame.hash).toBe((await renderFrame(input, panel, { rotation: 0 })).hash);

    // The wait over, the slot is bought and everything says ok again.
    r.clock.advance(HOUR);
    await until('the purchase after the wait', async () => (await r.paidRequests()) === 2);
    const good = await until('status ok with an outfit', async () => {
      const s = await hallwayState(r);
      return s.status === 'ok' && s.outfit !== undefined ? s : null;
    });
    expect(good.status_detail).toBeNull();
    expect((await httpRequest(`${r.http}/healthz`)).status).toBe(200);
    await w.waitFor(() => diagnostics()?.status === 'ok', 'diagnostics back to ok');
    await w.close();
  });
});
