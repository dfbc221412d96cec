import { describe, expect, it } from 'vitest';
import { Acep7Model } from '../../display/controllers/acep7.js';
import type { ColourControllerModel, ColourProtocolReason } from '../../display/controllers/colour-controller.js';
import type { ModelOp } from '../../display/controllers/protocol-model.js';
import { Spectra6Model } from '../../display/controllers/spectra6.js';
import type { EpdBus, ResetPulse } from '../../src/epd/bus.js';
import { CaptureBus, type CaptureOp } from '../../src/epd/capture-bus.js';
import type { EpdDriver, EpdDriverOptions } from '../../src/epd/driver.js';
import { createAcep7Driver } from '../../src/epd/drivers/acep7.js';
import { createSpectra6Driver } from '../../src/epd/drivers/spectra6.js';
import { EpdError } from '../../src/epd/epd-error.js';
import { loadPanel } from '../../src/panels/panels.js';
import { refusal } from './refusal.js';
import { bytesSent, storedFrame, vendorStream } from './stored-frame.js';

/*
 * The colour panels against their vendors' own Python drivers, RUN under fakes (test/tools/vendor-capture/
 * colour_capture.py) on the frames in test/epd/frames/ (rendered by our renderer):
 *   waveshare-7in3-f      waveshareteam/e-Paper commit 86aa993, RaspberryPi_JetsonNano/python/lib/waveshare_epd/
 *                         epd7in3f.py: init(), display(getbuffer(frame)), sleep()
 *   inky-impression-7in3  pimoroni/inky commit 07035b3, inky/inky_e673.py: set_image(frame), show()
 * The stored streams are test/epd/vendor/<panel>-<frame>.jsonl.gz.
 */

const CASES = ['normal', 'long', 'error'] as const;

interface Family {
  panelId: string;
  create: (o: EpdDriverOptions) => EpdDriver;
  model: () => ColourControllerModel;
  /** The RAM value of each colour, as the vendor's code names them (epd7in3f.py comments; inky_e673.py constants). */
  native: Record<string, number>;
  /** Bytes on the wire for one full refresh: command bytes + data bytes (192,000 of them the frame). */
  bytes: number;
  /** Whether the vendor's stream ends in deep sleep. */
  sleeps: boolean;
}

const FAMILIES: Family[] = [
  {
    panelId: 'waveshare-7in3-f',
    create: (o) => createAcep7Driver('waveshare-7in3-f', o),
    model: () => new Acep7Model({ panel: loadPanel('waveshare-7in3-f') }),
    native: { black: 0, white: 1, green: 2, blue: 3, red: 4, yellow: 5, orange: 6 },
    bytes: 192_074,
    sleeps: true,
  },
  {
    panelId: 'inky-impression-7in3',
    create: (o) => createSpectra6Driver('inky-impression-7in3', o),
    model: () => new Spectra6Model({ panel: loadPanel('inky-impression-7in3') }),
    native: { black: 0, white: 1, yellow: 2, red: 3, blue: 5, green: 6 },
    bytes: 192_062,
    sleeps: false,
  },
];

async function error(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => null,
    (e: unknown) => e,
  );
}

