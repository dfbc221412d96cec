import { describe, expect, it } from 'vitest';
import { CaptureBus, type CaptureOp } from '../../src/epd/capture-bus.js';
import type { BusyWait } from '../../src/epd/bus.js';
import type { PanelImage } from '../../src/epd/driver.js';
import { EpdError } from '../../src/epd/epd-error.js';
import { createUc8179Driver } from '../../src/epd/drivers/uc8179.js';
import { PanelProtocolError, type ModelOp } from '../../display/controllers/protocol-model.js';
import { Uc8179Model } from '../../display/controllers/uc8179.js';
import { loadPanel, panelIdsOfFamily } from '../../src/panels/panels.js';
import { bytesSent, storedFrame, vendorStream, vendorText } from './stored-frame.js';

/** A capture as the file holds it: one operation a line. */
function captureText(ops: readonly CaptureOp[]): string {
  return ops.map((op) => `${JSON.stringify(op)}\n`).join('');
}

/*
 * The UC8179 panels against Waveshare's own drivers (waveshareteam/e-Paper @ 86aa993,
 * RaspberryPi_JetsonNano/python/lib/waveshare_epd/epd7in5_V2.py and epd7in5b_V2.py): the reference streams in
 * test/epd/vendor/ were made by running those drivers under a fake epdconfig (test/tools/vendor-capture/
 * uc8179_capture.py) on the frames in test/epd/frames/ (our renderer's, render-frames.js). For each panel and frame
 * the driver's capture must equal the vendor's op for op, byte for byte, and the controller model must turn it back
 * into the frame, pixel for pixel.
 */

const FRAMES = ['normal', 'long', 'error'] as const;

/** The first op where two streams part, said shortly (a 48000-byte plane in a diff helps nobody); undefined: equal. */
function firstDifference(ours: readonly CaptureOp[], theirs: readonly CaptureOp[]): string | undefined {
  for (let i = 0; i < Math.max(ours.length, theirs.length); i++) {
    const a = ours[i];
    const b = theirs[i];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (a?.op === 'cmd' && b?.op === 'cmd' && a.cmd === b.cmd) {
      let at = 0;
      while (a.data[at] === b.data[at]) at++;
      return `op ${i} (cmd 0x${a.cmd.toString(16)}): data differs at byte ${at >> 1} (ours ${a.data.length / 2} bytes, vendor ${b.data.length / 2})`;
    }
    return `op ${i}: ours ${JSON.stringify(a)?.slice(0, 60)}, vendor ${JSON.stringify(b)?.slice(0, 60)}`;
  }
  return undefined;
}

function mismatches(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n + Math.abs(a.length - b.length);
}

function model(panelId: string): Uc8179Model {
  return new Uc8179Model({ panel: loadPanel(panelId) });
}

describe('UC8179 drivers against the vendor', () => {
  for (const panelId of panelIdsOfFamily('uc8179')) {
    for (const frame of FRAMES) {
      it(`${panelId} ${frame}: the capture is the vendor's stream, and the model gives the frame back`, async () => {
        const image = storedFrame(panelId, frame);
        const bus = new CaptureBus();
        await createUc8179Driver(panelId, { bus }).showFull(image);
        const vendor = vendorStream(panelId, frame);
        expect(firstDifference(bus.ops, vendor)).toBeUndefined();
        expect(bus.ops).toEqual(vendor);
        // The capture file itself, as `--capture` writes it, is the recording's text to the byte.
        expect(captureText(bus.ops) === vendorText(panelId, frame)).toBe(true);

        const m = model(panelId);
        m.applyAll(bus.ops);
        expect(m.refreshes).toBe(1);
        expect(m.deepSleep).toBe(true);
        expect(mismatches(m.glass(), image.indices)).toBe(0);
      });
    }
  }

  it('the B frames really carry red, so its second plane is exercised', () => {
    const red = loadPanel('waveshare-7in5-b').palette.findIndex((e) => e.name === 'red');
    expect(storedFrame('waveshare-7in5-b', 'error').indices.includes(red)).toBe(true);
    expect(
      vendorStream('waveshare-7in5-b', 'error').some(
        (op) => op.op === 'cmd' && op.cmd === 0x13 && /[^0]/.test(op.data),
      ),
    ).toBe(true);
  });

  it('bytes per full refresh: 96033 on the 7.5" V2, 96031 on the B (two 48000-byte planes and the commands)', () => {
    expect(bytesSent(vendorStream('waveshare-7in5-v2', 'normal'))).toBe(96_033);
    expect(bytesSent(vendorStream('waveshare-7in5-b', 'normal'))).toBe(96_031);
  });
});

