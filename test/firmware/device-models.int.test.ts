import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { Device } from '../../display/firmware/device.js';
import { runSimulator } from '../../display/firmware/run.js';
import { simModel, type SimModel } from '../../display/firmware/sim-models.js';
import { pressesOf, type SimSummary } from '../../display/firmware/sim-output.js';
import type { FetchOutcome, Transport } from '../../display/firmware/transport.js';
import { HttpTransport } from '../../display/firmware/transport-http.js';
import { TrmnlTransport } from '../../display/firmware/transport-trmnl.js';
import { parsedSimulatedConfig } from '../helpers/parsed-simulated-config.js';
import { HttpPublisher } from '../../src/http/http-publisher.js';
import { loadPanel } from '../../src/panels/panels.js';
import { DeviceBook } from '../../src/state/device-book.js';
import type { Clock } from '../../src/time/clock.js';
import { clockAt, FakeClock } from '../helpers/fake-clock.js';
import { testViews, type ShownState } from '../helpers/views.js';
import { display } from '../fixtures/display.js';
import { update } from '../fixtures/frames.js';

/**
 * The simulator plays each device: against the real HttpPublisher over real HTTP, each model
 * sends its Model and screen, gets an image for that screen and shows it on that glass; a Kindle's battery, a
 * press of the button and a room sensor reach the server's device book.
 */

const rgba = (png: Buffer): Buffer => PNG.sync.read(png).data;
const MAC = 'AA:BB:CC:00:11:33';
const TOKEN = 'model-token-0123456789';