describe.each(FAMILIES)('$panelId', (f) => {
  it.each(CASES)(
    'the first full refresh of the %s frame is the vendor stream, op for op, and the model shows the frame',
    async (c) => {
      const image = storedFrame(f.panelId, c);
      const bus = new CaptureBus();
      await f.create({ bus }).showFull(image);
      const reference = vendorStream(f.panelId, c);
      expect(bus.ops.length).toBe(reference.length);
      bus.ops.forEach((op, i) => expect(op, `op ${i}`).toEqual(reference[i]));
      expect(bytesSent(bus.ops)).toBe(f.bytes);

      const model = f.model();
      model.applyAll(bus.ops);
      expect(model.refreshes).toBe(1);
      expect(model.powered).toBe(false);
      expect(model.deepSleep).toBe(f.sleeps);
      expect(Buffer.from(model.glass()).equals(Buffer.from(image.indices))).toBe(true);
    },
  );

  it('the frames differ, so a stream that ignored the picture would not pass', () => {
    expect(
      Buffer.from(storedFrame(f.panelId, 'normal').indices).equals(
        Buffer.from(storedFrame(f.panelId, 'error').indices),
      ),
    ).toBe(false);
    expect(vendorStream(f.panelId, 'normal')).not.toEqual(vendorStream(f.panelId, 'error'));
  });

  it("packs two pixels a byte, left in the high nibble, each colour as the controller's own value", async () => {
    const panel = loadPanel(f.panelId);
    // Row 0 holds every colour in palette order, each next to white; the rest is white.
    const white = panel.palette.findIndex((e) => e.name === 'white');
    const indices = new Uint8Array(panel.width * panel.height).fill(white);
    panel.palette.forEach((_e, i) => (indices[2 * i] = i));
    const bus = new CaptureBus();
    await f.create({ bus }).showFull({ width: panel.width, height: panel.height, indices });
    const ram = bus.ops.find((op): op is Extract<CaptureOp, { op: 'cmd' }> => op.op === 'cmd' && op.cmd === 0x10)!.data;
    const expected = panel.palette
      .map((e) => (f.native[e.name]! * 16 + f.native.white!).toString(16).padStart(2, '0'))
      .join('');
    expect(ram.slice(0, expected.length)).toBe(expected);
    expect(ram.length).toBe(panel.width * panel.height);
    expect(Object.keys(f.native).sort()).toEqual(panel.palette.map((e) => e.name).sort());
  });

  it('a BUSY that stays busy on the refresh ends in E_PANEL_BUSY_TIMEOUT, the panel put to deep sleep; the next try is the whole stream', async () => {
    // Idle for every wait but the first one after the refresh command (0x12).
    let stuckOnce = true;
    const stuck = (ops: readonly CaptureOp[]): boolean => {
      const before = ops.at(-2);
      return before?.op === 'cmd' && before.cmd === 0x12 && stuckOnce;
    };
    const waits: number[] = [];
    const bus: CaptureBus = new CaptureBus({
      idle: (w) => {
        waits.push(w.timeoutMs);
        expect(w.busyWhen).toBe('low');
        if (!stuck(bus.ops)) return true;
        stuckOnce = false;
        return false;
      },
    });
    const driver = f.create({ bus });
    const err = await error(driver.showFull(storedFrame(f.panelId, 'normal')));
    expect(err).toBeInstanceOf(EpdError);
    expect((err as EpdError).code).toBe('E_PANEL_BUSY_TIMEOUT');
    expect((err as EpdError).message).toContain(f.panelId);
    expect(bus.ops.slice(-3)).toEqual([{ op: 'busy' }, { op: 'reset' }, { op: 'cmd', cmd: 0x07, data: 'a5' }]);
    // The refresh wait has the long timeout; the waits before it the short one.
    expect(waits).toEqual([10_000, 10_000, 120_000]);
    expect((err as EpdError).message).toMatch(/refresh \(0x12\), for 120000 ms/);
    // The model takes that ending, the stuck wait left out: the reset ends the busy refresh, and the panel sleeps.
    const ended = bus.ops.filter((_op, i) => i !== bus.ops.length - 3);
    const model = f.model();
    model.applyAll(ended);
    expect(model.deepSleep).toBe(true);
    // Without the reset, the deep-sleep command would come while BUSY, which the chip does not take.
    expect(() => f.model().applyAll(ended.filter((op, i) => !(op.op === 'reset' && i > 0)))).toThrow(
      /command-while-busy/,
    );
    // The same driver tries again from a reset: the vendor stream once more.
    const next = bus.ops.length;
    await driver.showFull(storedFrame(f.panelId, 'normal'));
    expect(bus.ops.slice(next)).toEqual(vendorStream(f.panelId, 'normal'));
  });

  it("makes the vendor's pauses: the Inky's 0.3 s before each command, the 7.3\" F's reset timing and 2 s after deep sleep", async () => {
    const pauses: number[] = [];
    const resets: ResetPulse[] = [];
    const bus = new CaptureBus();
    const spy: EpdBus = {
      reset: (p) => (resets.push(p), bus.reset(p)),
      command: (c, d) => bus.command(c, d),
      waitIdle: (w) => bus.waitIdle(w),
      delay: (ms) => (pauses.push(ms), Promise.resolve()),
      close: () => bus.close(),
    };
    await f.create({ bus: spy }).showFull(storedFrame(f.panelId, 'normal'));
    expect(bus.ops).toEqual(vendorStream(f.panelId, 'normal'));
    const commands = vendorStream(f.panelId, 'normal').filter((op) => op.op === 'cmd').length;
    if (f.panelId === 'inky-impression-7in3') {
      expect(pauses).toEqual(Array<number>(commands).fill(300));
      expect(resets).toEqual([{ highMs: 0, lowMs: 30, afterMs: 30 }]);
    } else {
      expect(pauses).toEqual([30, 2000]);
      expect(resets).toEqual([{ highMs: 20, lowMs: 2, afterMs: 20 }]);
    }
  });

  it('busyTimeoutMs applies to every wait', async () => {
    const waits: number[] = [];
    const bus = new CaptureBus({ idle: (w) => (waits.push(w.timeoutMs), true) });
    await f.create({ bus, busyTimeoutMs: 50 }).showFull(storedFrame(f.panelId, 'long'));
    expect(new Set(waits)).toEqual(new Set([50]));
  });

  it('clear() sends every pixel white and leaves the panel in deep sleep; the model shows white', async () => {
    const bus = new CaptureBus();
    await f.create({ bus }).clear();
    const ram = bus.ops.find((op): op is Extract<CaptureOp, { op: 'cmd' }> => op.op === 'cmd' && op.cmd === 0x10)!;
    expect(/^(11)+$/.test(ram.data) && ram.data.length === 2 * 192_000).toBe(true);
    expect(bus.ops.at(-1)).toEqual({ op: 'cmd', cmd: 0x07, data: 'a5' });
    const model = f.model();
    model.applyAll(bus.ops);
    const white = loadPanel(f.panelId).palette.findIndex((e) => e.name === 'white');
    expect(model.glass().every((v) => v === white)).toBe(true);
    expect(model.deepSleep).toBe(true);
  });

  it('refuses a frame of another size or palette with E_PANEL_FRAME and sends nothing', async () => {
    const bus = new CaptureBus();
    const driver = f.create({ bus });
    await expect(
      driver.showFull({ width: 480, height: 800, indices: new Uint8Array(480 * 800) }),
    ).rejects.toMatchObject({ code: 'E_PANEL_FRAME' });
    const n = loadPanel(f.panelId).palette.length;
    await expect(
      driver.showFull({ width: 800, height: 480, indices: new Uint8Array(800 * 480).fill(n) }),
    ).rejects.toMatchObject({ code: 'E_PANEL_FRAME' });
    expect(bus.ops).toEqual([]);
  });
});

