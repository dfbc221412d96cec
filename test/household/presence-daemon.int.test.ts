import { describe, expect, it } from 'vitest';
import { httpRequest } from '../helpers/http-client.js';
import { watch } from '../helpers/mqtt-watch.js';
import { daemonTests, hallwayState, linesWithCode, plantLastGood } from '../daemon/helpers.js';
import { localParts } from '../../src/time/zoned-time.js';
import { PRESENCE_SETTLE_MS } from '../../src/daemon/daemon.js';

/**
 * Bought when someone will see it, through the real parts: a real Mosquitto carries the people's presence (retained
 * and live) to the daemon, the simulated service counts the paid requests, and the devices' endpoints (ESPHome's
 * sleep.txt, TRMNL's /api/display) say how long to sleep.
 */

const t = daemonTests({ broker: true });
const MIN = 60_000;
const MAC = 'AA:BB:CC:DD:EE:51';
const TOKEN = 'tok-household-0123456789';

/** A start half a minute after a ten-minute slot (as the rig's default), and its Berlin wall time. */
function startNow(): { at: number; hhmm: (shiftMin: number) => string } {
  const at = Math.floor(Date.now() / 600_000) * 600_000 + 30_000;
  const p = localParts(at, 'Europe/Berlin');
  const hhmm = (shiftMin: number): string => {
    const m = (((p.hour * 60 + p.minute + shiftMin) % 1440) + 1440) % 1440;
    return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  };
  return { at, hhmm };
}

function household(topicBase: string, quiet?: string): string[] {
  return [
    'people:',
    '  - id: anna',
    '    name: Anna',
    '    gender: female',
    `    presence_topic: ${topicBase}/anna/state`,
    '  - id: ben',
    '    name: Ben',
    '    gender: male',
    `    presence_topic: ${topicBase}/ben/state`,
    ...(quiet === undefined ? [] : [`quiet_hours: "${quiet}"`]),
    'trmnl:',
    '  devices:',
    `    - mac: "${MAC}"`,
    '      display: hallway',
    `      token: ${TOKEN}`,
  ];
}

/** The daemon of the hallway dressing Anna and Ben (presence on `topics`), its last answer `agoMs` before `at`. */
function householdRig(at: number, topics: string, agoMs: number, quiet?: string): ReturnType<typeof t.rig> {
  return t.rig({
    at,
    mqttUrl: t.broker().url,
    display: ['people: [anna, ben]'],
    sections: household(topics, quiet),
    prepare: (dir, start) => plantLastGood(dir, 'Coat.', new Date(start - agoMs).toISOString()),
  });
}

/** How many presence changes the daemon has logged. */
function presenceChanges(r: { logText: () => string }): number {
  return r
    .logText()
    .split('\n')
    .filter((l) => l.includes('presence changed')).length;
}

async function sleepS(http: string): Promise<number> {
  return Number((await httpRequest(`${http}/displays/hallway/sleep.txt`)).text());
}

/** TRMNL's refresh_rate (/api/display) and the frame's X-Refresh-Rate (a Kindle, any device that pulls the PNG). */
async function deviceRates(http: string): Promise<{ trmnl: number; header: number }> {
  const res = await httpRequest(`${http}/api/display`, {
    headers: { ID: MAC, 'Access-Token': TOKEN, Model: 'og', Width: '800', Height: '480' },
  });
  const frame = await httpRequest(`${http}/displays/hallway/frame.png`);
  return {
    trmnl: res.json<{ refresh_rate: number }>().refresh_rate,
    header: Number(frame.headers['x-refresh-rate']),
  };
}

