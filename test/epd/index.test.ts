import { describe, expect, it } from 'vitest';
import { controllerModel, modelledPanels } from '../../display/controllers/index.js';
import { CaptureBus } from '../../src/epd/capture-bus.js';
import { attachablePanels, driverFacts, loadDriver } from '../../src/epd/drivers/index.js';
import { defaultBoard } from '../../src/epd/pins.js';
import { renderIndices } from '../../src/render/frame.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { sampleInput } from '../fixtures/samples.js';

/**
 * The two index files together, both read from the profiles' `controller`: every panel that can be attached has a
 * driver (src/epd/drivers/index.ts) and a controller model (display/controllers/index.ts), and the one's stream is the
 * other's frame. (Each family's own test checks the stream against the vendor driver's.)
 */

describe('drivers and controller models by panel id', () => {
  it('the panels a driver and a model exist for are the profiles that say so; the rest are driven by their devices', async () => {
    const seven = [
      'inky-impression-7in3',
      'waveshare-2in13',
      'waveshare-2in9',
      'waveshare-4in2',
      'waveshare-7in3-f',
      'waveshare-7in5-b',
      'waveshare-7in5-v2',
    ];
    expect(attachablePanels()).toEqual(expect.arrayContaining(seven));
    expect(modelledPanels()).toEqual(attachablePanels());
    const facts = await Promise.all(seven.map(async (id) => [id, (await driverFacts(id))?.controller]));
    expect(Object.fromEntries(facts)).toEqual({
      'inky-impression-7in3': 'Spectra 6 (E673)',
      'waveshare-2in13': 'SSD1680',
      'waveshare-2in9': 'SSD1680',
      'waveshare-4in2': 'SSD1683',
      'waveshare-7in3-f': 'ACeP 7-colour (Waveshare EPD_7IN3F)',
      'waveshare-7in5-b': 'UC8179',
      'waveshare-7in5-v2': 'UC8179',
    });
    for (const id of attachablePanels())
      expect((await driverFacts(id))?.vendorFile, id).toContain(`${loadPanel(id).controller.vendor_driver}.py`);
    for (const id of listPanelIds().filter((p) => !attachablePanels().includes(p))) {
      expect(await driverFacts(id), id).toBeNull();
      expect(loadPanel(id).controller, id).toEqual({ family: 'device-firmware', pi_header: false });
    }
    expect(seven.map((id) => defaultBoard(id))).toEqual(['inky', ...Array<string>(6).fill('waveshare-hat')]);
  });

  it.each(attachablePanels().map((id) => [id]))(
    '%s: the driver’s stream, through the model, gives the frame back',
    async (id) => {
      const frame = renderIndices(sampleInput('normal'), loadPanel(id), { rotation: 0 });
      const image = { width: frame.width, height: frame.height, indices: frame.indices };
      const bus = new CaptureBus();
      const driver = (await loadDriver(id))({ bus });
      await driver.showFull(image);
      await driver.close();
      const model = controllerModel(id);
      model.applyAll(bus.ops);
      expect(model.refreshes).toBe(1);
      expect(Buffer.from(model.glass()).equals(Buffer.from(image.indices))).toBe(true);
    },
  );

  it('a panel with no driver is named with those that have one', async () => {
    await expect(loadDriver('trmnl')).rejects.toMatchObject({
      code: 'E_PANEL_BUS',
      message: expect.stringContaining('waveshare-7in5-v2') as unknown,
    });
    expect(() => controllerModel('trmnl')).toThrow(
      /no controller model for panel trmnl: its device's firmware drives it/,
    );
  });
});
