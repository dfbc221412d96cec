import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { runSimulateCommand } from '../../display/firmware/simulate-command.js';
import type { SimSummary } from '../../display/firmware/sim-output.js';
import { dayServer } from '../../src/cli/day-server.js';
import type { LoadedConfig } from '../../src/config/load.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { clockAt } from '../helpers/fake-clock.js';

/**
 * The note's figures (docs/guides/esphome.md): a day of the battery ESPHome YAML on "*\/30 6-22 * * *", measured
 * (`simulate --via esphome --deep-sleep --day`): the real daemon on a virtual clock, one device that reads sleep.txt
 * and sleeps the served seconds, one on a fixed 15-minute deep sleep. After deep sleep no ETag is left, so every wake
 * downloads the whole frame.bmp; the bytes are the answers' bodies as the devices received them (HTTP headers come on
 * top).
 */

const SCHEDULE = '*/30 6-22 * * *';
let out: string | null = null;
afterEach(async () => {
  if (out !== null) await rm(out, { recursive: true, force: true });
});

describe('a day of the battery ESPHome variant', () => {
  it('wakes and bytes: served seconds against a fixed 15 minutes', async () => {
    const loaded: LoadedConfig = {
      config: ConfigSchema.parse({
        api: { base_url: 'simulated' },
        budget: { credits_per_day: 3000 },
        timezone: 'Europe/Berlin',
        displays: [{ id: 'hallway', lat: 52.5, lon: 13.4, panel: 'waveshare-7in5-v2', schedule: SCHEDULE }],
        http: { listen: '127.0.0.1:9' },
      }),
      secrets: { apiKey: null, apiKeySource: null, mqttPassword: null, trmnlTokens: new Map() },
      file: '/tmp/config.yaml',
      warnings: [],
    };
    out = await mkdtemp(path.join(tmpdir(), 'outfit-esphome-day-'));
    const lines: string[] = [];
    const code = await runSimulateCommand(
      loaded,
      { display: 'hallway', via: 'esphome', 'deep-sleep': true, day: true, wakes: '0', out },
      {
        log: (l) => lines.push(l),
        error: (l) => lines.push(l),
        signal: new AbortController().signal,
        dayServer: dayServer({ loaded, logger: pino({ level: 'silent' }) }),
        clock: clockAt(() => Date.parse('2027-03-10T12:00:00Z')),
      },
    );
    expect(code, lines.join('\n')).toBe(0);
    const { day } = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8')) as SimSummary;
    expect(day).toMatchObject({ via: 'esphome', panel: 'waveshare-7in5-v2' });
    const [served, fixed] = day!.rows;
    // Each wake of the served seconds is just after an update: all 34 frames, a wake each.
    expect(served).toMatchObject({ wakes: 34, new_frames: 34 });
    expect(fixed.wakes).toBeGreaterThanOrEqual(90);
    expect(fixed.new_frames).toBe(34);
    // Every wake downloads the whole BMP (48,062 bytes for 800x480), sleep.txt a few bytes more.
    expect(served.bytes).toBeGreaterThan(34 * 48_062);
    expect(served.bytes).toBeLessThan(34 * (48_062 + 8));
    expect(fixed.bytes).toBe(fixed.wakes * 48_062);
    expect(served.bytes * 2.5).toBeLessThan(fixed.bytes);
    console.log(JSON.stringify({ served, fixed15: fixed }));
  }, 180_000);
});
