import { describe, expect, it } from 'vitest';
import { DisplaySchema } from '../../src/config/schema.js';
import { openButtonLines } from '../../src/epd/button-lines.js';
import { PanelPublisher } from '../../src/epd/panel-publisher.js';
import { PanelStatusBook } from '../../src/state/panel-status.js';
import { builtForAnotherNode } from '../../src/epd/bus-errors.js';
import type { EpdError } from '../../src/epd/epd-error.js';
import { BUTTON_DEBOUNCE_MS, BUTTON_POLL_MS, PanelButtons } from '../../src/epd/panel-buttons.js';
import type { AttachedConfig, ButtonActionConfig } from '../../src/config/schema.js';
import type { PanelProblem } from '../../src/state/panel-status.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { fakeGpiod } from '../helpers/fake-gpiod.js';

/**
 * The buttons' lines through a stand-in for node-libgpiod (the header this machine lacks): inputs with the pull-up on
 * the Inky's pins, released on stop, each failure with its code and fix; and through the real node-libgpiod on this
 * machine, which has no GPIO chip of a Pi's header.
 */

const PULL_UP = 1 << 5;
const INKY_PINS = [
  { key: 'a', pin: 5 },
  { key: 'b', pin: 6 },
  { key: 'c', pin: 16 },
  { key: 'd', pin: 24 },
] as const;

const attached = (buttons: AttachedConfig['buttons'], more: Partial<AttachedConfig> = {}): AttachedConfig => ({
  pins: {},
  spi_device: '/dev/spidev0.0',
  min_interval_s: 180,
  full_refresh_hours: 24,
  buttons,
  ...more,
});

