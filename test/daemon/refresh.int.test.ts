import { describe, expect, it } from 'vitest';
import { httpRequest } from '../helpers/http-client.js';
import { daemonTests, linesWithCode } from './helpers.js';
import { watch } from '../helpers/mqtt-watch.js';

/**
 * Refused refreshes change nothing on the wall (an outside probe found that with the default reserve of 0 every
 * press painted "No credits until tomorrow" while 997 credits were left, and 300 POSTs caused 236 renders).
 */

const t = daemonTests({ broker: true });

interface Diagnostics {
  status: string;
  refresh_available: boolean;
  refresh_unavailable_reason: string | null;
  refresh_refused: string | null;
}

describe('refresh with no reserve (the default)', () => {
  it('300 presses change nothing but a log line and a notice; no button on the page; HA button unavailable with the reason', async () => {
    const w = await watch(t.broker().url, ['outfit-display/hallway/diagnostics', 'homeassistant/device/+/config']);
    const r = await t.rig({ mqttUrl: t.broker().url });
    await r.daemon.runOnce('hallway', 'schedule');
    const before = r.published.length;
    const frame = r.published.at(-1)!.frame.hash;

    const results = await Promise.all(Array.from({ length: 300 }, () => r.daemon.refresh('hallway')));
    expect(results.every((x) => x === null)).toBe(true);

    // At most one publish (the diagnostics' notice), of the same frame: nothing was rendered again.
    expect(r.published.length - before).toBeLessThanOrEqual(1);
    expect(r.published.slice(before).every((u) => u.frame.hash === frame && u.status.kind === 'ok')).toBe(true);
    expect(await r.paidRequests()).toBe(1);

    const state = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Record<string, unknown>>();
    expect(state.status).toBe('ok');
    expect(state.stale).toBe(false);
    expect(state.refresh_refused).toMatchObject({ message: expect.stringContaining('refresh_reserve_credits is 0') });

    // One log line for the 300 presses, with the warning code.
    const refused = linesWithCode(r.logText(), 'W_REFRESH_REFUSED');
    expect(refused).toHaveLength(1);

    await w.waitFor(() => {
      const d = w.latest('outfit-display/hallway/diagnostics');
      return d !== undefined && (JSON.parse(d.payload.toString()) as Diagnostics).refresh_refused !== null;
    }, 'the refusal in the diagnostics');
    const diag = JSON.parse(w.latest('outfit-display/hallway/diagnostics')!.payload.toString()) as Diagnostics;
    expect(diag).toMatchObject({
      status: 'ok',
      refresh_available: false,
      refresh_unavailable_reason: expect.stringContaining('refresh_reserve_credits'),
    });

    const discovery = w.all.find((m) => m.topic.startsWith('homeassistant/device/') && m.payload.length > 0);
    const button = (
      JSON.parse(discovery!.payload.toString()) as { components: Record<string, Record<string, unknown>> }
    ).components.refresh!;
    expect(button.availability_mode).toBe('all');
    expect(button.availability).toContainEqual({
      topic: 'outfit-display/hallway/diagnostics',
      value_template: "{{ 'online' if value_json.refresh_available else 'offline' }}",
    });
    expect(button.json_attributes_topic).toBe('outfit-display/hallway/diagnostics');

    // The status page: no button, the reason instead; a POST (even from the page's own origin) is refused.
    const page = (await httpRequest(`${r.http}/`)).text();
    expect(page).not.toContain('/displays/hallway/refresh');
    expect(page).toContain('refresh_reserve_credits is 0');
    const host = new URL(r.http).host;
    const post = await httpRequest(`${r.http}/displays/hallway/refresh`, {
      method: 'POST',
      headers: { Origin: r.http, Host: host },
    });
    expect(post.status).toBe(409);
    await w.close();
  });
});

describe('refresh with a reserve', () => {
  it('a press while a scheduled cycle of the display runs shares that cycle: one paid request', async () => {
    const r = await t.rig({ budget: 'refresh_reserve_credits: 3' });
    await r.daemon.runOnce('hallway', 'schedule');
    expect(await r.paidRequests()).toBe(1);
    r.clock.advance(60 * 60_000);

    const tick = r.daemon.runOnce('hallway', 'schedule');
    const press = r.daemon.refresh('hallway');
    const [ticked, pressed] = await Promise.all([tick, press]);
    expect(pressed).not.toBeNull();
    expect(pressed).toBe(ticked.get('hallway'));
    expect(await r.paidRequests()).toBe(2);
  });

  it('presses are coalesced and spaced; a press the governor refuses leaves the frame as it was', async () => {
    // A reserve of 3: one /recweather (3 credits) a day from the button.
    const r = await t.rig({ budget: 'refresh_reserve_credits: 3' });
    await r.daemon.runOnce('hallway', 'schedule');
    expect(await r.paidRequests()).toBe(1);

    // 300 presses at once share one cycle.
    const burst = await Promise.all(Array.from({ length: 300 }, () => r.daemon.refresh('hallway')));
    expect(await r.paidRequests()).toBe(2);
    expect(burst.filter((x) => x?.outcome === 'fresh').length).toBeGreaterThan(0);

    // Right after it: too soon, no cycle, no render; 50 more such presses publish nothing more.
    const rendered = r.published.length;
    for (let i = 0; i < 50; i++) {
      expect(await r.daemon.refresh('hallway')).toBeNull();
      r.clock.advance(100);
    }
    expect(r.published.length - rendered).toBe(1);
    expect(await r.paidRequests()).toBe(2);

    // Later the same day the reserve is spent: the governor refuses, and the wall keeps its outfit and status.
    r.clock.advance(60_000);
    const hash = r.published.at(-1)!.frame.hash;
    const refused = await r.daemon.refresh('hallway');
    expect(refused).toMatchObject({ outcome: 'budget_exhausted', refused: true, published: false });
    expect(r.published.at(-1)!.frame.hash).toBe(hash);
    expect(r.published.at(-1)!.status.kind).toBe('ok');
    const state = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Record<string, unknown>>();
    expect(state.status).toBe('ok');
    expect(state.refresh_refused).toMatchObject({ message: expect.stringContaining('reserve is spent') });
    expect(await r.paidRequests()).toBe(2);
  });
});