describe('presence over MQTT', () => {
  it('buys nothing while everyone is away (retained presence), and once at the first arrival (live)', async () => {
    const topics = 'ha-presence-1/person';
    const seed = await watch(t.broker().url, []);
    // Home Assistant's statestream, retained: both left before the daemon starts.
    await seed.client.publishAsync(`${topics}/anna/state`, 'not_home', { retain: true, qos: 1 });
    await seed.client.publishAsync(`${topics}/ben/state`, 'Work', { retain: true, qos: 1 });
    const { at } = startNow();
    // A frame from just before the start: nothing to make up.
    const r = await householdRig(at, topics, MIN);
    await r.daemon.start();
    await expect.poll(() => presenceChanges(r), { timeout: 5_000 }).toBe(2);

    // Two hours of ten-minute slots, all held.
    for (let i = 0; i < 12; i++) {
      r.clock.advance(10 * MIN);
      await r.daemon.idle();
    }
    expect(await r.paidRequests()).toBe(0);
    const held = linesWithCode(r.logText(), 'W_PURCHASE_HELD');
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ display: 'hallway', reason: 'away' });
    // The devices sleep longer while nobody is home: an hour, not the ten-minute schedule.
    expect(await sleepS(r.http)).toBeGreaterThanOrEqual(3600);
    expect((await hallwayState(r)).held).toBe('away');
    const away = await deviceRates(r.http);
    expect(away.trmnl).toBeGreaterThanOrEqual(3600);
    expect(away.header).toBeGreaterThanOrEqual(3600);

    // Anna comes home (live): one purchase at once.
    await seed.client.publishAsync(`${topics}/anna/state`, 'home', { qos: 1 });
    await expect.poll(() => r.paidRequests(), { timeout: 5_000 }).toBe(1);
    await r.daemon.idle();
    expect(await sleepS(r.http)).toBeLessThanOrEqual(10 * 60 + 30);
    expect((await hallwayState(r)).held).toBeNull();
    // Ben follows: his own answer is bought at once (he was away longer than the period); Anna's is shared.
    await seed.client.publishAsync(`${topics}/ben/state`, 'home', { qos: 1 });
    await expect.poll(() => presenceChanges(r), { timeout: 5_000 }).toBe(4);
    await expect.poll(() => r.paidRequests(), { timeout: 5_000 }).toBe(2);
    await r.daemon.idle();
    expect(await r.paidRequests()).toBe(2);
    // The schedule again: its next slot buys for both (two requests: their genders differ).
    r.clock.advance(10 * MIN);
    await r.daemon.idle();
    expect(await r.paidRequests()).toBe(4);
    await seed.close();
  });

  it('a start with downtime to make up waits for presence that comes after the subscriptions: nobody home, nothing bought', async () => {
    const topics = 'ha-presence-3/person';
    const seed = await watch(t.broker().url, []);
    const { at } = startNow();
    // An answer from before the last slots: the start makes them up, for whoever is at home.
    const r = await householdRig(at, topics, 90 * MIN);
    const started = r.daemon.start();
    await expect.poll(() => r.logText(), { timeout: 5_000 }).toContain('waiting for presence before buying');
    // Home Assistant's states arrive once the daemon is subscribed, as retained ones can after the SUBACK.
    await seed.client.publishAsync(`${topics}/anna/state`, 'not_home', { qos: 1 });
    await seed.client.publishAsync(`${topics}/ben/state`, 'Work', { qos: 1 });
    await started;
    expect(presenceChanges(r)).toBe(2);
    await r.daemon.idle();
    expect(await r.paidRequests()).toBe(0);
    expect((await hallwayState(r)).held).toBe('away');
    // And the next slot is held as any other while they are out.
    r.clock.advance(10 * MIN);
    await r.daemon.idle();
    expect(await r.paidRequests()).toBe(0);
    await seed.close();
  });

  it('buys nothing in quiet hours, and the devices sleep until their end', async () => {
    const { at, hhmm } = startNow();
    // Quiet hours from an hour before the start to three hours after it.
    const r = await householdRig(at, 'ha-presence-2/person', 90 * MIN, `${hhmm(-60)}-${hhmm(180)}`);
    // No presence is retained: the start waits its while for it, then goes on with both unknown (at home).
    const started = r.daemon.start();
    await expect.poll(() => r.logText(), { timeout: 5_000 }).toContain('waiting for presence before buying');
    r.clock.advance(PRESENCE_SETTLE_MS);
    await started;
    // Their end is three hours after the start's minute (a ten-minute slot): the first slot after them, plus the margin.
    const end = at - 30_000 + 180 * MIN;
    const expected = Math.ceil((end - r.clock.now()) / 1000) + 30;
    expect(await sleepS(r.http)).toBe(expected);
    const rates = await deviceRates(r.http);
    expect(rates).toEqual({ trmnl: expected, header: expected });
    const next = (await httpRequest(`${r.http}/displays/hallway/next.json`)).json<Record<string, unknown>>();
    expect(next).toMatchObject({ sleep_s: expected });
    expect(Date.parse(next.next_update_at as string)).toBe(end);
    // state.json says when the next purchase comes: the first slot after the quiet hours.
    const state = await hallwayState(r);
    expect(Date.parse(state.next_update_at as string)).toBe(end);
    expect(state.held).toBe('quiet_hours');
    for (let i = 0; i < 6; i++) {
      r.clock.advance(10 * MIN);
      await r.daemon.idle();
    }
    expect(await r.paidRequests()).toBe(0);
    expect(linesWithCode(r.logText(), 'W_PURCHASE_HELD')).toEqual([
      expect.objectContaining({ reason: 'quiet_hours', display: 'hallway' }),
    ]);
  });
});
