import type { DisplayConfig } from '../config/schema.js';
import type { DeviceBook, DeviceEntry, DeviceEvent } from '../state/device-book.js';
import { deviceDiscovery, devicePayload, reportedFields } from './device-discovery.js';
import { deviceOfNode, type MqttTopics } from './topics.js';
import { trmnlDeviceKey } from '../trmnl/mac.js';

/**
 * What the MQTT publisher sends of the devices that pull frames (device-discovery.ts has the topics): their state and
 * availability at every wake and when one goes quiet, their discovery when it gains an entity, and all of it again
 * on every connect and when Home Assistant comes online.
 */

export interface DeviceEntitiesOptions {
  topics: MqttTopics;
  book: DeviceBook;
  displays: ReadonlyMap<string, DisplayConfig>;
  timezone: string;
  swVersion: string;
  supportUrl?: string;
  /** Whether the display's devices are announced to Home Assistant (its `home_assistant` and `mqtt.discovery`). */
  haDiscovery: (displayId: string) => boolean;
  /** MACs of the configured TRMNL devices by display: a device node of another is not ours any more. */
  trmnlMacs: (displayId: string) => readonly string[];
  /** Publishes retained. */
  send: (topic: string, payload: string) => void;
}

interface Known {
  fields: Set<string>;
  /** The discovery JSON last sent on this connection. */
  sent: string | null;
}

export class DeviceEntities {
  readonly #o: DeviceEntitiesOptions;
  readonly #known = new Map<string, Known>();

  constructor(opts: DeviceEntitiesOptions) {
    this.#o = opts;
    opts.book.onEvent((e) => this.#onEvent(e));
  }

  /** Every device again (a new connection, Home Assistant back online). */
  resendAll(): void {
    for (const k of this.#known.values()) k.sent = null;
    for (const d of this.#o.book.list()) this.#publish(d);
  }

  /**
   * Whether a retained discovery config of ours belongs to a device still served: its display is configured, and a
   * TRMNL's MAC is still bound to it. Null when the node is no device's (a display's: the caller decides).
   */
  keeps(node: string): boolean | null {
    const dev = deviceOfNode(this.#o.topics, node);
    if (dev === null) return null;
    if (!this.#o.displays.has(dev.displayId)) return false;
    if (dev.key === 'kindle') return true;
    return this.#o.trmnlMacs(dev.displayId).some((m) => trmnlDeviceKey(m) === dev.key);
  }

  #onEvent(e: DeviceEvent): void {
    if (e.kind === 'quiet') {
      this.#o.send(this.#o.topics.deviceAvailability(e.device.display, e.device.key), 'offline');
      return;
    }
    this.#publish(e.device);
  }

  #publish(d: DeviceEntry): void {
    const id = `${d.display}\u0000${d.key}`;
    const known = this.#known.get(id) ?? { fields: new Set<string>(), sent: null };
    this.#known.set(id, known);
    for (const f of reportedFields(d)) known.fields.add(f);
    // The book keeps a device's sensor kinds, as many as it allows (MAX_SENSOR_KINDS): so many entities at most.
    const sensors = this.#o.book.sensorKinds(d.display, d.key);
    const display = this.#o.displays.get(d.display);
    if (display !== undefined && this.#o.haDiscovery(d.display)) {
      const { topic, payload } = deviceDiscovery({
        topics: this.#o.topics,
        display,
        device: d,
        fields: known.fields,
        sensors,
        swVersion: this.#o.swVersion,
        ...(this.#o.supportUrl !== undefined && { supportUrl: this.#o.supportUrl }),
      });
      const json = JSON.stringify(payload);
      if (known.sent !== json) {
        known.sent = json;
        this.#o.send(topic, json);
      }
    }
    this.#o.send(this.#o.topics.deviceState(d.display, d.key), devicePayload(d, this.#o.timezone, [...sensors.keys()]));
    this.#o.send(this.#o.topics.deviceAvailability(d.display, d.key), d.available ? 'online' : 'offline');
  }
}
