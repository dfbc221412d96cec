import { describe, expect, it } from 'vitest';
import { PersonSchema } from '../../src/config/schema.js';
import { WARMTH } from '../../src/domain/warmth.js';
import { personDiscovery, personState } from '../../src/mqtt/person-discovery.js';
import { deviceOfNode, mqttTopics, personCommand, personOfNode } from '../../src/mqtt/topics.js';
import { checkDeviceDiscovery, checkStates } from './ha-checker.js';

/** A person's Home Assistant device and state, pure: what HA accepts, and the topics the buttons and number send on. */

const topics = mqttTopics('outfit-display', 'homeassistant');
const anna = PersonSchema.parse({ id: 'anna', name: 'Anna', gender: 'female' });
const AT = Date.UTC(2026, 0, 31, 7);

describe('personDiscovery', () => {
  const { topic, payload } = personDiscovery({ person: anna, topics, swVersion: '1.2.3' });

  it('is a device of its own, named for the person, that Home Assistant accepts', () => {
    expect(topic).toBe('homeassistant/device/outfit-display_PERSON_anna/config');
    expect(checkDeviceDiscovery(topic, payload)).toEqual([]);
    expect(payload.device).toMatchObject({ name: 'Anna', identifiers: ['outfit-display_PERSON_anna'] });
    expect(payload.origin.name).toBe('outfit-display');
    // Neither a display's node nor a device's: the removal of stale nodes tells them apart.
    expect(personOfNode(topics, 'outfit-display_PERSON_anna')).toBe('anna');
    expect(personOfNode(topics, 'outfit-display_anna')).toBeNull();
    expect(deviceOfNode(topics, 'outfit-display_PERSON_anna')).toBeNull();
  });

  it('has "Too cold" and "Too warm" buttons on the feedback topic, not retained', () => {
    expect(payload.components.too_cold).toMatchObject({
      platform: 'button',
      name: 'Too cold',
      command_topic: 'outfit-display/people/anna/feedback',
      payload_press: 'too_cold',
      retain: false,
    });
    expect(payload.components.too_warm).toMatchObject({
      platform: 'button',
      name: 'Too warm',
      command_topic: 'outfit-display/people/anna/feedback',
      payload_press: 'too_warm',
      retain: false,
    });
    expect(personCommand(topics, 'outfit-display/people/anna/feedback')).toEqual({
      personId: 'anna',
      command: 'feedback',
    });
  });

  it('has a "Warmth offset" number in °C within ±WARMTH.maxC, set on offset/set, read from the person state', () => {
    expect(payload.components.warmth_offset).toMatchObject({
      platform: 'number',
      name: 'Warmth offset',
      command_topic: 'outfit-display/people/anna/offset/set',
      state_topic: 'outfit-display/people/anna/state',
      min: -WARMTH.maxC,
      max: WARMTH.maxC,
      step: 0.5,
      unit_of_measurement: '°C',
      retain: false,
    });
    // A temperature device class would make HA convert an offset as if it were a temperature (−3 °C ≠ 26.6 °F).
    expect(payload.components.warmth_offset).not.toHaveProperty('device_class');
    expect(personCommand(topics, 'outfit-display/people/anna/offset/set')).toEqual({
      personId: 'anna',
      command: 'offset',
    });
  });

  it('has the outfit, what to wear and the presence as sensors, and no image entity where no device shows them alone', () => {
    expect(Object.keys(payload.components).sort()).toEqual([
      'garments',
      'outfit',
      'presence',
      'too_cold',
      'too_warm',
      'warmth_offset',
    ]);
    expect(payload.components.presence).toMatchObject({ device_class: 'enum', options: ['home', 'away', 'unknown'] });
  });

  it('has their frame as an image entity where a device shows them alone, which Home Assistant accepts', () => {
    const framed = personDiscovery({ person: anna, topics, swVersion: '1.2.3', framed: true });
    expect(checkDeviceDiscovery(framed.topic, framed.payload)).toEqual([]);
    expect(framed.payload.components.frame).toMatchObject({
      platform: 'image',
      image_topic: 'outfit-display/people/anna/image',
      content_type: 'image/png',
    });
  });

  it('shows every state Home Assistant can store: before the first frame, and with a long outfit and additions', () => {
    const state = (s: ReturnType<typeof personState>) =>
      checkStates(payload, new Map([[topics.personState('anna'), Buffer.from(JSON.stringify(s))]]));
    const before = state(personState(anna, 0, null, 'unknown', null));
    expect(before.problems).toEqual([]);
    expect(before.states).toMatchObject({ warmth_offset: '0', outfit: '', garments: '', presence: 'unknown' });

    const long = 'A thermal base layer under a fleece and a waterproof shell. '.repeat(10);
    const shown = { outfit: long, garments: ['coat', 'boots'], additions: ['scarf', 'warm-hat'] };
    const after = state(personState(anna, -3, AT, 'away', shown));
    expect(after.problems).toEqual([]);
    expect(after.states).toMatchObject({
      warmth_offset: '-3',
      presence: 'away',
      garments: 'coat, boots + scarf, warm-hat',
    });
    expect(Array.from(after.states.outfit!).length).toBeLessThanOrEqual(255);
  });
});

describe('personState', () => {
  it('lists the offset, when it was set, presence, the outfit, its garments and the additions', () => {
    expect(
      personState(anna, -2.5, AT, 'home', { outfit: 'Coat and boots', garments: ['coat'], additions: ['gloves'] }),
    ).toEqual({
      id: 'anna',
      name: 'Anna',
      offset_c: -2.5,
      offset_set_at: '2026-01-31T07:00:00.000Z',
      away: false,
      presence: 'home',
      outfit: 'Coat and boots',
      outfit_text: 'Coat and boots',
      garments: ['coat'],
      additions: ['gloves'],
      garments_text: 'coat + gloves',
    });
    expect(personState(anna, 0, null, 'away', null)).toMatchObject({ away: true, outfit: null, garments: [] });
  });

  it('reads no other topic as a person command', () => {
    for (const t of [
      'outfit-display/people/Anna/feedback',
      'outfit-display/people/anna/feedback/x',
      'outfit-display/people//feedback',
      'outfit-display/people/anna/offset',
      'outfit-display/anna/feedback',
      'other/people/anna/feedback',
    ])
      expect(personCommand(topics, t)).toBeNull();
  });
});