describe('UC8179 driver', () => {
  const white = (_panelId: string): PanelImage => ({
    width: 800,
    height: 480,
    indices: new Uint8Array(800 * 480).fill(1),
  });

  for (const panelId of panelIdsOfFamily('uc8179')) {
    it(`${panelId}: BUSY never idle ends in E_PANEL_BUSY_TIMEOUT, the panel reset and in deep sleep; the next try sends the whole stream`, async () => {
      const image = storedFrame(panelId, 'error');
      let failWait = 2; // the third wait (after refresh) times out
      const waits: BusyWait[] = [];
      const bus = new CaptureBus({ idle: (w) => (waits.push(w), failWait-- !== 0) });
      const driver = createUc8179Driver(panelId, { bus });
      const err = await driver.showFull(image).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(EpdError);
      expect((err as EpdError).code).toBe('E_PANEL_BUSY_TIMEOUT');
      expect(waits[0]).toEqual({
        busyWhen: 'low',
        pollCommand: 0x71,
        timeoutMs: panelId === 'waveshare-7in5-b' ? 64_000 : 30_000,
      });
      const failed = bus.ops.slice();
      expect(failed.findIndex((op) => op.op === 'cmd' && op.cmd === 0x12)).toBeGreaterThan(0);
      expect(failed.slice(-2)).toEqual([{ op: 'reset' }, { op: 'cmd', cmd: 0x07, data: 'a5' }]);

      // The frame is kept by the caller: the next try is the vendor's stream from its reset on.
      await driver.showFull(image);
      expect(firstDifference(bus.ops.slice(failed.length), vendorStream(panelId, 'error'))).toBeUndefined();
      const m = model(panelId);
      m.applyAll(bus.ops);
      expect(mismatches(m.glass(), image.indices)).toBe(0);
    });
  }

  it('a timeout on the first wait (power on) also ends with the deep-sleep command; busyTimeoutMs is passed on', async () => {
    const waits: BusyWait[] = [];
    const bus = new CaptureBus({ idle: (w) => (waits.push(w), false) });
    await expect(
      createUc8179Driver('waveshare-7in5-v2', { bus, busyTimeoutMs: 1234 }).showFull(white('waveshare-7in5-v2')),
    ).rejects.toMatchObject({ code: 'E_PANEL_BUSY_TIMEOUT' });
    expect(waits.map((w) => w.timeoutMs)).toEqual([1234]);
    expect(bus.ops.some((op) => op.op === 'cmd' && (op.cmd === 0x10 || op.cmd === 0x13))).toBe(false);
    expect(bus.ops.at(-1)).toEqual({ op: 'cmd', cmd: 0x07, data: 'a5' });
    expect(() => model('waveshare-7in5-v2').applyAll(bus.ops)).not.toThrow();
  });

  for (const panelId of panelIdsOfFamily('uc8179')) {
    it(`${panelId}: clear() sends the vendor's Clear() planes (0x10 all 0xff, 0x13 all 0x00) and leaves white glass`, async () => {
      const bus = new CaptureBus();
      await createUc8179Driver(panelId, { bus }).clear();
      const planes = bus.ops.filter(
        (op): op is Extract<CaptureOp, { op: 'cmd' }> => op.op === 'cmd' && (op.cmd === 0x10 || op.cmd === 0x13),
      );
      expect(planes.map((p) => [p.cmd, p.data.length / 2])).toEqual([
        [0x10, 48_000],
        [0x13, 48_000],
      ]);
      expect(/^(ff)+$/.test(planes[0]!.data) && /^(00)+$/.test(planes[1]!.data)).toBe(true);
      const m = model(panelId);
      m.applyAll(bus.ops);
      expect(mismatches(m.glass(), white(panelId).indices)).toBe(0);
    });
  }

  it('a frame of another size or palette is E_PANEL_FRAME, and nothing reaches the bus', async () => {
    const bus = new CaptureBus();
    const driver = createUc8179Driver('waveshare-7in5-v2', { bus });
    await expect(
      driver.showFull({ width: 480, height: 800, indices: new Uint8Array(480 * 800) }),
    ).rejects.toMatchObject({ code: 'E_PANEL_FRAME' });
    await expect(
      driver.showFull({ width: 800, height: 480, indices: new Uint8Array(800 * 480).fill(2) }),
    ).rejects.toMatchObject({ code: 'E_PANEL_FRAME' });
    expect(bus.ops).toEqual([]);
  });

  it('sleep() is idempotent (nothing sent when asleep), close() releases the bus; other families are refused', async () => {
    let closed = 0;
    const bus = new CaptureBus();
    bus.close = () => (closed++, Promise.resolve());
    const driver = createUc8179Driver('waveshare-7in5-b', { bus });
    await driver.sleep();
    await driver.close();
    expect(bus.ops).toEqual([]);
    expect(closed).toBe(1);
    expect(() => createUc8179Driver('waveshare-2in9', { bus })).toThrow(/not a UC8179 panel/);
  });
});

