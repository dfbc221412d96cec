import { configYaml } from '../helpers/config-yaml.js';
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { PanelTransport } from '../../display/firmware/transport-panel.js';
import { runSimulator } from '../../display/firmware/run.js';
import { loadConfig } from '../../src/config/load.js';
import { openAttachedDriver } from '../../src/epd/open-driver.js';
import { panelImageFromPng } from '../../src/epd/panel-image.js';
import { loadPanel } from '../../src/panels/panels.js';
import { systemClock } from '../../src/time/clock.js';
import { tempConfig } from '../helpers/cli.js';

/**
 * `simulate --via panel`: the glass of an attached panel, from the capture file the daemon's driver writes, through
 * the controller model, shown by the simulated device (files and live view) as the display is mounted.
 */

const PANEL = 'waveshare-2in9';
const FRAME = path.resolve(import.meta.dirname, '../epd/frames', `${PANEL}-normal.png`);

async function setup() {
  const { dir, file } = await tempConfig(
    configYaml({
      displays: [{ id: 'hall', panel: PANEL, more: ['rotation: 90', 'attached:', '  capture: hall.jsonl'] }],
      outputDir: null,
      stateDir: null,
    }),
  );
  const loaded = await loadConfig(file);
  const display = loaded.config.displays[0]!;
  // What the daemon's panel publisher does with a frame: the real driver, over the capture file.
  const image = panelImageFromPng(readFileSync(FRAME), loadPanel(PANEL));
  const driver = await openAttachedDriver({ panel: PANEL, attached: display.attached! }, { clock: systemClock });
  await driver.showFull(image);
  await driver.close();
  return { dir, config: loaded.config, capture: display.attached!.capture!, image };
}

describe('simulate --via panel', () => {
  it('shows the glass the capture leaves, turned as mounted', async () => {
    const { dir, config, image } = await setup();
    const out = path.join(dir, 'sim');
    const r = await runSimulator({
      config,
      displayId: 'hall',
      via: 'panel',
      wakes: 1,
      outDir: out,
      intervalS: 1,
      speed: 1000,
    });
    expect(r.refreshed).toBe(1);
    const glass = PNG.sync.read(readFileSync(path.join(out, 'glass.png')));
    // Mounted at 90: the glass as seen is 128 wide and 296 high.
    expect([glass.width, glass.height]).toEqual([128, 296]);
    const back = panelImageFromPng(PNG.sync.write(glass), loadPanel(PANEL), 90);
    expect(Buffer.from(back.indices).equals(Buffer.from(image.indices))).toBe(true);
  });

  it('a wake with no new refresh is unchanged; a stream the controller refuses is the device error PANEL_PROTOCOL', async () => {
    const { capture } = await setup();
    const t = new PanelTransport({ file: capture, panel: loadPanel(PANEL), rotation: 90 });
    expect((await t.fetch()).kind).toBe('image');
    expect((await t.fetch()).kind).toBe('unchanged');
    // After deep sleep, a command without a reset: the SSD1680 ignores it (the model refuses it).
    appendFileSync(capture, `${JSON.stringify({ op: 'cmd', cmd: 0x24, data: '00' })}\n`);
    const broken = await t.fetch();
    expect(broken).toMatchObject({ kind: 'error', code: 'PANEL_PROTOCOL' });
    expect((broken as { message: string }).message).toMatch(/^E_PANEL_PROTOCOL/);
  });

  it('without attached.capture --via panel is a setup error naming the key', async () => {
    const { config } = await setup();
    const plain = { ...config, displays: config.displays.map((d) => ({ ...d, attached: undefined })) };
    await expect(
      runSimulator({ config: plain, displayId: 'hall', via: 'panel', wakes: 1, outDir: '/nonexistent' }),
    ).rejects.toThrow(/attached\.capture/);
  });
});
