import { describe, expect, it } from 'vitest';
import type { ModelOp } from '../../display/controllers/protocol-model.js';
import { Ssd168xModel, type Ssd168xProtocolReason } from '../../display/controllers/ssd168x.js';
import { CaptureBus, type CaptureOp } from '../../src/epd/capture-bus.js';
import type { PanelImage } from '../../src/epd/driver.js';
import { createSsd168xDriver } from '../../src/epd/drivers/ssd168x.js';
import { EpdError } from '../../src/epd/epd-error.js';
import { loadPanel, panelIdsOfFamily } from '../../src/panels/panels.js';
import { refusal } from './refusal.js';
import { bytesSent, storedFrame, vendorStream } from './stored-frame.js';

/*
 * The SSD1680 / SSD1683 panels against Waveshare's own Python drivers (waveshareteam/e-Paper, commit 86aa993,
 * RaspberryPi_JetsonNano/python/lib/waveshare_epd/): epd2in13_V4.py (waveshare-2in13), epd2in9_V2.py
 * (waveshare-2in9), epd4in2_V2.py (waveshare-4in2). The reference streams in test/epd/vendor/ are what those drivers
 * send for init(), display(getbuffer(frame)), sleep() when RUN under a fake epdconfig
 * (test/tools/vendor-capture/ssd168x_capture.py) on the frames in test/epd/frames/, rendered by our renderer.
 */

const CASES = ['normal', 'long', 'error'] as const;

async function capture(panelId: string, image: PanelImage): Promise<CaptureOp[]> {
  const bus = new CaptureBus();
  const driver = createSsd168xDriver(panelId, { bus });
  await driver.showFull(image);
  await driver.close();
  return bus.ops;
}

function refused(ops: ModelOp[], panelId = 'waveshare-2in13') {
  return refusal(new Ssd168xModel({ panel: loadPanel(panelId) }), ops);
}

describe.each(panelIdsOfFamily('ssd168x'))('%s', (panelId) => {
  it.each(CASES)(
    'the first full refresh of the %s frame is the vendor stream, op for op, and the model shows the frame',
    async (c) => {
      const image = storedFrame(panelId, c);
      const ops = await capture(panelId, image);
      const reference = vendorStream(panelId, c);
      expect(ops.length).toBe(reference.length);
      ops.forEach((op, i) => expect(op, `op ${i}`).toEqual(reference[i]));

      const seen: Uint8Array[] = [];
      const model = new Ssd168xModel({ panel: loadPanel(panelId), onRefresh: (glass) => seen.push(glass) });
      const white = loadPanel(panelId).palette.findIndex((e) => e.name === 'white');
      expect(model.glass().every((v) => v === white)).toBe(true);
      model.applyAll(ops);
      expect(model.refreshes).toBe(1);
      expect(model.deepSleep).toBe(true);
      expect(Buffer.from(model.glass()).equals(Buffer.from(image.indices))).toBe(true);
      expect(seen.length).toBe(1);
      expect(Buffer.from(seen[0]!).equals(Buffer.from(image.indices))).toBe(true);
    },
  );

  it('the frames differ, so a stream that ignored the picture would not pass', () => {
    const [a, b] = [storedFrame(panelId, 'normal'), storedFrame(panelId, 'error')];
    expect(Buffer.from(a.indices).equals(Buffer.from(b.indices))).toBe(false);
    expect(vendorStream(panelId, 'normal')).not.toEqual(vendorStream(panelId, 'error'));
  });

  it('a BUSY that never goes low ends in E_PANEL_BUSY_TIMEOUT, with the panel reset and put to deep sleep', async () => {
    // Idle for the init's waits, stuck on the refresh's: the wait right after Master Activation (0x20).
    const afterRefresh = (ops: readonly CaptureOp[], i: number): boolean => {
      const before = ops[i - 1];
      return ops[i]?.op === 'busy' && before?.op === 'cmd' && before.cmd === 0x20;
    };
    const bus: CaptureBus = new CaptureBus({ idle: () => !afterRefresh(bus.ops, bus.ops.length - 1) });
    const driver = createSsd168xDriver(panelId, { bus, busyTimeoutMs: 50 });
    const err = await driver.showFull(storedFrame(panelId, 'normal')).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EpdError);
    expect((err as EpdError).code).toBe('E_PANEL_BUSY_TIMEOUT');
    expect(bus.ops.slice(-2)).toEqual([{ op: 'reset' }, { op: 'cmd', cmd: 0x10, data: '01' }]);
    // The model takes that ending: the reset ends the busy refresh, and the panel sleeps.
    const model = new Ssd168xModel({ panel: loadPanel(panelId) });
    model.applyAll(bus.ops.filter((_op, i) => !afterRefresh(bus.ops, i)));
    expect(model.deepSleep).toBe(true);
    // The next try starts again with a reset and the whole init: the vendor stream once more.
    const retry = new CaptureBus();
    const again = createSsd168xDriver(panelId, { bus: retry });
    await again.showFull(storedFrame(panelId, 'normal'));
    expect(retry.ops).toEqual(vendorStream(panelId, 'normal'));
  });

  it('clear() is the vendor Clear(): white RAM, the same update, then sleep; the model shows white', async () => {
    const bus = new CaptureBus();
    await createSsd168xDriver(panelId, { bus }).clear();
    // Over a frame already on the glass: the clear leaves none of it.
    const model = new Ssd168xModel({ panel: loadPanel(panelId) });
    model.applyAll(vendorStream(panelId, 'normal'));
    model.applyAll(bus.ops);
    expect(model.refreshes).toBe(2);
    const white = loadPanel(panelId).palette.findIndex((e) => e.rgb === '#ffffff');
    expect(model.glass().every((v) => v === white)).toBe(true);
    expect(bus.ops.at(-1)).toEqual({ op: 'cmd', cmd: 0x10, data: '01' });
    for (const op of bus.ops)
      if (op.op === 'cmd' && (op.cmd === 0x24 || op.cmd === 0x26)) expect(/^(ff)+$/.test(op.data)).toBe(true);
  });
});

