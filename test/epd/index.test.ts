import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { controllerModel, MODELLED_PANELS } from '../../display/controllers/index.js';
import { CaptureBus } from '../../src/epd/capture-bus.js';
import { ATTACHABLE_PANELS, driverFacts, loadDriver } from '../../src/epd/drivers/index.js';
import { panelImageFromPng } from '../../src/epd/panel-image.js';
import { loadPanel } from '../../src/panels/panels.js';

/**
 * The two index files together: every panel that can be attached has a driver (src/epd/drivers/index.ts) and a
 * controller model (display/controllers/index.ts), and the one's stream is the other's frame. (Each family's own
 * test checks the stream against the vendor driver's.)
 */

const FRAMES = path.resolve(import.meta.dirname, 'frames');

describe('drivers and controller models by panel id', () => {
  it('the seven panels of issue 24, each with a driver, a model and its controller facts', async () => {
    const seven = ['inky-impression-7in3', 'waveshare-2in13', 'waveshare-2in9', 'waveshare-4in2', 'waveshare-7in3-f', 'waveshare-7in5-b', 'waveshare-7in5-v2'];
    expect([...ATTACHABLE_PANELS].sort()).toEqual(seven);
    expect([...MODELLED_PANELS].sort()).toEqual(seven);
    for (const id of seven) expect((await driverFacts(id))?.controller, id).toBeTruthy();
  });

  it.each(ATTACHABLE_PANELS.map((id) => [id]))('%s: the driver’s stream, through the model, gives the frame back', async (id) => {
    const image = panelImageFromPng(readFileSync(path.join(FRAMES, `${id}-normal.png`)), loadPanel(id));
    const bus = new CaptureBus();
    const driver = (await loadDriver(id))({ bus });
    await driver.showFull(image);
    await driver.close();
    const model = controllerModel(id);
    model.applyAll(bus.ops);
    expect(model.refreshes).toBe(1);
    expect(Buffer.from(model.glass()).equals(Buffer.from(image.indices))).toBe(true);
  });

  it('a panel with no driver is named with those that have one', async () => {
    await expect(loadDriver('trmnl')).rejects.toMatchObject({ code: 'E_PANEL_BUS', message: expect.stringContaining('waveshare-7in5-v2') as unknown });
    expect(() => controllerModel('trmnl')).toThrow(/no controller model for panel trmnl/);
  });
});
