import { describe, expect, it } from 'vitest';
import {
  dataTopicsOf,
  deviceDiscovery,
  entitySlug,
  haTempUnit,
  haWindUnit,
  isOurDevice,
} from '../../src/mqtt/ha-discovery.js';
import { diagnosticsPayload, statePayload } from '../../src/state/state-payload.js';
import { isoWithOffset } from '../../src/time/zoned-time.js';
import { mqttTopics, refreshTarget } from '../../src/mqtt/topics.js';
import { checkDeviceDiscovery, checkStates } from './ha-checker.js';
import { display } from '../fixtures/display.js';
import { rec } from '../fixtures/rec.js';

const topics = mqttTopics('outfit-display', 'homeassistant');
const TZ = 'Europe/Berlin';

function discovery(over: Partial<Parameters<typeof deviceDiscovery>[0]> = {}) {
  return deviceDiscovery({
    display: display('hallway', { panel: 'waveshare-7in5-v2' }),
    topics,
    swVersion: '0.1.0',
    expireAfterS: 5400,
    ...over,
  });
}

describe('Home Assistant device discovery', () => {
  it('is one retained device config a display, at the exact topic, with device, origin and every entity', () => {
    const { topic, payload } = discovery();
    expect(topic).toBe('homeassistant/device/outfit-display_hallway/config');
    expect(Object.keys(payload)).toEqual(['device', 'origin', 'components']);
    expect(payload.device).toEqual({
      identifiers: ['outfit-display_hallway'],
      name: 'Hallway',
      manufacturer: 'outfit-display',
      model: 'E-ink outfit display',
      model_id: 'waveshare-7in5-v2',
      sw_version: '0.1.0',
    });
    expect(payload.origin).toEqual({ name: 'outfit-display', sw_version: '0.1.0' });
    expect(Object.keys(payload.components)).toEqual([
      'frame',
      'temperature',
      'feels_like',
      'humidity',
      'wind_speed',
      'wind_direction',
      'rain_chance',
      'uv_index',
      'conditions',
      'daytime',
      'alerts',
      'outfit',
      'garments',
      'umbrella',
      'sunscreen',
      'last_update',
      'next_update',
      'status',
      'credits_spent_today',
      'credits_left_today',
      'credits_left_month',
      'rate_limit_remaining',
      'state_problem',
      'render_problem',
      'stale',
      'refresh',
    ]);
    expect(payload.components.frame).toEqual({
      platform: 'image',
      name: 'Frame',
      unique_id: 'outfit-display_hallway_frame',
      default_entity_id: 'image.outfit_display_hallway_frame',
      availability: [{ topic: 'outfit-display/status', payload_available: 'online', payload_not_available: 'offline' }],
      qos: 1,
      image_topic: 'outfit-display/hallway/image',
      content_type: 'image/png',
    });
    expect(payload.components.temperature).toMatchObject({
      platform: 'sensor',
      state_topic: 'outfit-display/hallway/state',
      value_template: '{{ value_json.weather.temp }}',
      device_class: 'temperature',
      unit_of_measurement: '°C',
      state_class: 'measurement',
      expire_after: 5400,
    });
    expect(payload.components.refresh).toMatchObject({
      platform: 'button',
      command_topic: 'outfit-display/hallway/refresh',
      retain: false,
    });
    expect(payload.components.last_update).not.toHaveProperty('expire_after');
    expect(JSON.stringify(payload)).not.toContain('object_id');
  });

  it('passes the HA checker for metric, imperial, unknown units and without expire_after', () => {
    const cases = [
      discovery(),
      discovery({
        display: display('porch', { unit: 'imperial', name: 'Front porch' }),
        tempUnit: '°F',
        windUnit: 'mph',
      }),
      discovery({ tempUnit: 'C', windUnit: 'kph' }),
      discovery({ tempUnit: 'Réaumur', windUnit: 'furlongs/fortnight', expireAfterS: null }),
      deviceDiscovery({
        display: display('a-b_c'),
        topics: mqttTopics('home/outfit/', 'ha/'),
        swVersion: 'unknown',
        supportUrl: 'https://example.org/outfit',
      }),
    ];
    for (const { topic, payload } of cases) {
      const prefix = topic.split('/device/')[0];
      expect(checkDeviceDiscovery(topic, payload, prefix), topic).toEqual([]);
    }
    const imperial = cases[1]!.payload.components;
    expect(imperial.temperature).toMatchObject({ device_class: 'temperature', unit_of_measurement: '°F' });
    expect(imperial.wind_speed).toMatchObject({ device_class: 'wind_speed', unit_of_measurement: 'mph' });
    expect(cases[2]!.payload.components.wind_speed).toMatchObject({ unit_of_measurement: 'km/h' });
    // A unit HA's device classes cannot take: a plain measurement sensor with the service's unit, never rejected.
    expect(cases[3]!.payload.components.temperature).not.toHaveProperty('device_class');
    expect(cases[3]!.payload.components.temperature).toMatchObject({ unit_of_measurement: 'Réaumur' });
    expect(cases[4]!.topic).toBe('ha/device/home_outfit_a-b_c/config');
    expect(cases[4]!.payload.components.outfit?.default_entity_id).toBe('sensor.home_outfit_a_b_c_outfit');
  });

  it('the checker itself rejects what HA rejects', () => {
    const bad = structuredClone(discovery().payload) as unknown as {
      device: Record<string, unknown>;
      origin: Record<string, unknown>;
      components: Record<string, Record<string, unknown>>;
    };
    bad.device.area = 'Hall';
    delete bad.origin.name;
    bad.components.temperature!.unit_of_measurement = 'C';
    bad.components.frame!.image_topic = undefined;
    delete bad.components.frame!.image_topic;
    bad.components.humidity!.object_id = 'x';
    delete bad.components.uv_index!.availability;
    bad.components.outfit!.default_entity_id = 'binary_sensor.outfit';
    bad.components.last_update!.unit_of_measurement = 's';
    const problems = checkDeviceDiscovery('homeassistant/device/outfit-display_hallway/config', bad).join('\n');
    for (const expected of [
      'extra key "area"',
      'origin.name',
      'unit C is not valid',
      'exactly one of image_topic',
      'object_id',
      'uv_index: availability',
      'outfit: default_entity_id',
      'timestamp: no unit',
    ]) {
      expect(problems).toContain(expected);
    }
  });

  it('keeps text states within 255 characters and every state valid for its entity', () => {
    const long = 'A warm wool coat, '.repeat(30) + 'and boots.';
    const r = rec({ outfit: long, alerts: ['Storm warning', { title: 'Flooding', severity: 'moderate' }] });
    const { payload } = discovery();
    const retained = new Map<string, Buffer>([
      [topics.state('hallway'), Buffer.from(statePayload(r, new Date('2026-01-31T07:30:00Z'), { kind: 'ok' }, TZ))],
      [
        topics.diagnostics('hallway'),
        Buffer.from(
          diagnosticsPayload(
            { kind: 'ok' },
            { spentToday: 3, leftToday: 197, leftMonth: Infinity, rateRemaining: 59 },
            TZ,
          ),
        ),
      ],
      [topics.image('hallway'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1])],
    ]);
    const { problems, states } = checkStates(payload, retained);
    expect(problems).toEqual([]);
    expect(Array.from(states.outfit!).length).toBe(255);
    expect(states).toMatchObject({
      temperature: '13',
      feels_like: '11.5',
      wind_direction: 'NW',
      daytime: 'ON',
      alerts: 'ON',
      last_update: '2026-01-31T08:00:01.000+01:00',
      next_update: '2026-01-31T08:30:00.000+01:00',
      status: 'ok',
      credits_left_month: 'None',
    });
  });
});

