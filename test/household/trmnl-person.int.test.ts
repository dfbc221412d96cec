import { afterEach, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { HttpPublisher } from '../../src/http/http-publisher.js';
import { loadPanel } from '../../src/panels/panels.js';
import { displayRenderOptions, drawInProcess } from '../../src/render/display-frame.js';
import { DeviceBook } from '../../src/state/device-book.js';
import { display } from '../fixtures/display.js';
import { update } from '../fixtures/frames.js';
import { ANNA, BEN, framePerson } from '../fixtures/household-samples.js';
import { silentLogger } from '../helpers/capturing-logger.js';
import { manualClock } from '../helpers/fake-clock.js';
import { httpRequest } from '../helpers/http-client.js';
import { testViews } from '../helpers/views.js';

/**
 * A TRMNL device of one person (`trmnl.devices[].person`), over real HTTP: its image is that person's own frame (their
 * name, their outfit, their additions), drawn for its screen, while a device of the same display without the key
 * gets the household's frame.
 */

const ANNAS = 'AA:BB:CC:DD:EE:61';
const SHARED = 'AA:BB:CC:DD:EE:62';
const TOKEN = 'person-token-0123456789';
const hallway = display('hallway', { people: ['anna', 'ben'], panel: 'trmnl' });
const people = [framePerson(ANNA), framePerson(BEN)];

describe('a TRMNL device of one person', () => {
  const stops: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const s of stops.splice(0).reverse()) await s();
  });

  it('gets that person’s own frame; a device without `person` gets everyone’s', async () => {
    const clock = manualClock(Date.parse(ANNA.recommendation.fetched_at));
    const side = testViews({ displays: [hallway], clock });
    side.show(update(hallway, 'h1', { rec: people[0]!.rec, people }));
    const http = new HttpPublisher({
      listen: '127.0.0.1:0',
      displays: [hallway],
      views: side.views,
      timezone: 'Europe/Berlin',
      clock,
      logger: silentLogger(),
      refresh: () => Promise.resolve({}),
      refreshUnavailable: null,
      trmnlDevices: [
        { mac: ANNAS, display: 'hallway', person: 'anna' },
        { mac: SHARED, display: 'hallway' },
      ],
      trmnlTokens: new Map([
        [ANNAS, TOKEN],
        [SHARED, TOKEN],
      ]),
      devices: new DeviceBook({ clock }),
    });
    await http.start();
    stops.push(() => http.stop());

    const image = async (mac: string): Promise<Buffer> => {
      const res = await httpRequest(`${http.url!}/api/display`, {
        headers: { ID: mac, 'Access-Token': TOKEN, Model: 'og', Width: '800', Height: '480' },
      });
      expect(res.status).toBe(200);
      const { image_url } = res.json<{ image_url: string }>();
      const img = await httpRequest(image_url);
      expect(img.status).toBe(200);
      return img.body;
    };
    const annas = await image(ANNAS);
    const shared = await image(SHARED);

    // Anna's device: exactly her own frame for the TRMNL's screen, decoded by pngjs as 800x480.
    const decoded = PNG.sync.read(annas);
    expect([decoded.width, decoded.height]).toEqual([800, 480]);
    const render = displayRenderOptions(hallway, { timezone: 'Europe/Berlin' });
    const own = await drawInProcess(
      render,
      {
        rec: people[0]!.rec,
        status: { kind: 'ok' },
        now: new Date(clock.now()),
        people: [people[0]!],
        onePerson: 'anna',
      },
      { panel: loadPanel('trmnl'), rotation: 0 },
    );
    expect(annas.equals(own.png)).toBe(true);
    // The other device: the display's frame, everyone on it (here the view's frame itself), not Anna's.
    expect(shared.equals(annas)).toBe(false);
  });
});
