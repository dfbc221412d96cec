import type { Logger } from 'pino';
import type { DisplayConfig } from '../config/schema.js';
import type { DisplayView } from '../state/display-views.js';
import { dataTopicsOf, deviceDiscovery, isOurDevice } from './ha-discovery.js';
import { pairComponents } from './pair-button.js';
import { discoveryNode, type MqttTopics } from './topics.js';

/**
 * The displays' Home Assistant devices: each display's discovery config, sent when it changes (and on every connect),
 * cleared for a display switched off; and the retained config of a display no longer configured, removed with its
 * retained data when the broker hands it back.
 */

export interface DisplayDiscoveryOptions {
  topics: MqttTopics;
  /** The displays by id, as the publisher knows them (a published view's display replaces its entry). */
  displays: ReadonlyMap<string, DisplayConfig>;
  /** The device's sw_version. */
  swVersion: string;
  /** http(s) URL for HA's origin block. */
  supportUrl?: string;
  /** Whether a display gets a Home Assistant device (default: every display). */
  haDiscovery?: (displayId: string) => boolean;
  /** Whether a TRMNL device shows this display: the display's HA device gets the pairing button. */
  hasDevice?: (displayId: string) => boolean;
  /** HA's expire_after for the readings, from the schedule; null: none. */
  expireAfterS?: (displayId: string) => number | null;
  /** Whether a discovery node of ours that is no display's is kept (a pulling device's, a person's). */
  keeps: (node: string) => boolean;
  /** Publishes retained. */
  send: (topic: string, payload: string) => void;
  logger: Logger;
}

export class DisplayDiscovery {
  readonly #o: DisplayDiscoveryOptions;
  /** Discovery JSON sent on the current connection, by display id ('' for a config cleared). */
  readonly #sent = new Map<string, string>();

  constructor(opts: DisplayDiscoveryOptions) {
    this.#o = opts;
  }

  /** A new connection: every config is sent again. */
  forget(): void {
    this.#sent.clear();
  }

  /** Sends the display's config when it changed (or always, `force`). `view`: for the units of its readings. */
  announce(id: string, force: boolean, view: DisplayView | null): void {
    const { topics } = this.#o;
    const display = this.#o.displays.get(id);
    if (!display) return;
    if (this.#o.haDiscovery?.(id) === false) {
      if (force || this.#sent.get(id) !== '') this.#o.send(topics.displayConfig(id), '');
      this.#sent.set(id, '');
      return;
    }
    const weather = view?.rec?.weather;
    const { topic, payload } = deviceDiscovery({
      display,
      topics,
      swVersion: this.#o.swVersion,
      tempUnit: weather?.temp_unit,
      windUnit: weather?.wind_speed_unit,
      expireAfterS: this.#o.expireAfterS?.(id) ?? null,
      supportUrl: this.#o.supportUrl,
    });
    if (this.#o.hasDevice?.(id)) Object.assign(payload.components, pairComponents(topics, id));
    const json = JSON.stringify(payload);
    if (!force && this.#sent.get(id) === json) return;
    this.#sent.set(id, json);
    this.#o.send(topic, json);
  }

  /** A retained discovery config of ours for a display no longer configured: cleared with its retained data. */
  removeIfStale(topic: string, payload: Buffer, retained: boolean): void {
    if (!retained || payload.length === 0) return;
    const { topics } = this.#o;
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload.toString());
    } catch {
      return;
    }
    if (!isOurDevice(topics, topic, parsed)) return;
    if ([...this.#o.displays.keys()].some((id) => topics.displayConfig(id) === topic)) return;
    if (this.#o.keeps(discoveryNode(topics, topic)!)) return;
    const data = dataTopicsOf(parsed, topics);
    this.#o.logger.info({ topic, data }, 'display no longer configured; removing its Home Assistant device');
    this.#o.send(topic, '');
    for (const t of data) this.#o.send(t, '');
  }
}