describe('deep sleep between refreshes', () => {
  it('the Inky: show() leaves the controller powered off, sleep() adds deep sleep once, and the next frame wakes it with a reset', async () => {
    const bus = new CaptureBus();
    const driver = createSpectra6Driver('inky-impression-7in3', { bus });
    await driver.showFull(storedFrame('inky-impression-7in3', 'normal'));
    const shown = bus.ops.length;
    await driver.sleep();
    await driver.sleep();
    await driver.close();
    expect(bus.ops.slice(shown)).toEqual([{ op: 'cmd', cmd: 0x07, data: 'a5' }]);
    await driver.showFull(storedFrame('inky-impression-7in3', 'error'));
    expect(bus.ops[shown + 1]).toEqual({ op: 'reset' });
    const model = new Spectra6Model({ panel: loadPanel('inky-impression-7in3') });
    model.applyAll(bus.ops);
    expect(model.refreshes).toBe(2);
    expect(Buffer.from(model.glass()).equals(Buffer.from(storedFrame('inky-impression-7in3', 'error').indices))).toBe(
      true,
    );
  });

  it('the 7.3" F: display() then sleep() is already deep sleep; sleep() and close() send nothing more', async () => {
    const bus = new CaptureBus();
    const driver = createAcep7Driver('waveshare-7in3-f', { bus });
    await driver.showFull(storedFrame('waveshare-7in3-f', 'normal'));
    const n = bus.ops.length;
    await driver.sleep();
    await driver.close();
    expect(bus.ops.length).toBe(n);
  });

  it('a driver asked for another panel refuses', () => {
    expect(() => createAcep7Driver('inky-impression-7in3', { bus: new CaptureBus() })).toThrow(
      /not a ACeP|not an? ACeP/,
    );
    expect(() => createSpectra6Driver('waveshare-7in3-f', { bus: new CaptureBus() })).toThrow(/Spectra 6/);
  });
});

