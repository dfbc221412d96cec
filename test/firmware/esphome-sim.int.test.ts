import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { runSimulator } from '../../display/firmware/run.js';
import { EsphomeTransport } from '../../display/firmware/transport-esphome.js';
import { parsedSimulatedConfig } from '../helpers/parsed-simulated-config.js';
import type { HttpPublisher } from '../../src/http/http-publisher.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { servePublisher } from '../helpers/serve-publisher.js';
import { display } from '../fixtures/display.js';
import { update } from '../fixtures/frames.js';

/** `simulate --via esphome [--deep-sleep]`: an ESPHome device with our YAML against a real frame server. */

const hallway = display('hallway', { panel: 'waveshare-7in5-v2' });
const desk = display('desk', { panel: 'waveshare-2in9' });
const HALF_HOUR = 1_800_000;

/** 1 where a PNG is dark, as pngjs reads it. */
function dark(png: Buffer): { w: number; h: number; black: number[] } {
  const p = PNG.sync.read(png);
  const black: number[] = [];
  for (let i = 0; i < p.width * p.height; i++) black.push(p.data[i * 4]! < 128 ? 1 : 0);
  return { w: p.width, h: p.height, black };
}

describe('the ESPHome transport of the simulator', () => {
  const started: HttpPublisher[] = [];
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.stop()));
    await Promise.all(cleanup.splice(0).map((f) => f()));
  });

  async function setup() {
    const clock = new FakeClock(Date.parse('2026-01-31T07:00:00.000Z'), { sleepsPass: true });
    // The display updates on the half hour, as a "*/30 * * * *" schedule.
    const s = await servePublisher(
      { displays: [hallway, desk], clock, started },
      { nextUpdateAt: () => new Date(Math.ceil((clock.now() + 1) / HALF_HOUR) * HALF_HOUR) },
    );
    await s.publish(update(hallway, 4));
    await s.publish(update(desk, 6));
    const out = await mkdtemp(path.join(tmpdir(), 'outfit-esphome-'));
    cleanup.push(() => rm(out, { recursive: true, force: true }));
    const config = parsedSimulatedConfig({
      displays: [
        { id: 'hallway', lat: 52.5, lon: 13.4, panel: 'waveshare-7in5-v2' },
        { id: 'desk', lat: 52.5, lon: 13.4, panel: 'waveshare-2in9' },
      ],
    });
    return { s, clock, out, config };
  }

  it.each(['hallway', 'desk'])(
    '%s: the glass shows the frame right side up with black as black; then 304s on the fixed interval',
    async (id) => {
      const { s, clock, out, config } = await setup();
      const r = await runSimulator({
        config,
        displayId: id,
        via: 'esphome',
        wakes: 3,
        outDir: out,
        baseUrl: s.url,
        clock,
      });
      expect(r.records.map((w) => [w.outcome, w.sleep_s])).toEqual([
        ['refreshed', 900],
        ['unchanged', 900],
        ['unchanged', 900],
      ]);
      const glass = dark(await readFile(path.join(out, 'wake-0001.png')));
      const frame = dark(
        await fetch(`${s.url}/displays/${id}/frame.png`)
          .then((x) => x.arrayBuffer())
          .then((b) => Buffer.from(b)),
      );
      expect([glass.w, glass.h]).toEqual([frame.w, frame.h]);
      expect(frame.black.includes(1) && frame.black.includes(0)).toBe(true);
      expect(glass.black).toEqual(frame.black);
    },
  );

  it('--deep-sleep sleeps the served seconds and downloads on every wake (no ETag survives deep sleep)', async () => {
    const { s, clock, out, config } = await setup();
    const r = await runSimulator({
      config,
      displayId: 'hallway',
      via: 'esphome',
      deepSleep: true,
      wakes: 3,
      outDir: out,
      baseUrl: s.url,
      clock,
    });
    // 07:00 → next update 07:30: 1800 s + the 30 s margin; each later wake lands 30 s after an update plus its awake time.
    expect(r.records[0]).toMatchObject({ outcome: 'refreshed', sleep_s: 1830 });
    expect(r.records.every((w) => w.image?.downloaded === true && w.sleep_s > 1700 && w.sleep_s <= 1830)).toBe(true);
  });

  it('with the waveshare_epaper fix on epaper_spi (COLOR_OFF, COLOR_ON) the glass is inverted (the trap)', async () => {
    const { s } = await setup();
    const t = new EsphomeTransport({
      baseUrl: s.url,
      displayId: 'hallway',
      format: 'bmp',
      deepSleep: false,
      draw: { driver: 'epaper_spi', colorOn: 'COLOR_OFF', colorOff: 'COLOR_ON' },
    });
    const o = await t.fetch();
    expect(o.kind).toBe('image');
    const served = Buffer.from(await (await fetch(`${s.url}/displays/hallway/frame.bmp`)).arrayBuffer());
    // Same header, every pixel byte inverted.
    if (o.kind === 'image') expect(o.bytes.subarray(62).every((b, i) => b === (~served[62 + i]! & 0xff))).toBe(true);
  });
});
