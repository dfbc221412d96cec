import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import pinoLogger from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { runSimulator } from '../../display/firmware/run.js';
import { loadConfig } from '../../src/config/load.js';
import { buildDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { HttpPublisher } from '../../src/http/http-publisher.js';
import { awaySchedule, simulatedConfig, tempConfig } from '../helpers/cli.js';
import { httpRequest } from '../helpers/http-client.js';
import { systemClock } from '../../src/time/clock.js';
import type { DisplayViewSource } from '../../src/state/display-views.js';
import { shownView } from '../helpers/views.js';

/**
 * The whole chain in one process: the daemon against the simulated outfit service renders a frame, the HTTP
 * publisher serves it, the firmware simulator fetches it (plain HTTP with ETag, and the TRMNL protocol) and shows
 * it; what the glass shows equals the daemon's frame, pixel for pixel (read back by pngjs, not by our decoders).
 */

const MAC = 'AA:BB:CC:DD:EE:42';
const TOKEN = 'e2e-token-0123456789';

function rgba(png: Buffer): Buffer {
  return PNG.sync.read(png).data;
}

describe('daemon → HTTP / TRMNL → firmware simulator', () => {
  let daemon: Daemon | null = null;
  let dir: string | null = null;
  afterEach(async () => {
    await daemon?.stop();
    daemon = null;
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = null;
  });

  it.each(['http', 'trmnl'] as const)('via %s: the glass PNG equals the daemon’s frame', async (via) => {
    const yaml = simulatedConfig({
      displays: [
        '  - id: hallway',
        '    name: Hallway',
        '    lat: 52.52',
        '    lon: 13.405',
        '    panel: trmnl',
        `    schedule: "${awaySchedule()}"`,
      ].join('\n'),
    }).replace(
      'log_level: debug',
      `log_level: silent\ntrmnl:\n  devices:\n    - mac: "${MAC}"\n      display: hallway\n      token: ${TOKEN}`,
    );
    const t = await tempConfig(yaml);
    dir = t.dir;
    const loaded = await loadConfig(t.file, { env: {} });
    const { config, secrets } = loaded;
    let d: Daemon | null = null;
    // A publisher built outside the daemon reads the daemon's views, as the daemon's own publishers do.
    const views: DisplayViewSource = {
      view: (id) => d?.views.view(id) ?? null,
      budget: () => d?.views.budget() ?? null,
    };
    const http = new HttpPublisher({
      listen: '127.0.0.1:0',
      displays: config.displays,
      views,
      timezone: config.timezone,
      clock: systemClock,
      refresh: (id) => d?.refresh(id) ?? Promise.resolve(null),
      trmnlDevices: config.trmnl?.devices.map((x) => ({ mac: x.mac, display: x.display })) ?? [],
      trmnlTokens: secrets.trmnlTokens,
    });
    d = daemon = await buildDaemon({ loaded, logger: pinoLogger({ level: 'silent' }), publishers: [http] });
    const results = await daemon.runOnce('hallway');
    expect(results.get('hallway')).toMatchObject({ outcome: 'fresh', published: true });
    const frame = shownView(daemon.views, 'hallway').frame;
    expect(frame.width).toBe(800);

    const health = await httpRequest(`${http.url!}/healthz`);
    expect(health.status).toBe(200);

    const out = path.join(t.dir, `sim-${via}`);
    // The owner opens pairing (outfit-display pair, the status page), so the device's first wake gets its token.
    if (via === 'trmnl') http.pairing.open([MAC]);
    const result = await runSimulator({
      config,
      displayId: 'hallway',
      via,
      wakes: 2,
      outDir: out,
      baseUrl: http.url!,
      maxSleepS: 0,
    });
    expect(result.records.map((r) => [r.outcome, r.refresh])).toEqual([
      ['refreshed', 'full'],
      ['unchanged', 'none'],
    ]);
    const glass = await readFile(path.join(out, 'wake-0001.png'));
    expect(rgba(glass).equals(rgba(frame.png))).toBe(true);
    const written = await readFile(path.join(t.dir, 'frames', 'hallway.png'));
    expect(rgba(glass).equals(rgba(written))).toBe(true);
    if (via === 'trmnl') expect(result.records[0]!.image?.filename).toBe(`outfit-${frame.hash.slice(0, 8)}`);
    expect(result.records[0]!.sleep_s).toBeGreaterThanOrEqual(60);
  });
});