describe('openButtonLines', () => {
  it("takes each button's line as an input with the pull-up, and releases them all", async () => {
    const g = fakeGpiod();
    const lines = await openButtonLines({ pins: INKY_PINS, importer: g.importer });
    expect(g.requests).toEqual(
      INKY_PINS.map(({ pin }) => ({ pin, consumer: 'outfit-display-buttons', flags: PULL_UP })),
    );
    g.set(16, 0);
    expect(lines.read()).toEqual([
      { key: 'a', level: 1 },
      { key: 'b', level: 1 },
      { key: 'c', level: 0 },
      { key: 'd', level: 1 },
    ]);
    lines.release();
    lines.release();
    expect(g.released).toEqual([5, 6, 16, 24]);
  });

  it('a line in use, forbidden or not on the chip: its code and the key to change; the lines taken are released', async () => {
    for (const [code, want, text] of [
      ['EBUSY', 'E_PANEL_PIN_BUSY', 'attached.buttons.b.pin'],
      ['EACCES', 'E_PANEL_PERMISSION', 'usermod -aG spi,gpio'],
      ['EINVAL', 'E_PANEL_BUS', 'check attached.buttons.b.pin'],
    ] as const) {
      const g = fakeGpiod();
      g.failOn(6, code);
      const err = (await openButtonLines({ pins: INKY_PINS, importer: g.importer }).catch(
        (e: unknown) => e,
      )) as EpdError;
      expect(err).toMatchObject({ code: want });
      expect(err.message).toContain('GPIO 6 (button b)');
      expect(err.message).toContain(text);
      expect(err.message).not.toContain('spi0-0cs');
      expect(g.released).toEqual([5]);
    }
  });

  it("no chip of the Pi's header: E_PANEL_BUS naming attached.gpio_chip", async () => {
    const g = fakeGpiod('gpio-mockup-A');
    const err = await openButtonLines({ pins: INKY_PINS, importer: g.importer }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_PANEL_BUS', message: expect.stringContaining('attached.gpio_chip') });
    expect(g.requests).toEqual([]);
  });

  it('through the real node-libgpiod on this machine (no Pi header): E_PANEL_BUS, no GPIO chip of the header', async () => {
    const loads = await import('node-libgpiod').then(
      () => true,
      (e: unknown) => {
        if (!builtForAnotherNode(e)) throw e;
        return false;
      },
    );
    const err = await openButtonLines({ pins: INKY_PINS }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_PANEL_BUS' });
    if (!loads) return void expect((err as Error).message).toContain('npm rebuild node-libgpiod');
    expect((err as Error).message).toMatch(/no GPIO chip of the Pi's header found/);
  });
});

/** The log's lines, parsed. */
const linesOf = (text: string): Array<Record<string, unknown>> =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('PanelButtons', () => {
  function rig(a: AttachedConfig) {
    const g = fakeGpiod();
    const clock = new FakeClock();
    const log = capturingLogger();
    const pressed: Array<[string, ButtonActionConfig]> = [];
    const problems: PanelProblem[] = [];
    const buttons = new PanelButtons({
      display: { id: 'hall', panel: 'inky-impression-7in3', attached: a },
      onPress: (action, key) => pressed.push([key, action]),
      onProblem: (e) => problems.push(e),
      clock,
      logger: log.logger,
      importer: g.importer,
    });
    return { g, clock, log, pressed, problems, buttons };
  }
  const vote: ButtonActionConfig = { action: 'vote', person: 'anna', vote: 'too_cold' };

  it('a press on the board pin, held, is one action of its button; stop releases the lines and reads no more', async () => {
    const r = rig(attached({ a: vote, c: { action: 'refresh' } }));
    await r.buttons.start();
    expect(r.g.requests.map((q) => q.pin)).toEqual([5, 16]);
    r.g.set(16, 0);
    r.clock.advance(BUTTON_DEBOUNCE_MS + 2 * BUTTON_POLL_MS);
    expect(r.pressed).toEqual([['c', { action: 'refresh' }]]);
    r.clock.advance(5_000);
    expect(r.pressed).toHaveLength(1);
    r.g.set(16, 1);
    r.clock.advance(BUTTON_POLL_MS);
    r.g.set(5, 0);
    r.clock.advance(BUTTON_DEBOUNCE_MS + 2 * BUTTON_POLL_MS);
    expect(r.pressed).toEqual([
      ['c', { action: 'refresh' }],
      ['a', vote],
    ]);
    r.buttons.stop();
    expect(r.g.released).toEqual([5, 16]);
    r.g.set(5, 1);
    r.clock.advance(BUTTON_POLL_MS);
    r.g.set(5, 0);
    r.clock.advance(1_000);
    expect(r.pressed).toHaveLength(2);
    expect(r.problems).toEqual([]);
  });

  it("a button's own pin replaces the board's", async () => {
    const r = rig(attached({ b: { action: 'refresh', pin: 23 } }));
    await r.buttons.start();
    expect(r.g.requests).toEqual([{ pin: 23, consumer: 'outfit-display-buttons', flags: PULL_UP }]);
    r.buttons.stop();
  });

  it('a line that cannot be taken is a problem, logged with its code, not a throw', async () => {
    const r = rig(attached({ a: vote, b: { action: 'refresh' } }));
    r.g.failOn(6, 'EBUSY');
    await r.buttons.start();
    expect(r.problems.map((p) => p.code)).toEqual(['E_PANEL_PIN_BUSY']);
    expect(r.g.released).toEqual([5]);
    expect(
      linesOf(r.log.text()).some((l) => l.code === 'E_PANEL_PIN_BUSY' && l.level === 50 && l.err !== undefined),
    ).toBe(true);
  });

  it('lines that stop answering are a problem, and are given up', async () => {
    const r = rig(attached({ a: vote }));
    await r.buttons.start();
    r.g.breakReads();
    r.clock.advance(BUTTON_POLL_MS);
    expect(r.problems.map((p) => p.code)).toEqual(['E_PANEL_BUS']);
    expect(r.g.released).toEqual([5]);
  });

  it('a capture bus has no header: no line is taken, W_PANEL_BUTTONS_CAPTURE once', async () => {
    const r = rig(attached({ a: vote }, { capture: '/tmp/none.jsonl' }));
    await r.buttons.start();
    expect(r.g.requests).toEqual([]);
    expect(linesOf(r.log.text()).filter((l) => l.code === 'W_PANEL_BUTTONS_CAPTURE')).toHaveLength(1);
    expect(r.problems).toEqual([]);
  });
});

describe("the panel publisher's buttons", () => {
  it("a line that cannot be taken is the panel's problem in the status book; those taken before it are released once", async () => {
    const display = DisplaySchema.parse({
      id: 'hall',
      lat: 52.5,
      lon: 13.4,
      panel: 'inky-impression-7in3',
      attached: { spi_device: '/dev/spidev9.9', buttons: { a: { action: 'refresh' }, b: { action: 'refresh' } } },
    });
    const status = new PanelStatusBook();
    const g = fakeGpiod();
    g.failOn(6, 'EACCES');
    const publisher = new PanelPublisher({
      displays: [display],
      clock: new FakeClock(),
      logger: capturingLogger().logger,
      status,
      onButton: () => undefined,
      importer: g.importer,
    });
    await publisher.start();
    expect(status.get('hall')?.problem).toMatchObject({
      code: 'E_PANEL_PERMISSION',
      message: expect.stringContaining('GPIO 6 (button b)'),
    });
    expect(g.released).toEqual([5]);
    await publisher.stop();
    expect(g.released).toEqual([5]);
  });
});
