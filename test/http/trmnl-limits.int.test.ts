import { afterEach, describe, expect, it } from 'vitest';
import type { HttpPublisher } from '../../src/http/http-publisher.js';
import { DeviceBook } from '../../src/state/device-book.js';
import { LOG_BYTES_PER_DAY, LOG_POSTS_BURST } from '../../src/trmnl/device-log.js';
import { WRONG_TOKENS_ALLOWED } from '../../src/trmnl/token-throttle.js';
import { httpRequest } from '../helpers/http-client.js';
import { servePublisher } from '../helpers/serve-publisher.js';
import { display } from '../fixtures/display.js';
import { manualClock } from '../helpers/fake-clock.js';
import { update } from '../fixtures/frames.js';

/**
 * What a device (or whoever has its MAC) can make the daemon do through the TRMNL endpoints, over real sockets: its
 * log limited per device, wrong tokens slowed per client address, numbers in its headers read as decimal only.
 */

const MAC = 'AA:BB:CC:DD:EE:01';
const OTHER = 'AA:BB:CC:DD:EE:02';
const TOKEN = 'tok-hallway-0123456789';
const OTHER_TOKEN = 'tok-porch-0123456789';
const hallway = display('hallway', { panel: 'trmnl' });

describe('TRMNL endpoints under a hostile device', () => {
  const started: HttpPublisher[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.stop()));
  });

  async function serve() {
    const clock = manualClock();
    const book = new DeviceBook({ clock });
    const served = await servePublisher({
      displays: [hallway],
      clock,
      started,
      defaults: {
        trmnlDevices: [
          { mac: MAC, display: 'hallway' },
          { mac: OTHER, display: 'hallway' },
        ],
        trmnlTokens: new Map([
          [MAC, TOKEN],
          [OTHER, OTHER_TOKEN],
        ]),
        devices: book,
      },
    });
    const post = (body: unknown, mac = MAC, token = mac === MAC ? TOKEN : OTHER_TOKEN) =>
      httpRequest(`${served.url}/api/log`, {
        method: 'POST',
        headers: { ID: mac, 'Access-Token': token, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const lines = (code: string) =>
      served
        .logs()
        .split('\n')
        .filter((l) => l.includes(`"${code}"`))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    return { ...served, book, post, lines };
  }

  it("/api/log: 200 posts of 50 long entries write at most a day's bytes; each is answered 204, one warning; the next day it is heard again", async () => {
    const { post, logs, lines, clock } = await serve();
    const entry = (i: number) => ({
      message: `m${i} ${'x'.repeat(600)}`,
      level: 'error',
      source_path: 'y'.repeat(600),
      firmware_version: '1.7.2',
      wifi_signal: -70,
    });
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) {
      statuses.push((await post({ logs: Array.from({ length: 50 }, (_, j) => entry(i * 50 + j)) })).status);
      // A post a minute: the rate never binds, the bytes do.
      clock.advance(60_000);
    }
    expect(new Set(statuses)).toEqual(new Set([204]));
    const kept = logs()
      .split('\n')
      .filter((l) => l.includes('TRMNL device log'));
    const keptBytes = kept.reduce(
      (n, l) => n + Buffer.byteLength(JSON.stringify((JSON.parse(l) as { device_log: unknown }).device_log)),
      0,
    );
    expect(kept.length).toBeGreaterThan(0);
    expect(keptBytes).toBeLessThanOrEqual(LOG_BYTES_PER_DAY);
    // The whole log (lines, their fields, the server's own) stays within twice the day's bytes.
    expect(Buffer.byteLength(logs())).toBeLessThan(2 * LOG_BYTES_PER_DAY);
    expect(lines('W_TRMNL_LOG_DROPPED')).toEqual([
      expect.objectContaining({ mac: MAC, display: 'hallway', reason: 'bytes', bytes_per_day: LOG_BYTES_PER_DAY }),
    ]);
    console.log(
      `200 log posts of 50 entries: ${kept.length} entries kept, ${Buffer.byteLength(logs())} log bytes in all`,
    );

    // The other device has its own allowance.
    expect((await post({ logs: [{ message: 'porch says hello' }] }, OTHER)).status).toBe(204);
    expect(logs()).toContain('porch says hello');
    // A day after its first post, the device is heard again, and a new day's drop is said again.
    clock.advance(24 * 3_600_000);
    expect((await post({ logs: [{ message: 'a new day' }] })).status).toBe(204);
    expect(logs()).toContain('a new day');
  });

  it('/api/log: a burst of posts, then one a minute; the rest answered 204 unread, with one warning', async () => {
    const { post, logs, lines, clock, url } = await serve();
    for (let i = 0; i < LOG_POSTS_BURST + 5; i++)
      expect((await post({ logs: [{ message: `burst ${i}` }] })).status).toBe(204);
    for (let i = 0; i < LOG_POSTS_BURST; i++) expect(logs()).toContain(`"burst ${i}"`);
    expect(logs()).not.toContain(`"burst ${LOG_POSTS_BURST}"`);
    // Over its rate the body is not even read: one that is no JSON is answered 204 too, not 400.
    const junk = await httpRequest(`${url}/api/log`, {
      method: 'POST',
      headers: { ID: MAC, 'Access-Token': TOKEN },
      body: 'not json',
    });
    expect(junk.status).toBe(204);
    clock.advance(60_000);
    expect((await post({ logs: [{ message: 'a minute later' }] })).status).toBe(204);
    expect((await post({ logs: [{ message: 'too soon' }] })).status).toBe(204);
    expect(logs()).toContain('a minute later');
    expect(logs()).not.toContain('too soon');
    expect(lines('W_TRMNL_LOG_DROPPED')).toEqual([expect.objectContaining({ mac: MAC, reason: 'rate' })]);
  });

  it('wrong tokens: after five in a minute from one address, 429 with Retry-After on every TRMNL endpoint, the token not looked at; a minute later, heard again', async () => {
    const { url, clock, lines, publish } = await serve();
    await publish(update(hallway, 1));
    const ask = (path: string, token: string, method = 'GET') =>
      httpRequest(`${url}${path}`, {
        method,
        headers: { ID: MAC, 'Access-Token': token },
        ...(method === 'POST' && { body: '{"logs":[]}' }),
      });
    for (let i = 0; i < WRONG_TOKENS_ALLOWED; i++) {
      expect((await ask('/api/display', `wrong-token-${i}`)).status).toBe(403);
      clock.advance(1_000);
    }
    const slowed = await ask('/api/display', 'wrong-token-5');
    expect(slowed.status).toBe(429);
    expect(slowed.headers['retry-after']).toBe(String(60 - WRONG_TOKENS_ALLOWED));
    expect(slowed.json()).toMatchObject({ status: 429 });
    // Even the right token: a guesser cannot tell a hit while slowed.
    expect((await ask('/api/display', TOKEN)).status).toBe(429);
    expect((await ask('/api/current_screen', TOKEN)).status).toBe(429);
    expect((await ask('/api/log', TOKEN, 'POST')).status).toBe(429);
    clock.advance(30_000);
    expect((await ask('/api/display', 'wrong-token-6')).headers['retry-after']).toBe(
      String(60 - WRONG_TOKENS_ALLOWED - 30),
    );
    clock.advance(30_000);
    expect((await ask('/api/display', TOKEN)).status).toBe(200);
    // Right tokens never count.
    for (let i = 0; i < 20; i++) expect((await ask('/api/current_screen', TOKEN)).status).toBe(200);
    expect(lines('W_TRMNL_TOKEN_THROTTLED')).toEqual([]);
    expect(lines('W_TRMNL_TOKEN_WRONG')).toHaveLength(1);
  });

  it('Percent-Charged: 0x10 is not 16 %: the charge comes from the voltage; hex sizes are unknown', async () => {
    const { url, book, publish } = await serve();
    await publish(update(hallway, 1));
    const headers = {
      ID: MAC,
      'Access-Token': TOKEN,
      Model: 'og',
      'Battery-Voltage': '4.05',
      'Percent-Charged': '0x10',
      RSSI: '-0x3d',
      Width: '0x320',
      Height: '480',
    };
    expect((await httpRequest(`${url}/api/display`, { headers })).status).toBe(200);
    expect(book.get('hallway', 'trmnl-aabbccddee01')).toMatchObject({
      batteryPct: 87.5,
      batteryVoltage: 4.05,
      rssi: null,
    });
    const state = (await httpRequest(`${url}/displays/hallway/state.json`)).json<{
      devices: Array<{ battery_pct: number }>;
    }>();
    expect(state.devices[0]?.battery_pct).toBe(87.5);
  });
});
