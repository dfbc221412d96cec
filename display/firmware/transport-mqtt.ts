import { createHash } from 'node:crypto';
import mqtt from 'mqtt';
import { systemClock, type Clock } from '../../src/time/clock.js';
import type { FetchOutcome, Transport, WakeInfo } from './transport.js';

/**
 * A device that takes its picture from MQTT: on every wake it connects, subscribes to `<base>/<id>/image` (the
 * retained PNG) and `<base>/<id>/state` (for next_update_at), takes what the broker holds, and disconnects.
 */

export interface MqttTransportOptions {
  url: string;
  baseTopic: string;
  displayId: string;
  username?: string;
  password?: string | null;
  /** How long to wait for the retained image after subscribing. Default 3 s. */
  waitMs?: number;
  /** Seconds added to the time until next_update_at. Default 30. */
  marginS?: number;
  /** The device's wall time, to turn next_update_at into a sleep; default systemClock. */
  clock?: Clock;
}

export class MqttTransport implements Transport {
  readonly via = 'mqtt' as const;
  readonly #o: MqttTransportOptions;
  #lastHash: string | null = null;

  constructor(opts: MqttTransportOptions) {
    this.#o = opts;
  }

  async fetch(_info: WakeInfo): Promise<FetchOutcome> {
    const base = this.#o.baseTopic.replace(/\/+$/, '');
    const imageTopic = `${base}/${this.#o.displayId}/image`;
    const stateTopic = `${base}/${this.#o.displayId}/state`;
    let client: mqtt.MqttClient;
    try {
      client = await mqtt.connectAsync(this.#o.url, {
        reconnectPeriod: 0,
        connectTimeout: 5_000,
        clean: true,
        clientId: `outfit-sim-${Math.random().toString(16).slice(2, 10)}`,
        ...(this.#o.username ? { username: this.#o.username } : {}),
        ...(this.#o.password ? { password: this.#o.password } : {}),
      });
    } catch (err) {
      return {
        kind: 'error',
        code: 'MQTT_UNABLE_TO_CONNECT',
        message: `unable to connect (${(err as Error).message})`,
        refreshRateS: null,
      };
    }
    try {
      let image: Buffer | null = null;
      let state: Buffer | null = null;
      const timers: NodeJS.Timeout[] = [];
      const got = new Promise<void>((resolve) => {
        client.on('message', (topic, payload) => {
          if (topic === imageTopic) image = payload;
          if (topic === stateTopic) state = payload;
          if (image !== null && state !== null) resolve();
          // The state may not be retained yet: a moment more for it, then go with the image alone.
          else if (image !== null && timers.length === 1) timers.push(setTimeout(resolve, 300));
        });
        timers.push(setTimeout(resolve, this.#o.waitMs ?? 3_000));
      });
      got.finally(() => timers.forEach(clearTimeout)).catch(() => undefined);
      await client.subscribeAsync([imageTopic, stateTopic], { qos: 1 });
      await got;
      const refreshRateS = this.#rateFrom(state);
      const img = image as Buffer | null;
      if (img === null || img.length === 0)
        return { kind: 'nothing', refreshRateS, note: `nothing retained on ${imageTopic}` };
      const hash = createHash('sha256').update(img).digest('hex');
      if (hash === this.#lastHash) return { kind: 'unchanged', refreshRateS, note: 'same retained image' };
      this.#lastHash = hash;
      return {
        kind: 'image',
        bytes: img,
        contentType: null,
        filename: null,
        downloaded: true,
        refreshRateS,
        note: `retained image on ${imageTopic}`,
      };
    } finally {
      await client.endAsync(true).catch(() => undefined);
    }
  }

  #rateFrom(state: Buffer | null): number | null {
    if (state === null) return null;
    try {
      const next = Date.parse((JSON.parse(state.toString('utf8')) as { next_update_at?: string }).next_update_at ?? '');
      if (!Number.isFinite(next)) return null;
      const s = Math.ceil((next - (this.#o.clock ?? systemClock).now()) / 1000) + (this.#o.marginS ?? 30);
      return Math.min(86_400, Math.max(60, s));
    } catch {
      return null;
    }
  }

  refused(): void {
    this.#lastHash = null;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