describe('ssd168x driver', () => {
  it('refuses a frame of another size or palette with E_PANEL_FRAME and sends nothing', async () => {
    const bus = new CaptureBus();
    const driver = createSsd168xDriver('waveshare-2in13', { bus });
    const wrongSize = { width: 122, height: 250, indices: new Uint8Array(122 * 250) };
    await expect(driver.showFull(wrongSize)).rejects.toMatchObject({ code: 'E_PANEL_FRAME' });
    const wrongColour = { width: 250, height: 122, indices: new Uint8Array(250 * 122).fill(2) };
    await expect(driver.showFull(wrongColour)).rejects.toMatchObject({ code: 'E_PANEL_FRAME' });
    expect(bus.ops).toEqual([]);
  });

  it('close() on a panel never driven sends nothing; after a refresh, sleep is not sent twice', async () => {
    const bus = new CaptureBus();
    const driver = createSsd168xDriver('waveshare-4in2', { bus });
    await driver.close();
    expect(bus.ops).toEqual([]);
    await driver.showFull(storedFrame('waveshare-4in2', 'normal'));
    const n = bus.ops.length;
    await driver.sleep();
    await driver.close();
    expect(bus.ops.length).toBe(n);
  });

  it('sends the stated number of bytes per full refresh', async () => {
    const sent = await Promise.all(
      panelIdsOfFamily('ssd168x').map(async (id) => bytesSent(await capture(id, storedFrame(id, 'normal')))),
    );
    // 2.13": 16 x 250 RAM bytes + 33; 2.9": 16 x 296 + 153-byte waveform + 40; 4.2": 2 x 50 x 300 + 28.
    expect(sent).toEqual([4033, 4929, 30028]);
  });
});

describe('ssd168x controller model refuses what the hardware would not take', () => {
  const init: ModelOp[] = [{ op: 'reset' }, { op: 'cmd', cmd: 0x12, data: '' }, { op: 'busy' }];
  const cmd = (c: number, data = ''): ModelOp => ({ op: 'cmd', cmd: c, data });
  const row = 'ff'.repeat(16);

  it.each<[string, ModelOp[], Ssd168xProtocolReason]>([
    ['data before a command', [{ op: 'reset' }, { op: 'data', data: 'ff' }], 'data-before-command'],
    ['a command while BUSY (after SWRESET)', [{ op: 'reset' }, cmd(0x12), cmd(0x11, '03')], 'command-while-busy'],
    [
      'a command while BUSY (during a refresh)',
      [...init, cmd(0x22, 'f7'), cmd(0x20), cmd(0x10, '01')],
      'command-while-busy',
    ],
    ['a command after deep sleep without a reset', [...init, cmd(0x10, '01'), cmd(0x12)], 'command-after-deep-sleep'],
    [
      'a refresh before power on',
      [...init, cmd(0x32, '00'.repeat(153)), cmd(0x22, '04'), cmd(0x20)],
      'refresh-before-power-on',
    ],
    ['a refresh with no waveform', [...init, cmd(0x22, 'c7'), cmd(0x20)], 'refresh-without-waveform'],
    [
      'RAM written past its window',
      [...init, cmd(0x44, '000f'), cmd(0x45, '00000000'), cmd(0x4e, '00'), cmd(0x4f, '0000'), cmd(0x24, row + 'ff')],
      'ram-outside-window',
    ],
    [
      'RAM written with the cursor outside the window',
      [...init, cmd(0x44, '0001'), cmd(0x4e, '05'), cmd(0x24, 'ff')],
      'ram-outside-window',
    ],
    ['a window beyond the RAM', [...init, cmd(0x45, '00002801')], 'window-outside-ram'],
    ['an unknown command', [...init, cmd(0x99)], 'unknown-command'],
    ['a wrong data length', [...init, cmd(0x11, '0303')], 'bad-data-length'],
  ])('%s', (_name, ops, reason) => {
    expect(refused(ops)).toBe(reason);
  });

  it('the SSD1683 (4.2" V2) by its own sizes: a 400-pixel RAM and a 227-byte waveform', () => {
    expect(refused([...init, cmd(0x44, '0032')], 'waveshare-4in2')).toBe('window-outside-ram');
    expect(refused([...init, cmd(0x44, '0031'), cmd(0x45, '00002b01')], 'waveshare-4in2')).toBe('accepted');
    expect(refused([...init, cmd(0x32, '00'.repeat(153))], 'waveshare-4in2')).toBe('bad-data-length');
    expect(refused([...init, cmd(0x32, '00'.repeat(227))], 'waveshare-4in2')).toBe('accepted');
  });

  it('takes a whole window written exactly, and a reset wakes it from deep sleep', () => {
    expect(
      refused([...init, cmd(0x44, '000f'), cmd(0x45, '00000000'), cmd(0x4e, '00'), cmd(0x4f, '0000'), cmd(0x24, row)]),
    ).toBe('accepted');
    expect(refused([...init, cmd(0x10, '01'), { op: 'reset' }, cmd(0x12), { op: 'busy' }])).toBe('accepted');
  });
});