describe('UC8179 controller model refuses what the chip would not take', () => {
  const c = (cmd: number, data = ''): CaptureOp => ({ op: 'cmd', cmd, data });
  const ON: CaptureOp[] = [{ op: 'reset' }, c(0x04), { op: 'busy' }];
  const cases: { reason: string; ops: ModelOp[]; at: number }[] = [
    { reason: 'data-before-command', ops: [{ op: 'reset' }, { op: 'data', data: '1f' }], at: 1 },
    {
      reason: 'data-before-command',
      ops: [{ op: 'reset' }, c(0x00, '1f'), { op: 'reset' }, { op: 'data', data: '1f' }],
      at: 3,
    },
    { reason: 'data-without-command', ops: [{ op: 'reset' }, c(0x00, '1f'), { op: 'data', data: '1f' }], at: 2 },
    {
      reason: 'ram-outside-window',
      ops: [{ op: 'reset' }, c(0x13, '00'.repeat(47_999)), { op: 'data', data: '0000' }],
      at: 2,
    },
    { reason: 'data-without-command', ops: [{ op: 'reset' }, c(0x04, '17')], at: 1 },
    { reason: 'data-without-command', ops: [{ op: 'reset' }, c(0x00, '1f1f')], at: 1 },
    { reason: 'window-beyond-glass', ops: [{ op: 'reset' }, c(0x61, '0000')], at: 1 },
    { reason: 'unknown-command', ops: [{ op: 'reset' }, c(0x99)], at: 1 },
    { reason: 'command-while-busy', ops: [{ op: 'reset' }, c(0x04), c(0x00, '1f')], at: 2 },
    { reason: 'command-while-busy', ops: [...ON, c(0x13, '00'), c(0x12), c(0x02)], at: 5 },
    { reason: 'command-while-busy', ops: [...ON, c(0x13, '00'), c(0x12), { op: 'data', data: '00' }], at: 5 },
    { reason: 'refresh-before-power-on', ops: [{ op: 'reset' }, c(0x13, '00'), c(0x12)], at: 2 },
    { reason: 'refresh-before-power-on', ops: [...ON, c(0x02), { op: 'busy' }, c(0x12)], at: 5 },
    { reason: 'ram-outside-window', ops: [{ op: 'reset' }, c(0x13, '00'.repeat(48_001))], at: 1 },
    {
      reason: 'ram-outside-window',
      ops: [{ op: 'reset' }, c(0x61, '019000f0'), c(0x10, '00'.repeat(50 * 240 + 1))],
      at: 2,
    },
    { reason: 'window-beyond-glass', ops: [{ op: 'reset' }, c(0x61, '032801e0')], at: 1 },
    { reason: 'command-after-deep-sleep', ops: [...ON, c(0x02), { op: 'busy' }, c(0x07, 'a5'), c(0x04)], at: 6 },
  ];
  for (const { reason, ops, at } of cases) {
    it(`${reason}: ${ops.map((op) => (op.op === 'cmd' ? `0x${op.cmd.toString(16)}${op.data ? `+${op.data.length / 2}B` : ''}` : op.op === 'data' ? `data+${op.data.length / 2}B` : op.op)).join(' ')}`, () => {
      const m = model('waveshare-7in5-v2');
      let err: unknown;
      try {
        m.applyAll(ops);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(PanelProtocolError);
      expect(err).toMatchObject({ code: 'E_PANEL_PROTOCOL', reason, opIndex: at });
    });
  }

  it('a further data run continues the RAM write, and onRefresh gets the new glass', () => {
    const seen: Uint8Array[] = [];
    const m = new Uc8179Model({ panel: loadPanel('waveshare-7in5-v2'), onRefresh: (g) => seen.push(g) });
    m.applyAll([
      ...ON,
      c(0x00, '1f'),
      c(0x50, '1007'),
      c(0x13, 'ff'.repeat(24_000)),
      { op: 'data', data: '00'.repeat(24_000) },
      c(0x12),
    ]);
    expect(seen.length).toBe(1);
    expect(seen[0]!.indexOf(1)).toBe(240 * 800); // black (0) down to row 240, white (1) below
  });

  it('a reset wakes it from deep sleep; a wrong check code leaves it awake', () => {
    const m = model('waveshare-7in5-v2');
    m.applyAll([
      ...ON,
      c(0x02),
      { op: 'busy' },
      c(0x07, '00'),
      c(0x04),
      { op: 'busy' },
      c(0x02),
      { op: 'busy' },
      c(0x07, 'a5'),
      { op: 'reset' },
      c(0x04),
    ]);
    expect(m.deepSleep).toBe(false);
    expect(m.busy).toBe(true);
  });

  it('inside PTIN (0x91) the RAM writes and the refresh cover the partial window (PTL 0x90) only', () => {
    const m = model('waveshare-7in5-v2');
    // Full white first (KW mode, DDX 00: a 0 in DTM2 is white), then black into x 16-31, y 2-3.
    m.applyAll([...ON, c(0x00, '1f'), c(0x50, '1007'), c(0x13, '00'.repeat(48_000)), c(0x12), { op: 'busy' }]);
    m.applyAll([c(0x90, '0010001f0002000301'), c(0x91), c(0x13, 'ffffffff'), c(0x12), { op: 'busy' }]);
    const glass = m.glass();
    const black: number[] = [];
    glass.forEach((v, i) => v === 0 && black.push(i));
    expect(black.length).toBe(32);
    expect(black[0]).toBe(2 * 800 + 16);
    expect(black.at(-1)).toBe(3 * 800 + 31);
    expect(() => m.apply(c(0x13, 'ff'.repeat(5)))).toThrow(expect.objectContaining({ reason: 'ram-outside-window' }));
  });

  it('the vendor stream with the picture mirrored by the panel setting (UD, SHL cleared) lands mirrored', () => {
    const image = storedFrame('waveshare-7in5-v2', 'normal');
    const ops = vendorStream('waveshare-7in5-v2', 'normal').map((op) =>
      op.op === 'cmd' && op.cmd === 0x00 ? c(0x00, '13') : op,
    );
    const m = model('waveshare-7in5-v2');
    m.applyAll(ops);
    const glass = m.glass();
    const turned = new Uint8Array(image.indices.length);
    for (let i = 0; i < turned.length; i++) turned[turned.length - 1 - i] = image.indices[i]!;
    expect(mismatches(glass, turned)).toBe(0);
    expect(mismatches(glass, image.indices)).toBeGreaterThan(0);
  });
});
