import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpPublisher } from '../../src/http/http-publisher.js';
import { localeFor } from '../../src/i18n/locale.js';
import { drawInProcess, displayRenderOptions } from '../../src/render/display-frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { DeviceBook, type DeviceEntry } from '../../src/state/device-book.js';
import { httpRequest, type RawResponse } from '../helpers/http-client.js';
import { servePublisher, type ServeOptions } from '../helpers/serve-publisher.js';
import { display } from '../fixtures/display.js';
import { manualClock } from '../helpers/fake-clock.js';
import { rec } from '../fixtures/rec.js';
import { update } from '../fixtures/frames.js';

const MAC = 'AA:BB:CC:DD:EE:01';
const BMP_MAC = 'AA:BB:CC:DD:EE:02';
const COLOUR_MAC = 'AA:BB:CC:DD:EE:03';
const TOKEN = 'tok-hallway-0123456789';
const tokens = new Map([
  [MAC, TOKEN],
  [BMP_MAC, 'tok-bmp-0123456789'],
  [COLOUR_MAC, 'tok-colour-0123456789'],
]);
const hallway = display('hallway', { panel: 'trmnl' });
const porch = display('porch', { panel: 'waveshare-7in5-v2' });
const kitchen = display('kitchen', { panel: 'waveshare-7in3-f' });

interface DisplayJson {
  status: number;
  image_url: string;
  filename: string;
  refresh_rate: number;
  image_url_timeout: number;
  update_firmware: boolean;
  firmware_url: null;
  reset_firmware: boolean;
}