describe('the colour controller models refuse what the hardware would not take', () => {
  const cmd = (c: number, data = ''): ModelOp => ({ op: 'cmd', cmd: c, data });
  const awake: ModelOp[] = [{ op: 'reset' }, { op: 'busy' }];
  const powered: ModelOp[] = [...awake, cmd(0x04), { op: 'busy' }];
  const frame = (byte: string): ModelOp => cmd(0x10, byte.repeat(192_000));

  describe.each(FAMILIES)('$panelId', (f) => {
    it.each<[string, ModelOp[], ColourProtocolReason]>([
      ['data before a command', [...awake, { op: 'data', data: '11' }], 'data-before-command'],
      ['data to a command that takes none', [...awake, cmd(0x04, '00')], 'data-without-command'],
      ['too few data bytes', [...awake, cmd(0x00, '5f')], 'incomplete-data'],
      ['a command before any reset', [cmd(0x00, '5f69')], 'command-before-reset'],
      ['a command while BUSY after power on', [...awake, cmd(0x04), cmd(0x00, '5f69')], 'command-while-busy'],
      [
        'a command while BUSY during a refresh',
        [...powered, frame('11'), cmd(0x12, '00'), cmd(0x02, '00')],
        'command-while-busy',
      ],
      ['a refresh before power on', [...awake, frame('11'), cmd(0x12, '00')], 'refresh-before-power-on'],
      ['RAM written past its window', [...awake, cmd(0x10, '11'.repeat(192_001))], 'ram-outside-window'],
      [
        'RAM written past its window in a second run',
        [...awake, frame('11'), { op: 'data', data: '11' }],
        'ram-outside-window',
      ],
      ['a resolution beyond the glass', [...awake, cmd(0x61, '03200200')], 'window-beyond-glass'],
      ['a RAM value that is no colour', [...powered, frame('77'), cmd(0x12, '00')], 'not-a-colour'],
      ['deep sleep without its check code', [...awake, cmd(0x07, '00')], 'bad-check-code'],
      [
        'a command after deep sleep without a reset',
        [...awake, cmd(0x07, 'a5'), cmd(0x00, '5f69')],
        'command-after-deep-sleep',
      ],
      ['an unknown command', [...awake, cmd(0x99)], 'unknown-command'],
    ])('%s', (_name, ops, reason) => {
      expect(refusal(f.model(), ops)).toBe(reason);
    });

    it('takes a frame written in two runs, and a reset wakes it from deep sleep', () => {
      const half = '11'.repeat(96_000);
      const model = f.model();
      expect(
        refusal(model, [
          ...powered,
          cmd(0x10, half),
          { op: 'data', data: half },
          cmd(0x12, '00'),
          { op: 'busy' },
          cmd(0x07, 'a5'),
          ...awake,
        ]),
      ).toBe('accepted');
      expect(model.refreshes).toBe(1);
    });
  });

  it("the Spectra 6 has no colour 4 (the ACeP's red)", () => {
    const ops = [...powered, frame('44'), cmd(0x12, '00')];
    expect(refusal(new Spectra6Model({ panel: loadPanel('inky-impression-7in3') }), ops)).toBe('not-a-colour');
    expect(refusal(new Acep7Model({ panel: loadPanel('waveshare-7in3-f') }), ops)).toBe('accepted');
  });
});
