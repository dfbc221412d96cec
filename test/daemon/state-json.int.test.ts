import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEATHER_READINGS } from '../../src/api/schemas.js';
import { displayState } from '../../src/state/state-json.js';
import { httpRequest } from '../helpers/http-client.js';
import { daemonTests } from './helpers.js';
import { readRetained } from '../helpers/mqtt-watch.js';

/** One display's state is one JSON, whichever way it leaves the daemon: `<id>.json`, state.json, the MQTT state. */

const t = daemonTests({ broker: true });

/** "2026-01-31T08:00:00.000+01:00": a time with the zone's offset (the rig's zone is Europe/Berlin). */
const ZONED = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0[12]:00$/;

describe('the state JSON', () => {
  it('is the same in <id>.json, state.json and the MQTT state for every field they share', async () => {
    const r = await t.rig({ mqttUrl: t.broker().url });
    await r.daemon.runOnce('hallway', 'schedule');

    const file = JSON.parse(await readFile(path.join(r.dir, 'frames', 'hallway.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const page = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Record<string, unknown>>();
    const retained = await readRetained(t.broker().url, ['outfit-display/hallway/state']);
    const mqtt = JSON.parse(retained.get('outfit-display/hallway/state')!.toString()) as Record<string, unknown>;

    // The file is the answer's part of the state (it changes only with the answer); state.json and the MQTT state are
    // the whole state, and state.json adds its own fields after it.
    for (const key of Object.keys(file)) {
      expect(mqtt[key], `MQTT ${key}`).toEqual(file[key]);
      expect(page[key], `state.json ${key}`).toEqual(file[key]);
    }
    for (const key of Object.keys(mqtt)) expect(page[key], `state.json ${key}`).toEqual(mqtt[key]);
    expect(
      Object.keys(mqtt)
        .filter((k) => !(k in file))
        .sort(),
    ).toEqual(['held', 'next_update_at', 'stale', 'stale_since']);

    // The shared fields, made one way: times with the zone's offset, null for a missing reading, garments, staleness.
    expect(file.fetched_at).toMatch(ZONED);
    // runOnce without the scheduler: no next update is planned.
    expect(mqtt.next_update_at).toBeNull();
    expect(mqtt).toMatchObject({ stale: false, stale_since: null, held: null });
    expect(file.garments).toEqual(expect.any(Array));
    expect(file.garments_text).toBe((file.garments as string[]).join(', '));
    expect(Object.keys(file.wear as object).length).toBeGreaterThan(0);
    const weather = file.weather as Record<string, unknown>;
    for (const k of WEATHER_READINGS) expect(weather, k).toHaveProperty(k);
    for (const k of ['reasoning', 'model', 'generated_at']) expect(file, k).toHaveProperty(k);
  });

  it('gives times with the zone offset and, before the first frame, only the times (stale)', () => {
    const rec = { outfit: 'A coat.', weather: { alerts: [] }, fetched_at: '2026-01-31T07:00:01.000Z' };
    const since = new Date('2026-01-31T09:00:00.000Z');
    const state = displayState(
      { rec, status: { kind: 'ok' }, nextUpdateAt: new Date('2026-01-31T10:00:00.000Z'), staleSince: since },
      'Europe/Berlin',
    );
    expect(state).toMatchObject({
      fetched_at: '2026-01-31T08:00:01.000+01:00',
      next_update_at: '2026-01-31T11:00:00.000+01:00',
      stale: true,
      stale_since: '2026-01-31T10:00:00.000+01:00',
    });
    expect(state.weather).toMatchObject({ temp: null, uv_index: null, alerts: [] });
    expect(state).toMatchObject({ reasoning: null, model: null, generated_at: null, garments: ['coat'] });
    expect(displayState({ rec: null, nextUpdateAt: null }, 'Europe/Berlin')).toEqual({
      next_update_at: null,
      stale: true,
      stale_since: null,
      held: null,
    });
  });
});
