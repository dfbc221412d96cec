import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { buildDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { configYaml, HOUSEHOLD_PEOPLE_YAML } from '../helpers/config-yaml.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { fakeGpiod } from '../helpers/fake-gpiod.js';
import { freePort } from '../helpers/free-port.js';
import { httpRequest } from '../helpers/http-client.js';
import { until } from '../helpers/until.js';

/**
 * An Inky Impression's buttons through the whole daemon: the config loader, the publishers' registry and the panel's
 * plug-in as `run` builds them, the built-in simulated service over real HTTP, the HTTP frame server, a fake clock.
 * The header's GPIO is a stand-in for node-libgpiod (this machine has none), given where the daemon imports it; the
 * panel's SPI device does not exist here, so each refresh of the glass fails, and the buttons work all the same.
 * Button A votes Anna "too cold"; button B refreshes, as Home Assistant's button does.
 */

let daemon: Daemon | null = null;
afterEach(async () => {
  await daemon?.stop();
  daemon = null;
});

interface State {
  people?: Array<{ id: string; offset_c: number }>;
  attached_panel?: { problem: { code: string; message: string } | null };
}

describe("an attached Inky's buttons", () => {
  it('a press of A votes in the warmth book, B refreshes the display; stop releases the lines', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'outfit-buttons-'));
    const port = await freePort();
    const yaml = configYaml({
      creditsPerDay: 3000,
      budget: ['refresh_reserve_credits: 30'],
      displays: [
        {
          id: 'hall',
          panel: 'inky-impression-7in3',
          schedule: '0 6 * * *',
          more: [
            'people: [anna]',
            'attached:',
            '  spi_device: /dev/spidev9.9',
            '  buttons:',
            '    a: { action: vote, person: anna, vote: too_cold }',
            '    b: { action: refresh }',
          ],
        },
      ],
      sections: [...HOUSEHOLD_PEOPLE_YAML, 'http:', `  listen: 127.0.0.1:${port}`],
    });
    await writeFile(path.join(dir, 'config.yaml'), yaml);
    const loaded = await loadConfig(path.join(dir, 'config.yaml'));
    const clock = new FakeClock(Math.floor(Date.now() / 600_000) * 600_000 + 30_000);
    const log = capturingLogger();
    const gpio = fakeGpiod();
    daemon = await buildDaemon({ loaded, logger: log.logger, clock, env: {}, importOptional: gpio.importer });
    const d = daemon;
    const stateOf = async (): Promise<State> =>
      (await httpRequest(`http://127.0.0.1:${port}/displays/hall/state.json`)).json<State>();
    const paid = async (): Promise<number> => {
      const res = await fetch(`${d.baseUrl.replace(/\/v1$/, '')}/_sim/stats`);
      const stats = (await res.json()) as { requests: { path: string }[] };
      return stats.requests.filter((r) => /\/(recweather|recommend)$/.test(r.path)).length;
    };
    /** Holds a button down for 200 ms of the clock, then lets it go. */
    const press = (pin: number): void => {
      gpio.set(pin, 0);
      for (let i = 0; i < 10; i++) clock.advance(20);
      gpio.set(pin, 1);
      clock.advance(20);
    };

    expect((await d.runOnce('hall', 'schedule')).get('hall')?.outcome).toBe('fresh');
    expect(gpio.requests).toEqual([
      { pin: 5, consumer: 'outfit-display-buttons', flags: 1 << 5 },
      { pin: 6, consumer: 'outfit-display-buttons', flags: 1 << 5 },
    ]);
    const first = await until('the panel problem (no SPI here)', async () => {
      const s = await stateOf();
      return s.attached_panel?.problem ? s : null;
    });
    expect(first.attached_panel?.problem).toMatchObject({ code: 'E_PANEL_BUS' });
    expect(first.people?.[0]).toMatchObject({ id: 'anna', offset_c: 0 });
    expect(await paid()).toBe(1);

    press(5);
    const warmthFile = path.join(dir, 'state', 'warmth.json');
    const voted = await until('the vote in warmth.json', async () => {
      const w = JSON.parse(await readFile(warmthFile, 'utf8').catch(() => '{}')) as {
        people?: Record<string, { offset_c: number; voted_since_frame: boolean }>;
      };
      return w.people?.anna;
    });
    expect(voted.offset_c).toBeLessThan(0);
    expect(voted.voted_since_frame).toBe(true);
    // A vote buys nothing.
    expect(await paid()).toBe(1);

    press(6);
    const after = await until('the refreshed frame with the vote', async () => {
      const s = await stateOf();
      return s.people?.[0]?.offset_c === voted.offset_c ? s : null;
    });
    expect(after.people?.[0]?.id).toBe('anna');
    expect(await paid()).toBe(2);
    const lines = log.text().split('\n');
    expect(lines.some((l) => l.includes("an attached panel's button voted") && l.includes('"person":"anna"'))).toBe(
      true,
    );
    expect(lines.some((l) => l.includes("an attached panel's button asked for a refresh"))).toBe(true);

    await d.stop();
    daemon = null;
    expect(gpio.released).toEqual([5, 6]);
  });
});