describe('state, diagnostics and topics', () => {
  it('writes times with the zone offset, winter and summer', () => {
    expect(isoWithOffset(new Date('2026-01-31T07:00:00.000Z'), TZ)).toBe('2026-01-31T08:00:00.000+01:00');
    expect(isoWithOffset(new Date('2026-07-01T22:30:05.123Z'), TZ)).toBe('2026-07-02T00:30:05.123+02:00');
    expect(isoWithOffset(new Date('2026-07-01T22:30:05.123Z'), 'UTC')).toBe('2026-07-01T22:30:05.123+00:00');
    expect(isoWithOffset(new Date('2026-01-31T07:00:00.000Z'), 'Asia/Kolkata')).toBe('2026-01-31T12:30:00.000+05:30');
  });

  it('state is the Recommendation plus fetched_at, next_update_at and stale', () => {
    const r = rec();
    const state = JSON.parse(statePayload(r, null, { kind: 'stale', since: new Date() }, TZ)) as Record<
      string,
      unknown
    >;
    expect(state).toMatchObject({
      outfit: r.outfit,
      reasoning: r.reasoning,
      model: r.model,
      weather: r.weather,
      generated_at: r.generated_at,
    });
    expect(state).toMatchObject({ fetched_at: '2026-01-31T08:00:01.000+01:00', next_update_at: null, stale: true });
  });

  it('diagnostics carry the status and the budget, null where there is no figure', () => {
    const until = new Date('2026-02-01T00:00:00Z');
    const d = JSON.parse(diagnosticsPayload({ kind: 'budget_exhausted', until }, null, 'UTC')) as Record<
      string,
      unknown
    >;
    expect(d).toMatchObject({
      status: 'budget_exhausted',
      status_until: '2026-02-01T00:00:00.000+00:00',
      credits_spent_today: null,
      rate_limit_remaining: null,
    });
  });

  it('finds the display of a refresh topic and nothing else', () => {
    expect(refreshTarget(topics, 'outfit-display/hallway/refresh')).toBe('hallway');
    for (const t of [
      'outfit-display/Hallway/refresh',
      'outfit-display//refresh',
      'outfit-display/a/b/refresh',
      'other/hallway/refresh',
      'outfit-display/hallway/refresh/x',
    ]) {
      expect(refreshTarget(topics, t), t).toBeNull();
    }
  });

  it('recognises its own device configs and their data topics, not others', () => {
    const { topic, payload } = discovery();
    expect(isOurDevice(topics, topic, payload)).toBe(true);
    expect(isOurDevice(topics, topic, { ...payload, origin: { name: 'zigbee2mqtt' } })).toBe(false);
    expect(isOurDevice(topics, 'homeassistant/device/zigbee_hallway/config', payload)).toBe(false);
    expect(dataTopicsOf(payload, topics).sort()).toEqual([
      'outfit-display/hallway/diagnostics',
      'outfit-display/hallway/image',
      'outfit-display/hallway/state',
    ]);
  });

  it('maps units and slugs the way HA wants them', () => {
    expect([haTempUnit('°C'), haTempUnit('F'), haTempUnit('kelvin'), haTempUnit('x'), haTempUnit(null)]).toEqual([
      '°C',
      '°F',
      'K',
      null,
      null,
    ]);
    expect([haWindUnit('km/h'), haWindUnit('MPH'), haWindUnit('m/s'), haWindUnit('knots'), haWindUnit('')]).toEqual([
      'km/h',
      'mph',
      'm/s',
      'kn',
      null,
    ]);
    expect(entitySlug('Outfit-Display__Hall/way_')).toBe('outfit_display_hall_way');
  });
});
