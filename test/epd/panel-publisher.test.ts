import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { controllerModel } from '../../display/controllers/index.js';
import { DisplaySchema } from '../../src/config/schema.js';
import { CaptureBus, parseCapture } from '../../src/epd/capture-bus.js';
import { createUc8179Driver } from '../../src/epd/drivers/uc8179.js';
import { PanelPublisher, PANEL_RETRY_MS } from '../../src/epd/panel-publisher.js';
import { panelImageFromPng } from '../../src/epd/panel-image.js';
import { PanelStatusBook } from '../../src/state/panel-status.js';
import type { ShownView } from '../../src/state/display-views.js';
import { loadPanel } from '../../src/panels/panels.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { shownState, testViews } from '../helpers/views.js';

/**
 * The panel publisher drives the real UC8179 driver (Waveshare 7.5" V2) over a capture file; what reached the
 * "glass" is read back through the controller model. Time is the fake clock's: the minimum interval, the daily
 * refresh and the retry after a failure are timers of it.
 */

const PANEL = 'waveshare-7in5-v2';
const FRAMES = path.resolve(import.meta.dirname, 'frames');
const png = (name: string): Buffer => readFileSync(path.join(FRAMES, `${PANEL}-${name}.png`));

/** The daemon's side: the display book the cycle records in, and the views the publishers are handed. */
const side = testViews({ displays: [] });

/** The view of `display` showing the frame `name`, as its cycle hands it to the publishers. */
function update(display: ReturnType<typeof DisplaySchema.parse>, name: string): ShownView {
  const bytes = png(name);
  const frame = {
    width: 800,
    height: 480,
    png: bytes,
    bmp: null,
    raw: Buffer.alloc(0),
    hash: createHash('sha256').update(bytes).digest('hex'),
  };
  return side.show(shownState(display, frame));
}

function setup(
  attached: Record<string, unknown> = {},
  driverFactory?: ConstructorParameters<typeof PanelPublisher>[0]['driverFactory'],
  dir = mkdtempSync(path.join(tmpdir(), 'panel-pub-')),
) {
  const capture = path.join(dir, 'bus.jsonl');
  const display = DisplaySchema.parse({
    id: 'hall',
    lat: 52.5,
    lon: 13.4,
    panel: PANEL,
    attached: { capture, ...attached },
  });
  const clock = new FakeClock();
  const status = new PanelStatusBook();
  const { logger } = capturingLogger();
  const pub = new PanelPublisher({
    displays: [display],
    clock,
    logger,
    status,
    stateDir: path.join(dir, 'state'),
    ...(driverFactory && { driverFactory }),
  });
  /** The glass after every op written so far, and how many refreshes it took. */
  const glass = () => {
    const model = controllerModel(PANEL);
    model.applyAll(parseCapture(readFileSync(capture, 'utf8')));
    return { indices: model.glass(), refreshes: model.refreshes };
  };
  return { dir, display, clock, status, pub, glass };
}

const expected = (name: string) => panelImageFromPng(png(name), loadPanel(PANEL)).indices;

