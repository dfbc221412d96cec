import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema, type TrmnlButtonConfig } from '../../src/config/schema.js';
import { WARMTH } from '../../src/domain/warmth.js';
import { WarmthBook } from '../../src/household/warmth-book.js';
import { HttpPublisher } from '../../src/http/http-publisher.js';
import { DeviceBook } from '../../src/state/device-book.js';
import { display } from '../fixtures/display.js';
import { update } from '../fixtures/frames.js';
import { rec } from '../fixtures/rec.js';
import { capturingLogger, silentLogger } from '../helpers/capturing-logger.js';
import { manualClock } from '../helpers/fake-clock.js';
import { httpRequest } from '../helpers/http-client.js';
import { testViews } from '../helpers/views.js';

/**
 * A TRMNL's own button as a person's warmth vote (`trmnl.devices[].button: { action: vote, person, vote }`): the
 * device's wake by the button, as the firmware sends it over real HTTP, moves the person's offset once a frame and
 * buys nothing; a device without the key keeps its refresh.
 */

const MAC = 'AA:BB:CC:DD:EE:52';
const OTHER = 'AA:BB:CC:DD:EE:53';
const TOKEN = 'vote-token-0123456789';
const hallway = display('hallway', { people: ['anna', 'ben'] });

const wake = (mac: string, source: string) => ({
  ID: mac,
  'Access-Token': TOKEN,
  'Refresh-Rate': '1830',
  'FW-Version': '1.7.2',
  Model: 'og',
  Width: '800',
  Height: '480',
  'Update-Source': source,
});

describe("a TRMNL device's button as a warmth vote", () => {
  const stops: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const s of stops.splice(0).reverse()) await s();
  });

  async function start(button: TrmnlButtonConfig) {
    const dir = await mkdtemp(path.join(tmpdir(), 'trmnl-vote-'));
    stops.push(() => rm(dir, { recursive: true, force: true }));
    const clock = manualClock();
    const log = capturingLogger();
    const warmth = new WarmthBook({ personIds: ['anna', 'ben'], stateDir: dir, clock, logger: log.logger });
    await warmth.load();
    stops.push(() => warmth.flushed());
    const side = testViews({ displays: [hallway], clock });
    side.show(update(hallway, 'h1', { rec: rec() }));
    const refreshes: string[] = [];
    const http = new HttpPublisher({
      listen: '127.0.0.1:0',
      displays: [hallway],
      views: side.views,
      timezone: 'Europe/Berlin',
      clock,
      logger: silentLogger(),
      refresh: (id) => {
        refreshes.push(id);
        return Promise.resolve({});
      },
      refreshUnavailable: null,
      trmnlDevices: [
        { mac: MAC, display: 'hallway', button },
        { mac: OTHER, display: 'hallway' },
      ],
      trmnlTokens: new Map([
        [MAC, TOKEN],
        [OTHER, TOKEN],
      ]),
      devices: new DeviceBook({ clock }),
      vote: (p, v) => warmth.vote(p, v),
    });
    await http.start();
    stops.push(() => http.stop());
    const ask = async (mac: string, source: string) => {
      const res = await httpRequest(`${http.url!}/api/display`, { headers: wake(mac, source) });
      expect(res.status).toBe(200);
      return res.json<{ refresh_rate: number; filename: string }>();
    };
    return { warmth, clock, ask, refreshes, log };
  }

  it('a press votes once a frame and buys nothing; a timer wake does not vote; a device without the key refreshes', async () => {
    const { warmth, clock, ask, refreshes, log } = await start({ action: 'vote', person: 'anna', vote: 'too_cold' });
    await ask(MAC, 'timer');
    expect(warmth.offsetOf('anna', clock.now())).toBe(0);

    const first = await ask(MAC, 'button');
    expect(warmth.offsetOf('anna', clock.now())).toBe(-WARMTH.stepC);
    expect(refreshes).toEqual([]);
    // The device sleeps as after any wake: no "come back soon" for a purchase that was never made.
    expect(first.refresh_rate).toBeGreaterThan(60);

    await ask(MAC, 'button');
    expect(warmth.offsetOf('anna', clock.now())).toBe(-WARMTH.stepC);
    expect(log.text()).toContain('"code":"W_WARMTH_VOTE_IGNORED"');
    warmth.frameShown('anna');
    await ask(MAC, 'button');
    expect(warmth.offsetOf('anna', clock.now())).toBe(-2 * WARMTH.stepC);
    expect(warmth.offsetOf('ben', clock.now())).toBe(0);

    await ask(OTHER, 'button');
    expect(refreshes).toEqual(['hallway']);
  });

  it('a button that refreshes, said so, refreshes', async () => {
    const { warmth, clock, ask, refreshes } = await start({ action: 'refresh' });
    await ask(MAC, 'button');
    expect(refreshes).toEqual(['hallway']);
    expect(warmth.offsetOf('anna', clock.now())).toBe(0);
  });
});

describe('trmnl.devices[].button in the config', () => {
  const base = {
    api: { base_url: 'simulated' },
    budget: { credits_per_day: 10 },
    timezone: 'UTC',
    people: [
      { id: 'anna', name: 'Anna' },
      { id: 'carl', name: 'Carl' },
    ],
    displays: [{ id: 'hallway', name: 'H', lat: 1, lon: 2, panel: 'trmnl', schedule: '0 * * * *', people: ['anna'] }],
  };
  const issues = (button: unknown): string[] => {
    const r = ConfigSchema.safeParse({
      ...base,
      trmnl: { devices: [{ mac: MAC, display: 'hallway', token: TOKEN, button }] },
    });
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('takes a refresh or a vote for one of the display’s people', () => {
    expect(issues({ action: 'refresh' })).toEqual([]);
    expect(issues({ action: 'vote', person: 'anna', vote: 'too_warm' })).toEqual([]);
  });

  it('refuses, by key path, a person the display does not dress, an unknown vote, an encoded string', () => {
    expect(issues({ action: 'vote', person: 'carl', vote: 'too_cold' })).toEqual([
      `trmnl.devices.0.button.person: "carl" is not one of display "hallway"'s people (anna)`,
    ]);
    expect(issues({ action: 'vote', person: 'anna', vote: 'freezing' })[0]).toMatch(
      /^trmnl\.devices\.0\.button\.vote: /,
    );
    expect(issues('vote:anna:too_cold')[0]).toMatch(/^trmnl\.devices\.0\.button: /);
    expect(issues({ action: 'vote', person: 'anna' })[0]).toMatch(/^trmnl\.devices\.0\.button\.vote: /);
  });
});
