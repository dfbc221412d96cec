import { rm } from 'node:fs/promises';
import pinoLogger from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { buildDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { HttpPublisher } from '../../src/http/http-publisher.js';
import { DeviceBook } from '../../src/state/device-book.js';
import type { DisplayViewSource } from '../../src/state/display-views.js';
import { systemClock } from '../../src/time/clock.js';
import { awaySchedule, tempConfig } from '../helpers/cli.js';
import { configYaml } from '../helpers/config-yaml.js';
import { httpRequest } from '../helpers/http-client.js';
import { servePublisher } from '../helpers/serve-publisher.js';
import { shownView } from '../helpers/views.js';
import { display } from '../fixtures/display.js';
import { manualClock } from '../helpers/fake-clock.js';
import { rec } from '../fixtures/rec.js';
import { update } from '../fixtures/frames.js';

/**
 * Item 2 of "devices that speak back": a TRMNL's own button buys a fresh outfit as Home Assistant's button does, through
 * the daemon's refresh gate and the budget's reserve, and the device gets the new frame on that very wake. The daemon
 * runs against the simulated service; the device's requests are made as the firmware makes them.
 */

const MAC = 'AA:BB:CC:DD:EE:51';
const TOKEN = 'button-token-0123456789';

interface DisplayJson {
  filename: string;
  image_url: string;
  refresh_rate: number;
}

const wake = (source: string) => ({
  ID: MAC,
  'Access-Token': TOKEN,
  'Refresh-Rate': '1830',
  'Battery-Voltage': '4.0',
  RSSI: '-60',
  'FW-Version': '1.7.2',
  Model: 'og',
  Width: '800',
  Height: '480',
  'Update-Source': source,
});

describe('the device’s button is a refresh', () => {
  let daemon: Daemon | null = null;
  let dir: string | null = null;
  const started: HttpPublisher[] = [];
  afterEach(async () => {
    await daemon?.stop();
    daemon = null;
    await Promise.all(started.splice(0).map((p) => p.stop()));
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = null;
  });

  async function start(reserve: number) {
    const t = await tempConfig(
      configYaml({
        displays: [{ id: 'hallway', name: 'Hallway', panel: 'trmnl', schedule: awaySchedule() }],
        budget: [`refresh_reserve_credits: ${reserve}`],
        sections: ['trmnl:', '  devices:', `    - mac: "${MAC}"`, '      display: hallway', `      token: ${TOKEN}`],
        logLevel: 'silent',
      }),
    );
    dir = t.dir;
    const loaded = await loadConfig(t.file, { env: {} });
    let d: Daemon | null = null;
    const views: DisplayViewSource = {
      view: (id) => d?.views.view(id) ?? null,
      budget: () => d?.views.budget() ?? null,
    };
    const http = new HttpPublisher({
      listen: '127.0.0.1:0',
      displays: loaded.config.displays,
      views,
      timezone: loaded.config.timezone,
      clock: systemClock,
      refresh: (id) => d?.refresh(id) ?? Promise.resolve(null),
      refreshUnavailable: reserve > 0 ? null : 'refresh is off',
      trmnlDevices: [{ mac: MAC, display: 'hallway' }],
      trmnlTokens: loaded.secrets.trmnlTokens,
      devices: new DeviceBook({ clock: systemClock }),
    });
    started.push(http);
    await http.start();
    d = daemon = await buildDaemon({ loaded, logger: pinoLogger({ level: 'silent' }), publishers: [http] });
    expect((await daemon.runOnce('hallway')).get('hallway')).toMatchObject({ outcome: 'fresh', published: true });
    const ask = async (source: string) =>
      (await httpRequest(`${http.url!}/api/display`, { headers: wake(source) })).json<DisplayJson>();
    const spent = () => daemon!.views.budget()?.spentToday ?? null;
    return { http, ask, spent, daemon };
  }

  it('a press buys once, within the reserve, and the answer to that very wake names the new frame; ten presses buy once', async () => {
    const { ask, spent, daemon: d, http } = await start(30);
    const before = spent();
    const timer = await ask('timer');
    expect(spent()).toBe(before);
    const fetchedBefore = shownView(d.views, 'hallway').rec?.fetched_at;

    const t0 = performance.now();
    const pressed = await ask('button');
    const pressMs = performance.now() - t0;
    expect(spent()).toBe(before! + 3);
    const after = shownView(d.views, 'hallway');
    expect(after.rec?.fetched_at).not.toBe(fetchedBefore);
    // The answer came after the purchase: it names the image of the frame now on the wall.
    const img = await httpRequest(`${http.url!}${new URL(pressed.image_url).pathname}`);
    expect(img.status).toBe(200);
    expect(img.body.equals(after.frame.png)).toBe(true);
    expect(pressed.refresh_rate).toBe(timer.refresh_rate);
    expect(pressMs).toBeLessThan(8_000);

    // A child presses ten more times: the gate's spacing refuses them, nothing more is bought, and the refusal
    // says why where Home Assistant's would (state.json's refresh_refused, the diagnostics).
    for (let i = 0; i < 10; i++) await ask(i % 2 === 0 ? 'button' : 'ext0');
    expect(spent()).toBe(before! + 3);
    const state = (await httpRequest(`${http.url!}/displays/hallway/state.json`)).json<{
      refresh_refused: { message: string } | null;
      devices: Array<{ wake_reason: string }>;
    }>();
    expect(state.refresh_refused?.message).toMatch(/too soon/);
    expect(state.devices[0]?.wake_reason).toBe('ext0');
  });

  it('without a refresh reserve a press buys nothing and says why', async () => {
    const { ask, spent, http } = await start(0);
    const before = spent();
    const pressed = await ask('button');
    expect(pressed.filename).toMatch(/^outfit-/);
    expect(spent()).toBe(before);
    const state = (await httpRequest(`${http.url!}/displays/hallway/state.json`)).json<{
      refresh_refused: { message: string } | null;
    }>();
    expect(state.refresh_refused?.message).toMatch(/refresh_reserve_credits is 0/);
  });
});

describe('a press whose purchase is still running when the answer must go', () => {
  const started: HttpPublisher[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.stop()));
  });

  it('gets the frame it has and comes back in 30 s, where the new frame waits for it', async () => {
    const hallway = display('hallway');
    let release: () => void = () => undefined;
    const purchase = new Promise<void>((r) => (release = r));
    const served = await servePublisher(
      {
        displays: [hallway],
        clock: manualClock(),
        started,
        defaults: {
          trmnlDevices: [{ mac: MAC, display: 'hallway' }],
          trmnlTokens: new Map([[MAC, TOKEN]]),
          refresh: () => purchase.then(() => ({})),
          pressWaitMs: 200,
        },
      },
      { nextUpdateAt: () => new Date('2026-01-31T07:30:00.000Z') },
    );
    await served.publish(update(hallway, 1, { rec: rec() }));
    const first = (await httpRequest(`${served.url}/api/display`, { headers: wake('button') })).json<DisplayJson>();
    expect(first.refresh_rate).toBe(30);
    await served.publish(update(hallway, 2, { rec: rec({ outfit: 'The new outfit.' }) }));
    release();
    const next = (await httpRequest(`${served.url}/api/display`, { headers: wake('timer') })).json<DisplayJson>();
    expect(next.filename).not.toBe(first.filename);
    expect(next.refresh_rate).toBeGreaterThan(60);
  });
});