describe('PanelPublisher', () => {
  it('puts a new frame on the glass once, and never the same frame twice', async () => {
    const { display, status, pub, glass } = setup();
    await pub.start();
    await pub.publish(update(display, 'normal'));
    await pub.idle();
    expect(glass().refreshes).toBe(1);
    expect(Buffer.from(glass().indices).equals(Buffer.from(expected('normal')))).toBe(true);
    expect(status.get('hall')).toMatchObject({
      panel: PANEL,
      problem: null,
      lastRefreshAt: new Date(Date.UTC(2026, 0, 1)).toISOString(),
    });
    // The same frame again (a cycle with nothing new): no refresh.
    await pub.publish(update(display, 'normal'));
    await pub.idle();
    expect(glass().refreshes).toBe(1);
    await pub.stop();
  });

  it('keeps the minimum interval: several new frames within it make one refresh, of the newest', async () => {
    const { display, clock, pub, glass } = setup({ min_interval_s: 180 });
    await pub.publish(update(display, 'normal'));
    await pub.idle();
    clock.advance(10_000);
    await pub.publish(update(display, 'long'));
    clock.advance(10_000);
    await pub.publish(update(display, 'error'));
    await pub.idle();
    expect(glass().refreshes).toBe(1);
    clock.advance(159_999);
    await pub.idle();
    expect(glass().refreshes).toBe(1);
    clock.advance(1);
    await pub.idle();
    expect(glass().refreshes).toBe(2);
    expect(Buffer.from(glass().indices).equals(Buffer.from(expected('error')))).toBe(true);
    await pub.stop();
  });

  it('refreshes an unchanged frame again after full_refresh_hours (ghosting)', async () => {
    const { display, clock, pub, glass } = setup({ full_refresh_hours: 24 });
    await pub.publish(update(display, 'normal'));
    await pub.idle();
    clock.advance(24 * 3_600_000 - 1);
    await pub.idle();
    expect(glass().refreshes).toBe(1);
    clock.advance(1);
    await pub.idle();
    expect(glass().refreshes).toBe(2);
    await pub.stop();
  });

  it('a BUSY timeout is a panel problem: the panel is closed, the frame kept and tried again after the retry time', async () => {
    let idle = false;
    const buses: CaptureBus[] = [];
    const { display, clock, status, pub } = setup({}, (o) => {
      // The real driver over a capture bus whose BUSY never goes idle until the test lets it.
      const bus = new CaptureBus({ idle: () => idle });
      buses.push(bus);
      return createUc8179Driver(PANEL, { ...o, bus });
    });
    await pub.publish(update(display, 'normal'));
    await pub.idle();
    expect(status.get('hall')?.problem?.code).toBe('E_PANEL_BUSY_TIMEOUT');
    expect(status.get('hall')?.lastRefreshAt).toBeNull();
    idle = true;
    clock.advance(PANEL_RETRY_MS - 1);
    await pub.idle();
    expect(buses).toHaveLength(1);
    clock.advance(1);
    await pub.idle();
    expect(buses).toHaveLength(2);
    expect(status.get('hall')?.problem).toBeNull();
    expect(status.get('hall')?.lastRefreshAt).not.toBeNull();
    await pub.stop();
  });

  it('a frame of another size is E_PANEL_FRAME, not a refresh', async () => {
    const { display, status, pub } = setup();
    const u = update(display, 'normal');
    const other = readFileSync(path.join(FRAMES, 'waveshare-4in2-normal.png'));
    await pub.publish({ ...u, frame: { ...u.frame, png: other, hash: 'other' } });
    await pub.idle();
    expect(status.get('hall')?.problem?.code).toBe('E_PANEL_FRAME');
    await pub.stop();
  });

  it('powers the panel off on stop: the bus is closed after the deep sleep', async () => {
    let closed = 0;
    const { display, pub } = setup({}, (o) => {
      const bus = new CaptureBus();
      const close = bus.close.bind(bus);
      bus.close = () => {
        closed++;
        return close();
      };
      return createUc8179Driver(PANEL, { ...o, bus });
    });
    await pub.publish(update(display, 'normal'));
    await pub.idle();
    expect(closed).toBe(0);
    await pub.stop();
    expect(closed).toBe(1);
  });

  it('after a restart the frame still on the glass is not refreshed again; a new one is', async () => {
    const first = setup();
    await first.pub.start();
    await first.pub.publish(update(first.display, 'normal'));
    await first.pub.idle();
    await first.pub.stop();
    expect(first.glass().refreshes).toBe(1);

    // The daemon again, same state folder and capture file: the restored frame is what the glass shows.
    const again = setup({}, undefined, first.dir);
    await again.pub.start();
    expect(again.status.get('hall')?.lastRefreshAt).toBe(first.status.get('hall')?.lastRefreshAt);
    await again.pub.publish(update(again.display, 'normal'));
    await again.pub.idle();
    expect(again.glass().refreshes).toBe(1);
    // A new frame: refreshed once the minimum interval since the refresh before the restart has passed.
    await again.pub.publish(update(again.display, 'long'));
    again.clock.advance(180_000);
    await again.pub.idle();
    expect(again.glass().refreshes).toBe(2);
    expect(Buffer.from(again.glass().indices).equals(Buffer.from(expected('long')))).toBe(true);
    await again.pub.stop();
  });
});

describe('PanelPublisher with an Inky Impression (Spectra 6)', () => {
  it("sleeps the panel between refreshes, although Pimoroni's show() leaves it awake", async () => {
    const INKY = 'inky-impression-7in3';
    const dir = mkdtempSync(path.join(tmpdir(), 'panel-pub-inky-'));
    const capture = path.join(dir, 'bus.jsonl');
    const display = DisplaySchema.parse({ id: 'kitchen', lat: 52.5, lon: 13.4, panel: INKY, attached: { capture } });
    const pub = new PanelPublisher({
      displays: [display],
      clock: new FakeClock(),
      logger: capturingLogger().logger,
      status: new PanelStatusBook(),
    });
    await pub.start();
    const bytes = readFileSync(path.join(FRAMES, `${INKY}-normal.png`));
    const frame = {
      width: 800,
      height: 480,
      png: bytes,
      bmp: null,
      raw: Buffer.alloc(0),
      hash: createHash('sha256').update(bytes).digest('hex'),
    };
    await pub.publish(side.show(shownState(display, frame)));
    await pub.idle();
    const ops = parseCapture(readFileSync(capture, 'utf8'));
    // The refresh (0x12), then deep sleep with its check code (0x07 0xA5), and nothing after it until the next frame.
    const refresh = ops.findIndex((op) => op.op === 'cmd' && op.cmd === 0x12);
    expect(refresh).toBeGreaterThan(0);
    expect(ops.at(-1)).toEqual({ op: 'cmd', cmd: 0x07, data: 'a5' });
    const model = controllerModel(INKY);
    model.applyAll(ops);
    expect(model.deepSleep).toBe(true);
    expect(Buffer.from(model.glass()).equals(Buffer.from(panelImageFromPng(bytes, loadPanel(INKY)).indices))).toBe(
      true,
    );
    await pub.stop();
  });
});
