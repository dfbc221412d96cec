import type { PersonConfig } from '../config/schema.js';
import { WARMTH } from '../domain/warmth.js';
import type { PersonShown } from '../household/person-shown.js';
import type { Presence } from '../household/presence-book.js';
import { component, originOf, type Component, type DeviceDiscovery } from './ha-discovery.js';
import type { MqttTopics } from './topics.js';

/**
 * Each person of the household as their own Home Assistant device, pure: the person's retained state
 * (`<b>/people/<id>/state`) and their device discovery (`<p>/device/<b>_PERSON_<id>/config`): the "Too cold" and
 * "Too warm" buttons, the "Warmth offset" number, their outfit, garments and presence as the daemon sees them.
 * Where a device shows only them (a TRMNL device's or a tag's `person`), their frame too, as an image entity.
 */

/** The retained JSON of `<b>/people/<id>/state`. */
export interface PersonState {
  id: string;
  name: string;
  /** °C, negative: runs cold; faded to the moment of the message. */
  offset_c: number;
  /** When the offset was last set by a vote or directly (ISO), or null: never. */
  offset_set_at: string | null;
  /** Not at home, as the presence topic last said. */
  away: boolean;
  /** home | away | unknown (no presence topic, or no message yet: counted as at home). */
  presence: Presence;
  outfit: string | null;
  /** The outfit cut to Home Assistant's 255 characters; "" when none. */
  outfit_text: string;
  garments: readonly string[];
  additions: readonly string[];
  /** Garments, then "+ " and the additions, cut to 255 characters: the "What to wear" sensor. */
  garments_text: string;
}

/** Home Assistant keeps a state of at most 255 characters. */
function cut(s: string): string {
  const chars = Array.from(s);
  return chars.length <= 255 ? s : `${chars.slice(0, 254).join('')}…`;
}

export function personState(
  person: PersonConfig,
  offsetC: number,
  offsetSetAt: number | null,
  presence: Presence,
  shown: PersonShown | null,
): PersonState {
  const garments = shown?.garments ?? [];
  const additions = shown?.additions ?? [];
  const own = additions.length === 0 ? '' : `+ ${additions.join(', ')}`;
  return {
    id: person.id,
    name: person.name,
    offset_c: offsetC,
    offset_set_at: offsetSetAt === null ? null : new Date(offsetSetAt).toISOString(),
    away: presence === 'away',
    presence,
    outfit: shown?.outfit ?? null,
    outfit_text: cut(shown?.outfit ?? ''),
    garments,
    additions,
    garments_text: cut([garments.join(', '), own].filter((s) => s !== '').join(' ')),
  };
}

export interface PersonDiscoveryInput {
  person: PersonConfig;
  topics: MqttTopics;
  swVersion: string;
  supportUrl?: string;
  /** A device shows only them: their own frame is published (`<b>/people/<id>/image`), an image entity. */
  framed?: boolean;
}

export function personDiscovery(input: PersonDiscoveryInput): { topic: string; payload: DeviceDiscovery } {
  const { person, topics } = input;
  const node = topics.personNode(person.id);
  const state = topics.personState(person.id);
  const availability = [{ topic: topics.status, payload_available: 'online', payload_not_available: 'offline' }];
  const entity = (platform: string, key: string, name: string, rest: Record<string, unknown>): [string, Component] =>
    component({ node, platform, key, name, availability }, rest);
  const vote = (key: 'too_cold' | 'too_warm', name: string, icon: string): [string, Component] =>
    entity('button', key, name, {
      command_topic: topics.personFeedback(person.id),
      payload_press: key,
      retain: false,
      icon,
    });
  const components = Object.fromEntries([
    vote('too_cold', 'Too cold', 'mdi:snowflake-thermometer'),
    vote('too_warm', 'Too warm', 'mdi:sun-thermometer'),
    entity('number', 'warmth_offset', 'Warmth offset', {
      command_topic: topics.personOffsetSet(person.id),
      state_topic: state,
      value_template: '{{ value_json.offset_c }}',
      min: -WARMTH.maxC,
      max: WARMTH.maxC,
      // Finer than a vote's step (WARMTH.stepC): a set may say what the votes cannot.
      step: 0.5,
      mode: 'slider',
      unit_of_measurement: '°C',
      retain: false,
      icon: 'mdi:thermometer-plus',
      json_attributes_topic: state,
      json_attributes_template: "{{ {'offset_set_at': value_json.offset_set_at} | tojson }}",
    }),
    entity('sensor', 'outfit', 'Outfit', {
      state_topic: state,
      value_template: '{{ value_json.outfit_text[:255] }}',
      icon: 'mdi:tshirt-crew',
      json_attributes_topic: state,
      json_attributes_template: "{{ {'outfit': value_json.outfit} | tojson }}",
    }),
    entity('sensor', 'garments', 'What to wear', {
      state_topic: state,
      value_template: '{{ value_json.garments_text[:255] }}',
      icon: 'mdi:hanger',
      json_attributes_topic: state,
      json_attributes_template: "{{ {'garments': value_json.garments, 'additions': value_json.additions} | tojson }}",
    }),
    entity('sensor', 'presence', 'Presence', {
      state_topic: state,
      value_template: '{{ value_json.presence }}',
      device_class: 'enum',
      options: ['home', 'away', 'unknown'],
      icon: 'mdi:home-account',
    }),
    ...(input.framed === true
      ? [entity('image', 'frame', 'Frame', { image_topic: topics.personImage(person.id), content_type: 'image/png' })]
      : []),
  ]);
  return {
    topic: topics.personConfig(person.id),
    payload: {
      device: {
        identifiers: [node],
        name: person.name,
        manufacturer: 'outfit-display',
        model: 'Household member',
        sw_version: input.swVersion,
      },
      origin: originOf(input.swVersion, input.supportUrl),
      components,
    },
  };
}
