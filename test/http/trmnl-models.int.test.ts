import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpPublisher } from '../../src/http/http-publisher.js';
import { displayRenderOptions, drawInProcess, type DrawFrame } from '../../src/render/display-frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { DeviceBook } from '../../src/state/device-book.js';
import { httpRequest } from '../helpers/http-client.js';
import { servePublisher } from '../helpers/serve-publisher.js';
import { display } from '../fixtures/display.js';
import { manualClock } from '../helpers/fake-clock.js';
import { rec } from '../fixtures/rec.js';
import { update } from '../fixtures/frames.js';

/**
 * Item 1 and 4 of "devices that speak back": each device's own screen (from Model, Width and Height as the firmware
 * sends them, or trmnl-kindle's png-width / png-height, or a panel fixed on its binding), /api/models, the full
 * refresh the server asks for (maximum_compatibility), and what each device said, kept and shown. Images are read
 * back by pngjs, not by our decoders.
 */

const hallway = display('hallway');
const TOKEN = 'tok-models-0123456789';
const devs = {
  x: 'AA:BB:CC:00:00:01',
  ogPlus: 'AA:BB:CC:00:00:02',
  og: 'AA:BB:CC:00:00:03',
  e1001: 'AA:BB:CC:00:00:04',
  xiao: 'AA:BB:CC:00:00:05',
  odd: 'AA:BB:CC:00:00:06',
  kindle: 'AA:BB:CC:00:00:07',
  fixed: 'AA:BB:CC:00:00:08',
} as const;

interface DisplayJson {
  status: number;
  image_url: string;
  filename: string;
  refresh_rate: number;
  maximum_compatibility?: boolean;
}

function ihdr(png: Buffer): { width: number; height: number; bitDepth: number; colourType: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), bitDepth: png[24]!, colourType: png[25]! };
}

/** The grey levels used in a grey PNG, as pngjs reads them. */
function greys(png: Buffer): number[] {
  const d = PNG.sync.read(png).data;
  const seen = new Set<number>();
  for (let i = 0; i < d.length; i += 4) seen.add(d[i]!);
  return [...seen].sort((a, b) => a - b);
}

