import { component, type Component } from './ha-discovery.js';
import type { MqttTopics } from './topics.js';

/**
 * The TRMNL pairing button of a display that has TRMNL devices, as a Home Assistant component added to that display's
 * device discovery: its command topic (topics.ts's `pair`, not retained) opens TRMNL pairing of the display's devices
 * for 5 minutes.
 */

/** The pairing button, for `deviceDiscovery(...).payload.components` of a display that has a TRMNL device. */
export function pairComponents(topics: MqttTopics, displayId: string): Record<string, Component> {
  const availability = [{ topic: topics.status, payload_available: 'online', payload_not_available: 'offline' }];
  return Object.fromEntries([
    component(
      {
        node: topics.nodeId(displayId),
        platform: 'button',
        key: 'device_pair',
        name: 'Pair TRMNL device',
        availability,
      },
      {
        command_topic: topics.pair(displayId),
        payload_press: 'PRESS',
        retain: false,
        entity_category: 'config',
        icon: 'mdi:link-variant',
      },
    ),
  ]);
}
