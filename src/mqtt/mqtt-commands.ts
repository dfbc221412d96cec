import type { Logger } from 'pino';
import { systemClock, type Clock } from '../time/clock.js';
import { pairTarget, refreshTarget, type MqttTopics } from './topics.js';

/**
 * The displays' commands over MQTT: a refresh press (`<base>/<id>/refresh`), a TRMNL pairing press
 * (`<base>/<id>/pair`), and Home Assistant coming online (`homeassistant/status`: everything is sent again, after a
 * random delay so that many daemons do not answer at once); and the size limit every command topic is held to.
 */

/**
 * The largest payload taken on a command topic (refresh, pairing, homeassistant/status): Home Assistant's button sends
 * `PRESS` and its status `online` or `offline`; any press is a few bytes, and the embedded broker takes no larger
 * press from a guest either (policy.ts, refreshBytes). A larger one is ignored (W_MQTT_COMMAND_TOO_LARGE).
 */
export const MAX_COMMAND_BYTES = 1024;

export interface MqttCommandsOptions {
  topics: MqttTopics;
  /** Whether a display is configured (a refresh of any other is warned about). */
  isDisplay: (displayId: string) => boolean;
  /** A refresh press: called once a press with the display id; coalescing and budget are the caller's. */
  onRefresh: (displayId: string) => unknown;
  /** A press of a display's TRMNL pairing button (displays with `hasDevice` only). */
  onPair?: (displayId: string) => unknown;
  /** Whether a TRMNL device shows this display. */
  hasDevice?: (displayId: string) => boolean;
  /** Home Assistant came online, and the delay after it passed: send everything again. */
  onHaOnline: () => void;
  /** Delay before onHaOnline; default 1–5 s. */
  haOnlineDelayMs?: { min: number; max: number };
  /** Draws the delay; default Math.random. */
  random?: () => number;
  /** The delay's timer; default systemClock. */
  clock?: Clock;
  logger: Logger;
}

export class MqttCommands {
  readonly #o: MqttCommandsOptions;
  /** Command topics that have had a payload over MAX_COMMAND_BYTES: each is logged once, so a flood adds no lines. */
  readonly #oversizedTopics = new Set<string>();
  #haTimer: unknown = null;

  constructor(opts: MqttCommandsOptions) {
    this.#o = opts;
  }

  /** Whether a command's payload is over MAX_COMMAND_BYTES (then ignored, said once a topic). */
  oversized(topic: string, payload: Buffer): boolean {
    if (payload.length <= MAX_COMMAND_BYTES) return false;
    if (!this.#oversizedTopics.has(topic)) {
      this.#oversizedTopics.add(topic);
      this.#o.logger.warn(
        { code: 'W_MQTT_COMMAND_TOO_LARGE', topic, bytes: payload.length, limit: MAX_COMMAND_BYTES },
        'an MQTT command larger than any press; ignored (said once a topic)',
      );
    }
    return true;
  }

  /** Home Assistant's status (`homeassistant/status`): `online` sends everything again, after the delay. */
  haStatus(payload: Buffer): void {
    if (payload.toString() === 'online') this.#scheduleHaResend();
  }

  /** A pairing or refresh press; false for any other topic. */
  handle(topic: string, payload: Buffer, retained: boolean): boolean {
    const { topics, logger } = this.#o;
    const pairId = pairTarget(topics, topic);
    if (pairId !== null) {
      // As for refresh: a retained press would reopen pairing at every restart.
      if (retained || payload.length === 0 || !this.#o.hasDevice?.(pairId)) return true;
      logger.info({ display: pairId }, 'TRMNL pairing opened over MQTT');
      this.#o.onPair?.(pairId);
      return true;
    }
    const id = refreshTarget(topics, topic);
    if (id === null) return false;
    // A retained press would fire at every restart; an empty payload is how a retained message is cleared.
    if (retained || payload.length === 0) {
      logger.debug({ topic, retained }, 'refresh command ignored (retained or empty)');
      return true;
    }
    if (!this.#o.isDisplay(id)) {
      logger.warn(
        { code: 'W_REFRESH_UNKNOWN_DISPLAY', topic },
        'refresh for a display that is not configured; ignored',
      );
      return true;
    }
    // Debug: anyone on the broker can press, and the outcome (a cycle, or a refusal a minute) is logged by the cycle.
    logger.debug({ display: id }, 'refresh requested over MQTT');
    try {
      const result = this.#o.onRefresh(id);
      if (result instanceof Promise) {
        result.catch((err: unknown) => logger.error({ display: id, err }, 'refresh failed'));
      }
    } catch (err) {
      logger.error({ display: id, err }, 'refresh failed');
    }
    return true;
  }

  /** No re-send after Home Assistant's online any more (the publisher stops). */
  dispose(): void {
    if (this.#haTimer === null) return;
    (this.#o.clock ?? systemClock).clearTimeout(this.#haTimer);
    this.#haTimer = null;
  }

  #scheduleHaResend(): void {
    if (this.#haTimer !== null) return;
    const { min, max } = this.#o.haOnlineDelayMs ?? { min: 1000, max: 5000 };
    const delay = Math.round(min + (max - min) * (this.#o.random ?? Math.random)());
    this.#o.logger.info({ delayMs: delay }, 'Home Assistant online; re-sending discovery and states');
    this.#haTimer = (this.#o.clock ?? systemClock).setTimeout(() => {
      this.#haTimer = null;
      this.#o.onHaOnline();
    }, delay);
  }
}