describe('a frame for each device’s own screen', () => {
  const started: HttpPublisher[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.stop()));
  });

  async function serve(draw?: DrawFrame) {
    const clock = manualClock();
    const book = new DeviceBook({ clock });
    const served = await servePublisher(
      {
        displays: [hallway],
        clock,
        started,
        defaults: {
          trmnlDevices: [
            ...Object.entries(devs).map(([k, mac]) => ({
              mac,
              display: 'hallway',
              ...(k === 'fixed' && { panel: 'trmnl-4grey' }),
            })),
          ],
          trmnlTokens: new Map(Object.values(devs).map((m) => [m, TOKEN])),
          devices: book,
          ...(draw !== undefined && { draw }),
        },
      },
      { nextUpdateAt: () => new Date('2026-01-31T07:30:00.000Z') },
    );
    return { ...served, book };
  }

  /** The headers the 2026 firmware sends (request_headers.cpp), for a model and its screen. */
  const wake = (mac: string, model: string | null, w: number, h: number, extra: Record<string, string> = {}) => ({
    ID: mac,
    'Access-Token': TOKEN,
    'Refresh-Rate': '1830',
    'Battery-Voltage': '3.95',
    RSSI: '-58',
    'FW-Version': '1.7.2',
    ...(model === null ? {} : { Model: model }),
    Width: String(w),
    Height: String(h),
    'Update-Source': 'timer',
    'Image-Cached': 'false',
    'Temperature-Profile': 'true',
    ...extra,
  });

  async function fetchImage(url: string, headers: Record<string, string>): Promise<{ j: DisplayJson; body: Buffer }> {
    const r = await httpRequest(`${url}/api/display`, { headers });
    expect(r.status).toBe(200);
    const j = r.json<DisplayJson>();
    const img = await httpRequest(`${url}${new URL(j.image_url).pathname}`, { headers });
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    return { j, body: img.body };
  }

  it('TRMNL X, og_plus, og, reTerminal E1001, XIAO, a Kindle on trmnl-kindle and a fixed binding each get their screen, under their byte cap', async () => {
    const { url, publish, logs } = await serve();
    await publish(update(hallway, 1, { rec: rec({ outfit: 'Raincoat, jumper and boots.' }) }));
    const cases: Array<
      [string, Record<string, string>, { width: number; height: number; bitDepth: number }, number, number[] | null]
    > = [
      [
        'TRMNL X',
        wake(devs.x, 'x', 1872, 1404, { 'Percent-Charged': '82', 'Battery-Charging': '1', 'USB-Connected': 'true' }),
        { width: 1872, height: 1404, bitDepth: 4 },
        750_000,
        null,
      ],
      [
        'og_plus',
        wake(devs.ogPlus, 'og_plus', 800, 480),
        { width: 800, height: 480, bitDepth: 2 },
        90_000,
        [0, 85, 170, 255],
      ],
      ['og', wake(devs.og, 'og', 800, 480), { width: 800, height: 480, bitDepth: 1 }, 90_000, [0, 255]],
      [
        'reTerminal E1001',
        wake(devs.e1001, 'reterminal_e1001', 800, 480),
        { width: 800, height: 480, bitDepth: 2 },
        90_000,
        null,
      ],
      [
        'XIAO 7.5"',
        wake(devs.xiao, 'xiao_epaper_display', 800, 480),
        { width: 800, height: 480, bitDepth: 1 },
        90_000,
        [0, 255],
      ],
      [
        'trmnl-kindle',
        {
          ID: devs.kindle,
          'Access-Token': TOKEN,
          'battery-voltage': '3.9',
          'png-width': '1072',
          'png-height': '1448',
          rssi: '-60',
        },
        { width: 1072, height: 1448, bitDepth: 8 },
        750_000,
        null,
      ],
      [
        'bound to trmnl-4grey',
        wake(devs.fixed, 'x', 1872, 1404),
        { width: 800, height: 480, bitDepth: 2 },
        90_000,
        null,
      ],
    ];
    for (const [name, headers, want, cap, levels] of cases) {
      const { j, body } = await fetchImage(url, headers);
      expect(ihdr(body), name).toMatchObject({ ...want, colourType: 0 });
      expect(body.length, name).toBeLessThanOrEqual(cap);
      expect(j.filename, name).toMatch(/^outfit-[0-9a-f]{8}$/);
      if (levels !== null) expect(greys(body), name).toEqual(levels);
    }
    // The X's 16 greys are the 4-bit PNG's levels (multiples of 17).
    const x = await fetchImage(url, wake(devs.x, 'x', 1872, 1404));
    expect(greys(x.body).every((g) => g % 17 === 0)).toBe(true);
    expect(logs()).not.toContain('W_TRMNL_SCREEN_UNKNOWN');
  });

  it("the same outfit, status and staleness on every device: the X's image is the display's state drawn for the X", async () => {
    const { url, publish, clock } = await serve();
    const data = rec({ outfit: 'Warm coat and gloves.' });
    const down = {
      kind: 'unreachable',
      since: new Date(clock.now() - 3_600_000),
      message: 'connect ECONNREFUSED',
    } as const;
    await publish(update(hallway, 2, { rec: data, stale: true, status: down }));
    const { body } = await fetchImage(url, wake(devs.x, 'x', 1872, 1404));
    const state = { rec: data, status: down, now: new Date(clock.now()), stale: true, storeProblem: null };
    const expected = await drawInProcess(displayRenderOptions(hallway, { timezone: 'Europe/Berlin' }), state, {
      panel: loadPanel('trmnl-x'),
      rotation: 0,
    });
    const current = await drawInProcess(
      displayRenderOptions(hallway, { timezone: 'Europe/Berlin' }),
      { ...state, stale: false, status: { kind: 'ok' } },
      { panel: loadPanel('trmnl-x'), rotation: 0 },
    );
    const px = (png: Buffer): Buffer => PNG.sync.read(png).data;
    expect(px(body).equals(px(expected.png))).toBe(true);
    expect(px(body).equals(px(current.png))).toBe(false);
  });

  it('a frame that cannot be drawn for a screen leaves that screen its last image: never a 500, never a blank', async () => {
    let broken = false;
    const draw: DrawFrame = (o, state, as) =>
      broken && as?.panel.id === 'trmnl-x'
        ? Promise.reject(new Error('canvas ran out of memory'))
        : drawInProcess(o, state, as);
    const { url, publish, logs } = await serve(draw);
    await publish(update(hallway, 5, { rec: rec({ outfit: 'First outfit.' }) }));
    const first = await fetchImage(url, wake(devs.x, 'x', 1872, 1404));
    broken = true;
    await publish(update(hallway, 6, { rec: rec({ outfit: 'Second outfit.' }) }));
    const again = await fetchImage(url, wake(devs.x, 'x', 1872, 1404));
    expect(again.j.filename).toBe(first.j.filename);
    expect(again.body.equals(first.body)).toBe(true);
    expect(logs()).toContain('canvas ran out of memory');
    // The other screens are drawn as usual.
    expect((await fetchImage(url, wake(devs.ogPlus, 'og_plus', 800, 480))).j.filename).toMatch(/^outfit-/);
  });

  it('a screen no profile has gets the largest that fits inside it, and W_TRMNL_SCREEN_UNKNOWN once', async () => {
    const { url, publish, logs } = await serve();
    await publish(update(hallway, 3, { rec: rec() }));
    for (let i = 0; i < 3; i++) {
      const { body } = await fetchImage(url, wake(devs.odd, 'waveshare_397', 960, 680));
      const h = ihdr(body);
      expect(h.width <= 960 && h.height <= 680).toBe(true);
      expect([h.width, h.height]).toEqual([800, 480]);
    }
    expect(
      logs()
        .split('\n')
        .filter((l) => l.includes('W_TRMNL_SCREEN_UNKNOWN')),
    ).toHaveLength(1);
  });

  it('/api/models lists every screen we draw, in the registry’s shape', async () => {
    const { url } = await serve();
    const r = await httpRequest(`${url}/api/models`);
    expect(r.status).toBe(200);
    const { data } = r.json<{ data: Array<Record<string, unknown>> }>();
    const byName = new Map(data.map((m) => [m.name, m]));
    expect(byName.get('v2')).toMatchObject({
      label: 'TRMNL X',
      width: 1872,
      height: 1404,
      colors: 16,
      bit_depth: 4,
      mime_type: 'image/png',
      kind: 'trmnl',
      image_size_limit: 750_000,
      panel: 'trmnl-x',
    });
    expect(byName.get('og_png')).toMatchObject({
      width: 800,
      height: 480,
      colors: 2,
      bit_depth: 1,
      image_size_limit: 90_000,
    });
    expect(byName.get('og_plus')).toMatchObject({ width: 800, height: 480, colors: 4, bit_depth: 2 });
    expect(byName.get('seeed_e1001')).toMatchObject({ kind: 'byod', colors: 4 });
    expect(byName.get('xiao_epaper_display')).toMatchObject({ kind: 'byod', colors: 2 });
    expect(byName.get('amazon_kindle_paperwhite_7th_gen')).toMatchObject({
      kind: 'kindle',
      width: 1448,
      height: 1072,
      rotation: 90,
    });
    for (const m of data)
      for (const k of [
        'name',
        'label',
        'width',
        'height',
        'colors',
        'bit_depth',
        'scale_factor',
        'rotation',
        'mime_type',
        'offset_x',
        'offset_y',
        'kind',
      ])
        expect(m, String(m.name)).toHaveProperty(k);
    expect((await httpRequest(`${url}/api/models`, { method: 'POST' })).status).toBe(405);
  });

  it('maximum_compatibility: on the first image after a start, every 8th on the 1-bit OG, and when the frame’s marks change; never on 4 greys and up', async () => {
    const { url, publish } = await serve();
    const flags: Array<boolean | undefined> = [];
    const xFlags: Array<boolean | undefined> = [];
    for (let n = 1; n <= 10; n++) {
      await publish(update(hallway, 10 + n, { rec: rec({ outfit: `Outfit number ${n}.` }) }));
      flags.push((await fetchImage(url, wake(devs.og, 'og', 800, 480))).j.maximum_compatibility);
      xFlags.push((await fetchImage(url, wake(devs.x, 'x', 1872, 1404))).j.maximum_compatibility);
      // A wake with nothing new: the firmware redraws nothing, so nothing is counted or asked.
      expect((await fetchImage(url, wake(devs.og, 'og', 800, 480))).j.maximum_compatibility).toBeUndefined();
    }
    expect(flags).toEqual([
      true,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      true,
      undefined,
    ]);
    expect(xFlags.every((f) => f === undefined)).toBe(true);
    // The stale badge appears: a full refresh at once, so it does not ghost when it goes.
    await publish(update(hallway, 30, { rec: rec({ outfit: 'Outfit number 10.' }), stale: true }));
    expect((await fetchImage(url, wake(devs.og, 'og', 800, 480))).j.maximum_compatibility).toBe(true);
    await publish(update(hallway, 31, { rec: rec({ outfit: 'Outfit number 11.' }) }));
    expect((await fetchImage(url, wake(devs.og, 'og', 800, 480))).j.maximum_compatibility).toBe(true);
  });

  it('what each device said is kept: state.json and the status page show battery, charging, sensors and the screen drawn for', async () => {
    const { url, publish } = await serve();
    await publish(update(hallway, 4, { rec: rec() }));
    const sensors =
      'make=Sensirion;model=SCD41;kind=carbon_dioxide;value=612;unit=parts_per_million;created_at=1767225600,make=Sensirion;model=SCD41;kind=temperature;value=21.500000;unit=celsius;created_at=1767225600';
    await fetchImage(
      url,
      wake(devs.x, 'x', 1872, 1404, {
        'Percent-Charged': '82',
        'Battery-Charging': '1',
        'USB-Connected': 'true',
        SENSORS: sensors,
      }),
    );
    const state = (await httpRequest(`${url}/displays/hallway/state.json`)).json<{
      devices: Array<Record<string, unknown>>;
    }>();
    expect(state.devices).toEqual([
      expect.objectContaining({
        key: 'trmnl-aabbcc000001',
        model: 'x',
        panel: 'trmnl-x',
        battery_pct: 82,
        battery_voltage: 3.95,
        charging: true,
        usb_power: true,
        rssi: -58,
        fw_version: '1.7.2',
        wake_reason: 'timer',
        sensors: { carbon_dioxide: 612, temperature: 21.5 },
        available: true,
      }),
    ]);
    const page = (await httpRequest(`${url}/`)).text();
    expect(page).toContain('TRMNL X AA:BB:CC:00:00:01');
    expect(page).toContain('Battery 82 %, 3.95 V, charging');
    expect(page).toContain('carbon dioxide 612 ppm');
    expect(page).toContain('temperature 21.5 °C');
    expect(page).toContain('drawn for trmnl-x');
  });
});
