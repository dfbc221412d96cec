import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GARMENT_IDS, garmentsOf } from '../../src/domain/garments.js';
import { httpRequest } from '../helpers/http-client.js';
import { checkDeviceDiscovery, checkStates } from '../mqtt/ha-checker.js';
import { daemonTests } from './helpers.js';
import { readRetained } from '../helpers/mqtt-watch.js';

/** The garments read from the outfit reach every publisher, and Home Assistant accepts the entities built on them. */

const t = daemonTests({ broker: true });

describe('garments for automations', () => {
  it('are in <id>.json, state.json and the MQTT state; HA gets a garments sensor and umbrella and sunscreen binary sensors', async () => {
    const r = await t.rig({ mqttUrl: t.broker().url });
    await r.daemon.runOnce('hallway', 'schedule');

    const file = JSON.parse(await readFile(path.join(r.dir, 'frames', 'hallway.json'), 'utf8')) as {
      outfit: string;
      garments: string[];
    };
    const want = garmentsOf(file.outfit);
    // The simulated service's outfits always name something to wear.
    expect(want.length).toBeGreaterThan(0);
    expect(file.garments).toEqual(want);

    const state = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<{ garments: string[] }>();
    expect(state.garments).toEqual(want);

    const retained = await readRetained(t.broker().url, ['outfit-display/#', 'homeassistant/#']);
    const mqttState = JSON.parse(retained.get('outfit-display/hallway/state')!.toString()) as {
      garments: string[];
      garments_text: string;
      wear: Record<string, boolean>;
    };
    expect(mqttState.garments).toEqual(want);
    expect(mqttState.garments_text).toBe(want.join(', '));
    expect(Object.keys(mqttState.wear)).toHaveLength(GARMENT_IDS.length);
    for (const id of GARMENT_IDS) expect(mqttState.wear[id.replace(/-/g, '_')]).toBe(want.includes(id));

    const [topic, config] = [...retained].find(([t]) => t.startsWith('homeassistant/device/'))!;
    const payload = JSON.parse(config.toString()) as { components: Record<string, Record<string, unknown>> };
    expect(checkDeviceDiscovery(topic, payload)).toEqual([]);
    const { problems, states } = checkStates(payload, retained);
    expect(problems).toEqual([]);
    expect(states.garments).toBe(want.join(', '));
    expect(states.umbrella).toBe(want.includes('umbrella') ? 'ON' : 'OFF');
    expect(states.sunscreen).toBe(want.includes('sunscreen') ? 'ON' : 'OFF');
    // The entities that were there before keep their unique ids.
    expect(payload.components.outfit!.unique_id).toBe('outfit-display_hallway_outfit');
  });
});