describe('the simulator plays each device', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  async function server(panel = 'trmnl', refresh?: (id: string) => Promise<{ refused?: boolean } | null>) {
    const clock = new FakeClock(Date.parse('2026-01-31T07:00:00.000Z'), { sleepsPass: true });
    const hallway = display('hallway', { panel });
    const book = new DeviceBook({ clock: clockAt(() => clock.now()) });
    cleanup.push(() => Promise.resolve(book.close()));
    const pViews = testViews({
      displays: [hallway],
      clock: clockAt(() => clock.now()),
      nextUpdateAt: () => new Date(clock.now() + 20 * 60_000),
    });
    const p = new HttpPublisher({
      listen: '127.0.0.1:0',
      displays: [hallway],
      views: pViews.views,
      timezone: 'Europe/Berlin',
      clock: clockAt(() => clock.now()),
      trmnlDevices: [{ mac: MAC, display: 'hallway' }],
      trmnlTokens: new Map([[MAC, TOKEN]]),
      devices: book,
      ...(refresh !== undefined && { refresh }),
    });
    await p.start();
    cleanup.push(() => p.stop());
    p.pairing.open([MAC]);
    const publish = (state: ShownState): Promise<void> => p.publish(pViews.show(state));
    return { p, publish, url: p.url!, clock, book, hallway };
  }

  /** A device of `model` as runSimulator builds it, without the files. */
  function trmnlDevice(
    m: SimModel,
    url: string,
    clock: Clock,
    extra: Partial<ConstructorParameters<typeof Device>[0]> = {},
  ): Device {
    const panel = loadPanel(m.model.panel);
    return new Device({
      panel,
      width: panel.width,
      height: panel.height,
      transport: new TrmnlTransport({ baseUrl: url, mac: MAC }),
      clock,
      maxImageBytes: m.model.maxBytes,
      power: m.power,
      model: m.header!,
      firmware: { percentCharged: m.percentCharged, charging: false, usbConnected: false },
      ...extra,
    });
  }

  /** The image the server serves a device of `model` now, as the device downloads it. */
  async function currentImage(url: string, model: string, width: number, height: number): Promise<Buffer> {
    const auth = { ID: MAC, 'Access-Token': TOKEN };
    const screen = (await (
      await fetch(`${url}/api/current_screen`, {
        headers: { ...auth, Model: model, Width: String(width), Height: String(height) },
      })
    ).json()) as { image_url: string };
    return Buffer.from(await (await fetch(screen.image_url, { headers: auth })).arrayBuffer());
  }

  it(
    'TRMNL X: sends Model x, 1872x1404 and Percent-Charged; gets a 1872x1404 grey image, and the glass equals it',
    { timeout: 30_000 },
    async () => {
      const { publish, url, clock, book, hallway } = await server();
      await publish(update(hallway, 1));
      const d = trmnlDevice(simModel('x')!, url, clock);
      const w = await d.wake();
      expect(w).toMatchObject({
        outcome: 'refreshed',
        refresh: 'full',
        refresh_ms: 1500,
        new_frame: true,
        image: { width: 1872, height: 1404 },
      });
      expect(w.image!.bit_depth).toBeLessThanOrEqual(4);
      const served = await currentImage(url, 'x', 1872, 1404);
      expect(PNG.sync.read(served)).toMatchObject({ width: 1872, height: 1404 });
      expect(rgba(d.panel.glassPng()).equals(rgba(served))).toBe(true);
      expect(book.get('hallway', `trmnl-${MAC.replaceAll(':', '').toLowerCase()}`)).toMatchObject({
        model: 'x',
        panel: 'trmnl-x',
        batteryPct: 100,
        charging: false,
        usbPower: false,
        wakeReason: 'timer',
      });
    },
  );

  it('og_plus gets a 2-bit image, always a full refresh; og gets 1-bit and honours maximum_compatibility', async () => {
    const { p, publish, url, clock, book, hallway } = await server();
    await publish(update(hallway, 1));
    const plus = trmnlDevice(simModel('og_plus')!, url, clock);
    expect(await plus.wake()).toMatchObject({
      refresh: 'full',
      refresh_ms: 3500,
      image: { width: 800, height: 480, bit_depth: 2 },
    });
    expect(rgba(plus.panel.glassPng()).equals(rgba(await currentImage(url, 'og_plus', 800, 480)))).toBe(true);
    // Percent-Charged is the X's alone: the OG's percent comes from its voltage.
    expect(book.list('hallway')[0]).toMatchObject({
      model: 'og_plus',
      panel: 'trmnl-4grey',
      batteryPct: 100,
      charging: false,
    });

    // The same MAC pairs again as another board.
    p.pairing.open([MAC]);
    const og = trmnlDevice(simModel('og')!, url, clock);
    expect(await og.wake()).toMatchObject({ refresh: 'full', image: { bit_depth: 1 } });
    await publish(update(hallway, 2));
    expect(await og.wake()).toMatchObject({ refresh: 'partial', new_frame: true });
    // A frame whose marks change (now stale) is answered with maximum_compatibility: full, though partial was due.
    await publish(update(hallway, 3, { stale: true }));
    const forced = await og.wake();
    expect(forced).toMatchObject({ refresh: 'full', partials_since_full: 0, new_frame: true });
    expect(forced.note).toContain('maximum_compatibility');
  });

  it('a Kindle asks frame.png?batteryLevel=N&isCharging=No: its battery reaches the DeviceBook and falls with each wake', async () => {
    const { publish, url, clock, book, hallway } = await server('kindle-paperwhite');
    const u = update(hallway, 1);
    await publish(u);
    const m = simModel('kindle')!;
    const panel = loadPanel(m.model.panel);
    const d = new Device({
      panel,
      width: 1072,
      height: 1448,
      transport: new HttpTransport({ baseUrl: url, displayId: 'hallway', kindle: true }),
      clock,
      maxImageBytes: m.model.maxBytes,
      power: m.power,
      startPct: 57,
    });
    const w1 = await d.wake();
    expect(w1).toMatchObject({ outcome: 'refreshed', image: { width: 1072, height: 1448, bit_depth: 8 } });
    expect(rgba(d.panel.glassPng()).equals(rgba(u.frame.png))).toBe(true);
    expect(book.get('hallway', 'kindle')).toMatchObject({ kind: 'kindle', batteryPct: 57, charging: false });
    // Many wakes later the level the Kindle reports has fallen, as the power model says.
    let last = w1;
    for (let i = 0; i < 40; i++) last = await d.wake();
    expect(last.battery_pct).toBeLessThan(57);
    expect(book.get('hallway', 'kindle')!.batteryPct).toBeLessThan(57);
  });

  it('--button: wake K is a press (Update-Source: button), its record says the new frame came on that wake', async () => {
    let published: Promise<void> | null = null;
    const s = await server('trmnl', (id) => {
      expect(id).toBe('hallway');
      published = s.publish(update(s.hallway, 2));
      return published.then(() => ({}));
    });
    await s.publish(update(s.hallway, 1));
    const d = trmnlDevice(simModel('og')!, s.url, s.clock, { buttonWakes: new Set([3]) });
    const [w1, w2, w3] = [await d.wake(), await d.wake(), await d.wake()];
    expect([w1.wake_reason, w2.wake_reason, w3.wake_reason]).toEqual(['timer', 'timer', 'button']);
    expect(w2).toMatchObject({ new_frame: false, press: null });
    expect(w3).toMatchObject({ press: { new_frame: 'this_wake' }, new_frame: true, refresh: 'partial' });
    expect(published).not.toBeNull();
    expect(s.book.list('hallway')[0]!.wakeReason).toBe('button');
  });

  it('a press answered "still running" (refresh_rate 30): next_wake, settled by the wake after it', async () => {
    const hallway = display('hallway');
    const frames = [update(hallway, 1).frame.png, update(hallway, 2).frame.png];
    // The daemon's answer to a press whose purchase outlasts its 8 s wait (button-press.ts), without waiting 8 s.
    const answers: FetchOutcome[] = [
      {
        kind: 'image',
        bytes: frames[0]!,
        contentType: 'image/png',
        filename: 'outfit-1',
        downloaded: true,
        refreshRateS: 1800,
        note: '',
      },
      { kind: 'unchanged', refreshRateS: 30, note: 'still running' },
      {
        kind: 'image',
        bytes: frames[1]!,
        contentType: 'image/png',
        filename: 'outfit-2',
        downloaded: true,
        refreshRateS: 1800,
        note: '',
      },
    ];
    const reasons: string[] = [];
    const transport: Transport = {
      via: 'trmnl',
      fetch: (info) => {
        reasons.push(info.wakeReason);
        return Promise.resolve(answers.shift()!);
      },
      close: () => Promise.resolve(),
    };
    const d = new Device({
      panel: loadPanel('trmnl'),
      width: 800,
      height: 480,
      transport,
      clock: new FakeClock(Date.parse('2026-01-31T07:00:00.000Z'), { sleepsPass: true }),
      maxImageBytes: 90_000,
      buttonWakes: new Set([2]),
    });
    const records = [await d.wake(), await d.wake(), await d.wake()];
    expect(reasons).toEqual(['timer', 'button', 'timer']);
    expect(records[1]).toMatchObject({ press: { new_frame: 'next_wake' }, sleep_s: 30, new_frame: false });
    expect(records[2]).toMatchObject({ press: null, after_press: { new_frame: true }, new_frame: true });
    expect(pressesOf(records)).toEqual([{ wake: 2, new_frame: 'next_wake' }]);
    // Had the next wake brought nothing, the press came to nothing.
    expect(pressesOf([records[0]!, records[1]!, { ...records[2]!, after_press: { new_frame: false } }])).toEqual([
      { wake: 2, new_frame: 'none' },
    ]);
  });

  it('--sensors reach the book in the firmware format (temperature, humidity, carbon_dioxide)', async () => {
    const { publish, url, book, hallway } = await server();
    await publish(update(hallway, 1));
    const out = await mkdtemp(path.join(tmpdir(), 'outfit-sim-models-'));
    cleanup.push(() => rm(out, { recursive: true, force: true }));
    const config = parsedSimulatedConfig({
      displays: [{ id: 'hallway', lat: 52.5, lon: 13.4, panel: 'trmnl' }],
      trmnl: { devices: [{ mac: MAC, display: 'hallway', token: TOKEN }] },
    });
    const r = await runSimulator({
      config,
      displayId: 'hallway',
      model: simModel('reterminal_e1001')!,
      sensors: [
        { key: 'temperature', value: 21.5 },
        { key: 'humidity', value: 40 },
        { key: 'co2', value: 612 },
      ],
      buttonWakes: [1],
      wakes: 2,
      outDir: out,
      baseUrl: url,
      clock: new FakeClock(Date.parse('2026-01-31T07:00:00.000Z'), { sleepsPass: true }),
    });
    expect(r.summary).toMatchObject({
      model: 'reterminal_e1001',
      panel: 'trmnl-4grey',
      wakes: 2,
      new_frames: 1,
      presses: [{ wake: 1, new_frame: 'this_wake' }],
    });
    expect(book.list('hallway')[0]!.sensors).toEqual([
      { kind: 'temperature', value: 21.5, unit: '°C', source: 'Sensirion SCD41' },
      { kind: 'humidity', value: 40, unit: '%', source: 'Sensirion SCD41' },
      { kind: 'carbon_dioxide', value: 612, unit: 'ppm', source: 'Sensirion SCD41' },
    ]);
    const summary = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8')) as SimSummary;
    expect(summary.presses).toEqual([{ wake: 1, new_frame: 'this_wake' }]);
  });
});
