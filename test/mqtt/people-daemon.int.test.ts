import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { buildDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { WARMTH } from '../../src/domain/warmth.js';
import { SHARE_WINDOW_MS } from '../../src/budget/purchase-pool.js';
import { manualClock } from '../helpers/fake-clock.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { awaySchedule, tempConfig } from '../helpers/cli.js';
import { configYaml, HOUSEHOLD_PEOPLE_YAML } from '../helpers/config-yaml.js';
import { startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';
import { watch, type Watcher } from '../helpers/mqtt-watch.js';

/**
 * The daemon with a household, against the simulated service over HTTP and a real Mosquitto: a vote on a person's
 * feedback topic moves their offset, a second one before the next purchase does nothing, a new purchase of the display
 * that dresses them lets them vote again, and the offset is in `state_dir` and back after a restart.
 */

describe('the daemon keeps each person’s warmth', () => {
  let broker: Mosquitto;
  let daemon: Daemon | null = null;
  let dir: string | null = null;
  beforeAll(async () => {
    broker = await startMosquitto();
  });
  afterEach(async () => {
    await daemon?.stop();
    daemon = null;
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = null;
  });
  afterAll(async () => {
    await broker?.dispose();
  });

  const offsetOf = (w: Watcher): unknown => {
    const m = w.latest('od-daemon/people/anna/state');
    return m === undefined ? undefined : (JSON.parse(m.payload.toString()) as { offset_c: number }).offset_c;
  };

  it('a vote once a purchase, kept in state_dir across a restart', async () => {
    const t = await tempConfig(
      configYaml({
        displays: [
          { id: 'hallway', name: 'Hallway', panel: 'trmnl', schedule: awaySchedule(), more: ['people: [anna]'] },
        ],
        sections: [
          'people:',
          '  - id: anna',
          '    name: Anna',
          'mqtt:',
          `  url: ${broker.url}`,
          '  base_topic: od-daemon',
          '  discovery_prefix: ha-od-daemon',
        ],
        logLevel: 'silent',
      }),
    );
    dir = t.dir;
    const loaded = await loadConfig(t.file, { env: {} });
    const { logger, text } = capturingLogger();
    // Moved past the purchase pool's window between the two purchases, so the second is a new answer, not a share.
    const clock = manualClock(Date.now());
    daemon = await buildDaemon({ loaded, logger, clock });
    expect((await daemon.runOnce('hallway')).get('hallway')).toMatchObject({ outcome: 'fresh' });

    const w = await watch(broker.url, ['od-daemon/people/anna/state']);
    await w.waitFor(() => offsetOf(w) === 0, 'Anna at 0');
    await w.client.publishAsync('od-daemon/people/anna/feedback', 'too_cold', { qos: 1 });
    await w.client.publishAsync('od-daemon/people/anna/feedback', 'too_cold', { qos: 1 });
    await w.waitFor(() => offsetOf(w) === -WARMTH.stepC, 'one step');
    // The second press was taken and ignored before the next purchase.
    await vi.waitFor(() => expect(text()).toContain('"code":"W_WARMTH_VOTE_IGNORED"'));

    // A new purchase for the display that dresses her: her next vote counts.
    clock.advance(SHARE_WINDOW_MS + 60_000);
    expect((await daemon.runOnce('hallway')).get('hallway')).toMatchObject({ outcome: 'fresh' });
    await w.client.publishAsync('od-daemon/people/anna/feedback', 'too_cold', { qos: 1 });
    await w.waitFor(() => offsetOf(w) === -2 * WARMTH.stepC, 'a second step after a new frame');
    await w.close();
    await daemon.stop();
    daemon = null;

    const file = JSON.parse(await readFile(path.join(loaded.config.state_dir, 'warmth.json'), 'utf8')) as unknown;
    expect(file).toMatchObject({ version: 1, people: { anna: { offset_c: -2 * WARMTH.stepC } } });

    daemon = await buildDaemon({ loaded, logger, clock });
    await daemon.runOnce('hallway');
    const again = await watch(broker.url, ['od-daemon/people/anna/state']);
    await again.waitFor(() => offsetOf(again) === -2 * WARMTH.stepC, 'the offset back after a restart');
    await again.close();
  });
  it('publishes the frame of a person a device shows alone, and gives them an image entity; others get none', async () => {
    const t = await tempConfig(
      configYaml({
        displays: [
          {
            id: 'hallway',
            name: 'Hallway',
            panel: 'trmnl',
            schedule: awaySchedule(),
            more: ['people: [anna, ben]'],
          },
        ],
        sections: [
          ...HOUSEHOLD_PEOPLE_YAML,
          'trmnl:',
          '  devices:',
          '    - mac: "AA:BB:CC:DD:EE:71"',
          '      display: hallway',
          '      token: anna-token-0123456789',
          '      person: anna',
          'mqtt:',
          `  url: ${broker.url}`,
          '  base_topic: od-framed',
          '  discovery_prefix: ha-od-framed',
        ],
        logLevel: 'silent',
      }),
    );
    dir = t.dir;
    const loaded = await loadConfig(t.file, { env: {} });
    daemon = await buildDaemon({ loaded, logger: capturingLogger().logger });
    expect((await daemon.runOnce('hallway')).get('hallway')).toMatchObject({ outcome: 'fresh' });
    const w = await watch(broker.url, ['od-framed/people/+/image', 'ha-od-framed/device/+/config']);
    await w.waitFor(() => w.latest('od-framed/people/anna/image') !== undefined, "Anna's frame");
    const png = PNG.sync.read(w.latest('od-framed/people/anna/image')!.payload);
    expect([png.width, png.height]).toEqual([800, 480]);
    const config = (node: string): { components: Record<string, Record<string, unknown>> } =>
      JSON.parse(w.latest(`ha-od-framed/device/${node}/config`)!.payload.toString()) as never;
    await w.waitFor(() => w.latest('ha-od-framed/device/od-framed_PERSON_ben/config') !== undefined, "Ben's device");
    const image = Object.values(config('od-framed_PERSON_anna').components).find((c) => c.platform === 'image');
    expect(image).toMatchObject({ image_topic: 'od-framed/people/anna/image', content_type: 'image/png' });
    expect(Object.values(config('od-framed_PERSON_ben').components).some((c) => c.platform === 'image')).toBe(false);
    expect(w.latest('od-framed/people/ben/image')).toBeUndefined();
    await w.close();
  });
});
