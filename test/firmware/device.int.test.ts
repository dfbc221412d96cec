import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Device, RETRY_LADDER_S } from '../../display/firmware/device.js';
import { runSimulator } from '../../display/firmware/run.js';
import { HttpTransport } from '../../display/firmware/transport-http.js';
import { MqttTransport } from '../../display/firmware/transport-mqtt.js';
import { TrmnlTransport } from '../../display/firmware/transport-trmnl.js';
import { parsedSimulatedConfig } from '../helpers/parsed-simulated-config.js';
import { startEmbeddedBroker } from '../../src/mqtt/broker/embedded-broker.js';
import { HttpPublisher } from '../../src/http/http-publisher.js';
import { DeviceBook, type DeviceEntry } from '../../src/state/device-book.js';
import type { Frame } from '../../src/render/frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import type { Clock } from '../../src/time/clock.js';
import { clockAt, FakeClock } from '../helpers/fake-clock.js';
import { testViews, type ShownState } from '../helpers/views.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { display } from '../fixtures/display.js';
import { update } from '../fixtures/frames.js';

/** RGBA as pngjs (not our decoder) reads it. */
function rgba(png: Buffer): Buffer {
  return PNG.sync.read(png).data;
}

function withPng(f: Frame, png: Buffer): Frame {
  return { ...f, png, hash: createHash('sha256').update(png).digest('hex') };
}

const hallway = display('hallway', { panel: 'trmnl' });
const MAC = 'AA:BB:CC:00:11:22';
const TOKEN = 'device-token-0123456789';