describe('TRMNL device endpoints', () => {
  const started: HttpPublisher[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.stop()));
  });

  async function serve(over: ServeOptions = {}) {
    const telemetry: [string, DeviceEntry][] = [];
    const clock = manualClock();
    const book = new DeviceBook({ clock });
    book.onEvent((e) => {
      if (e.kind === 'report') telemetry.push([e.device.display, e.device]);
    });
    const served = await servePublisher(
      {
        displays: [hallway, porch, kitchen],
        clock,
        started,
        defaults: {
          trmnlDevices: [
            { mac: MAC.toLowerCase(), display: 'hallway' },
            { mac: BMP_MAC, display: 'porch', format: 'bmp' },
            { mac: COLOUR_MAC, display: 'kitchen' },
          ],
          trmnlTokens: tokens,
          devices: book,
        },
      },
      over,
    );
    return { ...served, telemetry, book };
  }

  const device = (mac: string, token?: string, extra: Record<string, string> = {}) => ({
    ID: mac,
    ...(token === undefined ? {} : { 'Access-Token': token }),
    'Refresh-Rate': '900',
    'Battery-Voltage': '4.05',
    RSSI: '-61',
    'FW-Version': '1.6.2',
    Model: 'og',
    Width: '800',
    Height: '480',
    ...extra,
  });

  function noSecret(r: RawResponse): void {
    const all = JSON.stringify(r.headers) + r.text();
    for (const t of tokens.values()) expect(all).not.toContain(t);
  }

  it('setup (pairing open): a registered MAC gets its access token and a friendly id; an unknown one a 404 (both paths)', async () => {
    const { p, publish, url } = await serve();
    await publish(update(hallway, 1));
    for (const path of ['/api/setup', '/api/setup/']) {
      p.pairing.open([MAC]);
      const r = await httpRequest(`${url}${path}`, { headers: { ID: MAC, 'FW-Version': '1.5.0', Model: 'og' } });
      expect(r.status).toBe(200);
      const j = r.json<Record<string, unknown>>();
      expect(j).toMatchObject({ status: 200, api_key: TOKEN });
      expect(j.friendly_id).toMatch(/^[0-9A-F]{6}$/);
      expect(j.image_url).toMatch(new RegExp(`^${url}/displays/hallway/trmnl/outfit-[0-9a-f]{8}\\.png$`));
      const img = await httpRequest(j.image_url as string);
      expect(img.status).toBe(200);
    }
    const unknown = await httpRequest(`${url}/api/setup`, { headers: { ID: '11:22:33:44:55:66' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toMatchObject({ status: 404, api_key: null });
    noSecret(unknown);
    expect((await httpRequest(`${url}/api/setup`)).status).toBe(404);
    // Before any frame the setup image is a blank 1-bit PNG.
    p.pairing.open([BMP_MAC]);
    const porchSetup = (await httpRequest(`${url}/api/setup`, { headers: { ID: BMP_MAC } })).json<{
      image_url: string;
    }>();
    expect(porchSetup.image_url).toBe(`${url}/trmnl/setup.png`);
    const blank = PNG.sync.read((await httpRequest(porchSetup.image_url)).body);
    expect([blank.width, blank.height]).toEqual([800, 480]);
  });

  it('display: unknown MAC 404, no token 401, wrong token 403; never echoing a token', async () => {
    const { publish, url, logs } = await serve();
    await publish(update(hallway, 1));
    const cases: [Record<string, string>, number][] = [
      [device('11:22:33:44:55:66', TOKEN), 404],
      [{ 'Access-Token': TOKEN }, 404],
      [device(MAC), 401],
      [device(MAC, ''), 401],
      [device(MAC, 'tok-hallway-0123456788'), 403],
      [device(MAC, tokens.get(BMP_MAC)), 403],
      [device(MAC, `${TOKEN}x`), 403],
    ];
    for (const [headers, status] of cases) {
      const r = await httpRequest(`${url}/api/display`, { headers });
      expect(r.status, JSON.stringify(headers)).toBe(status);
      expect(r.json<{ status: number }>().status).toBe(status);
      noSecret(r);
    }
    expect((await httpRequest(`${url}/api/display`, { method: 'POST', headers: device(MAC, TOKEN) })).status).toBe(405);
    for (const t of tokens.values()) expect(logs()).not.toContain(t);
  });

  it('current_screen: the current image, same auth as display, and nothing passed on or advanced', async () => {
    const { publish, url, telemetry } = await serve({ nextUpdateAt: () => null, allowedHosts: ['outfit.local'] });
    expect((await httpRequest(`${url}/api/current_screen`, { headers: device(MAC, 'wrong') })).status).toBe(403);
    await publish(update(hallway, 1));
    const headers = { ...device(MAC, TOKEN), Host: 'outfit.local:8321' };
    const shown = (await httpRequest(`${url}/api/display`, { headers })).json<DisplayJson>();
    const passedOn = telemetry.length;
    const r = await httpRequest(`${url}/api/current_screen`, { headers });
    expect(r.status).toBe(200);
    expect(r.json<DisplayJson>()).toMatchObject({ status: 0, image_url: shown.image_url, filename: shown.filename });
    expect(telemetry.length).toBe(passedOn);
  });

  it('display: the frame as a 1-bit 800x480 PNG under 90 KB, a new filename for every new image, refresh_rate aiming at the next update', async () => {
    let next: Date | null = new Date('2026-01-31T07:30:00.000Z');
    const { publish, url, clock, telemetry } = await serve({
      nextUpdateAt: () => next,
      allowedHosts: ['outfit.local'],
    });
    const none = (await httpRequest(`${url}/api/display`, { headers: device(MAC, TOKEN) })).json<DisplayJson>();
    expect(none).toMatchObject({ status: 0, image_url: '', filename: '', refresh_rate: 60 });

    const u1 = update(hallway, 1);
    await publish(u1);
    const r = await httpRequest(`${url}/api/display`, {
      headers: { ...device(MAC, TOKEN), Host: 'outfit.local:8321' },
    });
    expect(r.status).toBe(200);
    const j = r.json<DisplayJson>();
    expect(j).toMatchObject({ status: 0, update_firmware: false, firmware_url: null, reset_firmware: false });
    expect(j.filename).toMatch(/^outfit-[0-9a-f]{8}$/);
    expect(j.filename.length).toBeLessThanOrEqual(31);
    expect(j.filename).toBe(`outfit-${u1.frame.hash.slice(0, 8)}`);
    expect(j.image_url).toBe(`http://outfit.local:8321/displays/hallway/trmnl/${j.filename}.png`);
    expect(j.refresh_rate).toBe(30 * 60 + 30);
    expect(j.image_url_timeout).toBe(30);
    noSecret(r);
    expect(telemetry.at(-1)).toEqual([
      'hallway',
      expect.objectContaining({
        key: 'trmnl-aabbccddee01',
        mac: MAC,
        batteryVoltage: 4.05,
        batteryPct: 87.5,
        rssi: -61,
        fwVersion: '1.6.2',
        model: 'og',
        panel: 'trmnl',
        periodS: 30 * 60 + 30,
      }),
    ]);

    const img = await httpRequest(`${url}${new URL(j.image_url).pathname}`, { headers: device(MAC, TOKEN) });
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.body.equals(u1.frame.png)).toBe(true);
    expect(img.body.length).toBeLessThanOrEqual(90_000);
    expect([img.body[24], img.body[25]]).toEqual([1, 0]); // bit depth 1, colour type 0 (grey)

    // The same frame keeps its name; a new one gets a new name, and the old name still downloads for a while.
    await publish(update(hallway, 1));
    expect(
      (await httpRequest(`${url}/api/display`, { headers: device(MAC, TOKEN) })).json<DisplayJson>().filename,
    ).toBe(j.filename);
    await publish(update(hallway, 2));
    const j2 = (await httpRequest(`${url}/api/display`, { headers: device(MAC, TOKEN) })).json<DisplayJson>();
    expect(j2.filename).not.toBe(j.filename);
    expect((await httpRequest(`${url}${new URL(j.image_url).pathname}`)).status).toBe(200);

    // refresh_rate is bounded, and a default when no update is planned.
    clock.set(Date.parse('2026-01-31T07:29:50.000Z'));
    expect(
      (await httpRequest(`${url}/api/display`, { headers: device(MAC, TOKEN) })).json<DisplayJson>().refresh_rate,
    ).toBe(60);
    next = new Date('2026-02-05T07:30:00.000Z');
    expect(
      (await httpRequest(`${url}/api/display`, { headers: device(MAC, TOKEN) })).json<DisplayJson>().refresh_rate,
    ).toBe(86_400);
    next = null;
    expect(
      (await httpRequest(`${url}/api/display`, { headers: device(MAC, TOKEN) })).json<DisplayJson>().refresh_rate,
    ).toBe(1_800);
  });

  it('a device configured for BMP gets the 48,062-byte 1-bit BMP of a black/white display', async () => {
    const { publish, url } = await serve({ publicUrl: 'http://frames.example:9000/' });
    const u = update(porch, 3);
    await publish(u);
    const j = (
      await httpRequest(`${url}/api/display`, { headers: device(BMP_MAC, tokens.get(BMP_MAC)) })
    ).json<DisplayJson>();
    expect(j.image_url).toBe(`http://frames.example:9000/displays/porch/trmnl/${j.filename}.bmp`);
    const img = await httpRequest(`${url}${new URL(j.image_url).pathname}`);
    expect(img.body.equals(u.frame.bmp!)).toBe(true);
    expect(img.body.length).toBe(48_062);
    expect(img.body.subarray(0, 2).toString('ascii')).toBe('BM');
  });

  it('a colour display is rendered again for the 1-bit TRMNL panel from the same data', async () => {
    const { publish, url } = await serve();
    await publish(update(kitchen, 4, { rec: rec({ outfit: 'Raincoat and boots.' }) }));
    const j = (
      await httpRequest(`${url}/api/display`, { headers: device(COLOUR_MAC, tokens.get(COLOUR_MAC)) })
    ).json<DisplayJson>();
    const img = await httpRequest(`${url}${new URL(j.image_url).pathname}`);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.body.length).toBeLessThanOrEqual(90_000);
    expect([img.body.readUInt32BE(16), img.body.readUInt32BE(20), img.body[24], img.body[25]]).toEqual([
      800, 480, 1, 0,
    ]);
    const decoded = PNG.sync.read(img.body);
    const greys = new Set<number>();
    for (let i = 0; i < decoded.data.length; i += 4) greys.add(decoded.data[i]!);
    expect([...greys].sort((a, b) => a - b)).toEqual([0, 255]);
  });

  it("a display's TRMNL copy is drawn in the display's own language (a de display's TRMNL device shows German)", async () => {
    const de = localeFor('de');
    const { publish, url, clock } = await serve({
      render: { timezone: 'Europe/Berlin', locales: new Map([['kitchen', de]]) },
    });
    const data = rec({ outfit: 'Raincoat and boots.' });
    await publish(update(kitchen, 4, { rec: data }));
    const j = (
      await httpRequest(`${url}/api/display`, { headers: device(COLOUR_MAC, tokens.get(COLOUR_MAC)) })
    ).json<DisplayJson>();
    const img = await httpRequest(`${url}${new URL(j.image_url).pathname}`);
    // The same state drawn for the TRMNL panel through the one place that builds a display's render options: in
    // German it is this image, pixel for pixel; in English it is not.
    const state = { rec: data, status: { kind: 'ok' } as const, now: new Date(clock.now()) };
    const as = { panel: loadPanel('trmnl'), rotation: 0 as const };
    const german = await drawInProcess(
      displayRenderOptions(kitchen, { timezone: 'Europe/Berlin', locales: new Map([['kitchen', de]]) }),
      state,
      as,
    );
    const english = await drawInProcess(displayRenderOptions(kitchen, { timezone: 'Europe/Berlin' }), state, as);
    const pixels = (png: Buffer): Buffer => PNG.sync.read(png).data;
    expect(pixels(img.body).equals(pixels(german.png))).toBe(true);
    expect(pixels(img.body).equals(pixels(english.png))).toBe(false);
  });

  it('log: authenticated like display, 204, only known fields reach our log', async () => {
    const { url, logs } = await serve();
    const body = JSON.stringify({
      logs: [{ message: 'wifi weak', level: 'warn', battery_voltage: 3.9, wifi_signal: -80, secret_extra: 'zzz' }],
    });
    const ok = await httpRequest(`${url}/api/log`, {
      method: 'POST',
      headers: { ...device(MAC, TOKEN), 'Content-Type': 'application/json' },
      body,
    });
    expect(ok.status).toBe(204);
    const old = JSON.stringify({ log: { logs_array: [{ message: 'old format' }] } });
    expect(
      (await httpRequest(`${url}/api/log`, { method: 'POST', headers: device(MAC, TOKEN), body: old })).status,
    ).toBe(204);
    expect(
      (await httpRequest(`${url}/api/log`, { method: 'POST', headers: device(MAC, 'wrong-token-123'), body })).status,
    ).toBe(403);
    expect(
      (await httpRequest(`${url}/api/log`, { method: 'POST', headers: device(MAC, TOKEN), body: 'not json' })).status,
    ).toBe(400);
    const big = JSON.stringify({ logs: [{ message: 'x'.repeat(300 * 1024) }] });
    expect(
      (await httpRequest(`${url}/api/log`, { method: 'POST', headers: device(MAC, TOKEN), body: big })).status,
    ).toBe(413);
    expect(logs()).toContain('wifi weak');
    expect(logs()).toContain('old format');
    expect(logs()).not.toContain('zzz');
    expect(logs()).not.toContain(TOKEN);
  });
});
