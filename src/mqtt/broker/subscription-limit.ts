import { BrokerRefusal, type BrokerRefusalCode } from './refusal.js';

/**
 * What other clients of the embedded broker may subscribe to, counted: aedes keeps every subscription in the daemon's
 * memory (the client's table, the topic tree of deliveries), about 1 KB each for a short filter, and nothing bounded
 * them: a client sending 3,000 filters a SUBSCRIBE took the daemon past its heap cap at about 90,000. Each guest
 * connection holds at most `perClient` filters, all guests together at most `total`, and a filter is at most
 * `filterBytes` long in at most `filterLevels` levels. So that a flood cannot lock Home Assistant out, every
 * connection may always hold its first `guaranteed` filters, full or not: in all, guests hold at most
 * total + connections × guaranteed filters, whatever they send. A filter beyond a limit gets the SUBACK failure code
 * (0x80) and is not kept; the connection stays, and every filter within the limits is taken. The daemon's own
 * connection is not counted (the broker never asks).
 */

export interface SubscriptionLimits {
  /** Filters held by one guest connection at once. */
  perClient: number;
  /** Filters held by every guest connection together, beyond the guaranteed ones. */
  total: number;
  /** Filters every connection may hold however many the others hold. */
  guaranteed: number;
  /** Longest filter, in bytes (UTF-8). */
  filterBytes: number;
  /** Most levels in a filter (`a/b/#` has three). */
  filterLevels: number;
}

/**
 * Why a filter is refused: the error itself is made only when it is logged (once a connection), since a flood refuses
 * thousands a second and an Error's stack costs more than the filter.
 */
export interface SubscriptionRefusal {
  code: Extract<BrokerRefusalCode, 'E_MQTT_SUBSCRIPTIONS_FULL' | 'E_MQTT_FILTER_TOO_LONG'>;
  error(): BrokerRefusal;
}

export class SubscriptionLimit {
  readonly #limits: SubscriptionLimits;
  /** The filters each guest connection holds (keyed by aedes' client object, gone with its connection). */
  readonly #held = new Map<object, Set<string>>();
  /** Connections that have ended: a SUBSCRIBE aedes still handles after the socket closed is not counted for ever. */
  readonly #ended = new WeakSet<object>();
  #total = 0;

  constructor(limits: SubscriptionLimits) {
    this.#limits = limits;
  }

  /** Filters held by all guests now. */
  get total(): number {
    return this.#total;
  }

  /** Null when `client` may hold `filter` (then it is counted), or why not. `who` names the client. */
  take(client: object, who: string, filter: string): SubscriptionRefusal | null {
    const { perClient, total, guaranteed, filterBytes, filterLevels } = this.#limits;
    if (this.#ended.has(client)) return null;
    const held = this.#held.get(client);
    // Subscribing again to a filter it holds replaces the subscription: nothing more is kept.
    if (held?.has(filter)) return null;
    const bytes = Buffer.byteLength(filter);
    const levels = filter.split('/').length;
    if (bytes > filterBytes || levels > filterLevels) {
      const why = `a topic filter of ${bytes} bytes in ${levels} levels; at most ${filterBytes} bytes and ${filterLevels} levels (SUBACK 0x80)`;
      return refusal('E_MQTT_FILTER_TOO_LONG', who, why);
    }
    if ((held?.size ?? 0) >= perClient) {
      return refusal(
        'E_MQTT_SUBSCRIPTIONS_FULL',
        who,
        `holds ${perClient} subscriptions, the most one client may (SUBACK 0x80 for the rest)`,
      );
    }
    if ((held?.size ?? 0) >= guaranteed && this.#total >= total) {
      return refusal(
        'E_MQTT_SUBSCRIPTIONS_FULL',
        who,
        `other clients hold ${total} subscriptions together, the most the broker keeps (SUBACK 0x80 for the rest)`,
      );
    }
    if (held === undefined) this.#held.set(client, new Set([filter]));
    else held.add(filter);
    this.#total += 1;
    return null;
  }

  /** The client unsubscribed from these filters. */
  drop(client: object, filters: readonly string[]): void {
    const held = this.#held.get(client);
    if (held === undefined) return;
    for (const f of filters) if (held.delete(f)) this.#total -= 1;
    if (held.size === 0) this.#held.delete(client);
  }

  /** The client's connection ended: its subscriptions end with it (every session on this broker is clean). */
  release(client: object): void {
    this.#ended.add(client);
    const held = this.#held.get(client);
    if (held === undefined) return;
    this.#total -= held.size;
    this.#held.delete(client);
  }
}

function refusal(code: SubscriptionRefusal['code'], who: string, why: string): SubscriptionRefusal {
  return { code, error: () => new BrokerRefusal(code, `MQTT client ${who}: ${why}`) };
}