describe('the simulated device against the real HTTP server', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  async function server(tokens = new Map([[MAC, TOKEN]])) {
    const clock = new FakeClock(Date.parse('2026-01-31T07:00:00.000Z'), { sleepsPass: true });
    const telemetry: DeviceEntry[] = [];
    const book = new DeviceBook({ clock: clockAt(() => clock.now()) });
    book.onEvent((e) => {
      if (e.kind === 'report') telemetry.push(e.device);
    });
    const cap = capturingLogger();
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
      // The device's clock dates the frames; the server's own timers stay real (a fast clock's would jump time).
      clock: clockAt(() => clock.now()),
      trmnlDevices: [{ mac: MAC, display: 'hallway' }],
      trmnlTokens: tokens,
      devices: book,
      logger: cap.logger,
    });
    await p.start();
    cleanup.push(() => p.stop());
    // The owner opens pairing (outfit-display pair, the status page), so the device's first wake gets its token.
    p.pairing.open([MAC]);
    /** As a display's cycle does: records its state in the display book, then hands the server the display's view. */
    const publish = (state: ShownState): Promise<void> => p.publish(pViews.show(state));
    return { p, publish, url: p.url!, clock, telemetry, logs: cap.text };
  }

  function device(transport: HttpTransport | TrmnlTransport | MqttTransport, clock: Clock, maxImageBytes = 90_000) {
    return new Device({ panel: loadPanel('trmnl'), width: 800, height: 480, transport, clock, maxImageBytes });
  }

  it('HTTP with ETag: full refresh, 304 unchanged, partial on a new frame; the glass equals the frame', async () => {
    const { publish, url, clock } = await server();
    const d = device(new HttpTransport({ baseUrl: url, displayId: 'hallway' }), clock);
    const u1 = update(hallway, 1);
    await publish(u1);
    const w1 = await d.wake();
    expect(w1).toMatchObject({
      outcome: 'refreshed',
      refresh: 'full',
      refresh_ms: 3000,
      via: 'http',
      image: { format: 'png', bit_depth: 1 },
    });
    expect(w1.sleep_s).toBe(20 * 60 + 30);
    expect(rgba(d.panel.glassPng()).equals(rgba(u1.frame.png))).toBe(true);
    const w2 = await d.wake();
    expect(w2).toMatchObject({ outcome: 'unchanged', refresh: 'none', note: 'HTTP 304 Not Modified' });
    expect(w2.awake_ms).toBeLessThan(w1.awake_ms);
    await publish(update(hallway, 2));
    const w3 = await d.wake();
    expect(w3).toMatchObject({ outcome: 'refreshed', refresh: 'partial', refresh_ms: 600 });
    expect(w3.ghost_max).toBeGreaterThan(0);
    expect(w3.battery_pct).toBeLessThan(100);
  });

  it('corrupt, oversize and wrong-depth frames are refused as the firmware reports them; the glass keeps the last picture', async () => {
    const { publish, url, clock } = await server();
    const d = device(new HttpTransport({ baseUrl: url, displayId: 'hallway' }), clock);
    const good = update(hallway, 1);
    await publish(good);
    await d.wake();
    const glass = d.panel.glassPng();
    const bad: [Buffer, string][] = [
      [Buffer.concat([good.frame.png.subarray(0, 100), Buffer.alloc(50, 7)]), 'PNG_DECODE_ERR'],
      [Buffer.concat([good.frame.png, Buffer.alloc(95_000)]), 'HTTPS_IMAGE_FILE_TOO_BIG'],
      [update(display('g', { panel: 'trmnl-4grey' }), 1).frame.png, 'PNG_BAD_DEPTH'],
      [update(display('s', { panel: 'waveshare-4in2' }), 1).frame.png, 'PNG_BAD_SIZE'],
    ];
    for (const [png, code] of bad) {
      await publish({ ...good, frame: withPng(good.frame, png) });
      const w = await d.wake();
      expect(w.outcome, code).toBe('error');
      expect(w.error?.code).toBe(code);
      expect(d.panel.glassPng().equals(glass)).toBe(true);
    }
    expect(d.wakes).toBe(5);
  });

  it('a server that is down: unable to connect, and the firmware’s retry ladder', async () => {
    const { p, clock } = await server();
    const url = p.url!;
    await p.stop();
    const d = device(new HttpTransport({ baseUrl: url, displayId: 'hallway' }), clock);
    const sleeps: number[] = [];
    for (let i = 0; i < 5; i++) {
      const w = await d.wake();
      expect(w.error?.code).toBe('HTTPS_UNABLE_TO_CONNECT');
      sleeps.push(w.sleep_s);
    }
    expect(sleeps).toEqual([...RETRY_LADDER_S, 900]);
  });

  it('run() sleeps on its Clock for the intended sleep over the speed-up; an abort in the sleep ends the run', async () => {
    const { publish, url } = await server();
    await publish(update(hallway, 1));
    const clock = new FakeClock(Date.parse('2026-01-31T07:00:00.000Z'));
    const d = new Device({
      panel: loadPanel('trmnl'),
      width: 800,
      height: 480,
      transport: new HttpTransport({ baseUrl: url, displayId: 'hallway' }),
      clock,
      maxImageBytes: 90_000,
      speed: 60,
    });
    const ac = new AbortController();
    const seen: string[] = [];
    const run = d.run(Infinity, (r) => seen.push(r.at), ac.signal);
    // 20 min to the next update + 30 s margin, 60 times faster: 20.5 s on the clock.
    await vi.waitFor(() => expect(clock.msToNextTimer()).toBe(20_500));
    expect(seen).toEqual(['2026-01-31T07:00:00.000Z']);
    clock.advance(20_500);
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    await vi.waitFor(() => expect(clock.pendingTimers()).toBe(1));
    expect(seen[1]).toBe('2026-01-31T07:00:20.500Z');
    ac.abort();
    const records = await run;
    expect(records.map((r) => r.n)).toEqual([1, 2]);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('TRMNL: setup, display with telemetry, download, a known filename drawn from flash, logs sent on the next wake', async () => {
    const { publish, url, clock, telemetry, logs } = await server();
    const t = new TrmnlTransport({ baseUrl: url, mac: MAC });
    const d = device(t, clock);
    const u1 = update(hallway, 1);
    await publish(u1);
    const w1 = await d.wake();
    expect(t.registered).toBe(true);
    expect(t.friendlyId).toMatch(/^[0-9A-F]{6}$/);
    expect(w1).toMatchObject({
      via: 'trmnl',
      outcome: 'refreshed',
      refresh: 'full',
      image: { filename: `outfit-${u1.frame.hash.slice(0, 8)}`, downloaded: true },
    });
    expect(w1.sleep_s).toBe(20 * 60 + 30);
    expect(rgba(d.panel.glassPng()).equals(rgba(u1.frame.png))).toBe(true);
    expect(telemetry[0]).toMatchObject({ mac: MAC, batteryVoltage: 4.2, rssi: -58, fwVersion: '1.6.2' });
    const w2 = await d.wake();
    expect(w2).toMatchObject({ outcome: 'unchanged', refresh: 'none', image: { downloaded: false } });
    expect(telemetry).toHaveLength(2);

    // A frame the device refuses is logged by the device and sent on its next wake.
    await publish({ ...u1, frame: withPng(u1.frame, Buffer.concat([u1.frame.png.subarray(0, 60), Buffer.alloc(9)])) });
    expect((await d.wake()).error?.code).toBe('PNG_DECODE_ERR');
    await publish(update(hallway, 2));
    expect(await d.wake()).toMatchObject({ outcome: 'refreshed', refresh: 'partial' });
    expect(logs()).toContain('PNG_DECODE_ERR: could not decode png image');
    expect(logs()).not.toContain(TOKEN);
  });

  it('TRMNL: an unregistered MAC and a revoked token are errors the device survives', async () => {
    const tokens = new Map([[MAC, TOKEN]]);
    const { publish, url, clock } = await server(tokens);
    await publish(update(hallway, 1));
    const stranger = device(new TrmnlTransport({ baseUrl: url, mac: '11:22:33:44:55:66' }), clock);
    expect(await stranger.wake()).toMatchObject({
      outcome: 'error',
      error: { code: 'MAC_NOT_REGISTERED' },
      sleep_s: 15,
    });
    const d = device(new TrmnlTransport({ baseUrl: url, mac: MAC }), clock);
    expect((await d.wake()).outcome).toBe('refreshed');
    tokens.set(MAC, 'a-new-token-9876543210');
    expect(await d.wake()).toMatchObject({
      outcome: 'error',
      error: { code: 'HTTPS_RESPONSE_CODE_INVALID', message: 'HTTP Client failed with error: (403)' },
    });
  });

  it('MQTT: the retained image, then unchanged', async () => {
    const broker = await startEmbeddedBroker({ port: 0 });
    cleanup.push(() => broker.close());
    const clock = new FakeClock(Date.parse('2026-01-31T07:00:00.000Z'), { sleepsPass: true });
    const u = update(hallway, 4);
    const pub = await mqtt.connectAsync(broker.url);
    await pub.publishAsync('od-sim/hallway/image', u.frame.png, { retain: true, qos: 1 });
    await pub.publishAsync(
      'od-sim/hallway/state',
      JSON.stringify({ next_update_at: new Date(clock.now() + 600_000).toISOString() }),
      { retain: true, qos: 1 },
    );
    await pub.endAsync();
    const d = device(new MqttTransport({ url: broker.url, baseTopic: 'od-sim', displayId: 'hallway', clock }), clock);
    const w1 = await d.wake();
    expect(w1).toMatchObject({ via: 'mqtt', outcome: 'refreshed', refresh: 'full', sleep_s: 630 });
    expect(rgba(d.panel.glassPng()).equals(rgba(u.frame.png))).toBe(true);
    expect(await d.wake()).toMatchObject({ outcome: 'unchanged', refresh: 'none' });
  });

  it('runSimulator via MQTT reads next_update_at by the clock it is given, not the system time', async () => {
    const broker = await startEmbeddedBroker({ port: 0 });
    cleanup.push(() => broker.close());
    const clock = new FakeClock(Date.parse('2026-01-31T07:00:00.000Z'), { sleepsPass: true }); // January 2026, far from the real time
    const pub = await mqtt.connectAsync(broker.url);
    await pub.publishAsync('od-clk/hallway/image', update(hallway, 5).frame.png, { retain: true, qos: 1 });
    await pub.publishAsync(
      'od-clk/hallway/state',
      JSON.stringify({ next_update_at: new Date(clock.now() + 600_000).toISOString() }),
      { retain: true, qos: 1 },
    );
    await pub.endAsync();
    const out = await mkdtemp(path.join(tmpdir(), 'outfit-sim-'));
    cleanup.push(() => rm(out, { recursive: true, force: true }));
    const config = parsedSimulatedConfig({
      displays: [{ id: 'hallway', lat: 52.5, lon: 13.4, panel: 'trmnl' }],
      mqtt: { url: broker.url, base_topic: 'od-clk' },
    });
    const result = await runSimulator({ config, displayId: 'hallway', via: 'mqtt', wakes: 1, outDir: out, clock });
    // 10 min to next_update_at + 30 s margin on the device's clock.
    expect(result.records).toMatchObject([{ outcome: 'refreshed', sleep_s: 630 }]);
  });

  it('runSimulator writes a glass PNG and a timeline line a wake', async () => {
    const { publish, url, clock } = await server();
    await publish(update(hallway, 1));
    const out = await mkdtemp(path.join(tmpdir(), 'outfit-sim-'));
    cleanup.push(() => rm(out, { recursive: true, force: true }));
    const config = parsedSimulatedConfig({
      displays: [{ id: 'hallway', lat: 52.5, lon: 13.4, panel: 'trmnl' }],
      trmnl: { devices: [{ mac: MAC, display: 'hallway', token: TOKEN }] },
    });
    const result = await runSimulator({
      config,
      displayId: 'hallway',
      via: 'trmnl',
      wakes: 3,
      outDir: out,
      baseUrl: url,
      clock,
    });
    expect(result).toMatchObject({ refreshed: 1, errors: 0, webUrl: null });
    expect((await readdir(out)).sort()).toEqual([
      'glass.png',
      'summary.json',
      'timeline.jsonl',
      'wake-0001.png',
      'wake-0002.png',
      'wake-0003.png',
    ]);
    const lines = (await readFile(path.join(out, 'timeline.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { n: number; glass: string; refresh: string });
    expect(lines.map((l) => [l.n, l.glass, l.refresh])).toEqual([
      [1, 'wake-0001.png', 'full'],
      [2, 'wake-0002.png', 'none'],
      [3, 'wake-0003.png', 'none'],
    ]);
    expect(result.estBatteryDays).toBeGreaterThan(100);
  });
});
