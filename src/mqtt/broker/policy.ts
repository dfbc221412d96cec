import { timingSafeEqual } from 'node:crypto';
import { BrokerRefusal, CONNACK_BAD_USERNAME_OR_PASSWORD, CONNACK_IDENTIFIER_REJECTED } from './refusal.js';
import { isOurDiscovery, pairTarget, personCommand, refreshTarget, underBase, type MqttTopics } from '../topics.js';

/**
 * Who may do what on the embedded broker. The daemon logs in with a login made for this process and may write
 * anything. Every other client is a guest (anonymous, or the configured login for Home Assistant): it may subscribe
 * to everything and press refresh, announce Home Assistant's status, remove our Home Assistant devices the way Home
 * Assistant does (an empty retained config), and use topics that are not ours; it may not write the daemon's topics.
 * What guests retain is capped in bytes, since the broker keeps retained messages in the daemon's memory.
 */

export type BrokerRole = 'daemon' | 'guest';

export interface Login {
  username: string;
  password: string;
}

export interface BrokerLimits {
  /** Largest CONNECT (after its fixed header): client id, login and will. */
  connectBytes: number;
  /** Largest packet from the daemon: room for a frame PNG of the largest panel. */
  daemonPacketBytes: number;
  /** Largest packet from a guest. */
  guestPacketBytes: number;
  /** Largest button press (refresh, TRMNL pairing). */
  refreshBytes: number;
  /** All retained messages of guests together (topic and payload bytes). */
  guestRetainedBytes: number;
  /** Open connections at once. */
  maxConnections: number;
  /** Topic filters one guest connection may hold (subscription-limit.ts). */
  guestSubscriptionsPerClient: number;
  /** Topic filters all guest connections may hold together (but each may always hold its guaranteed ones). */
  guestSubscriptionsTotal: number;
  /** Topic filters each guest connection may hold however many the others hold. */
  guestSubscriptionsGuaranteed: number;
  /** Longest topic filter a guest may subscribe to, in bytes. */
  filterBytes: number;
  /** Most levels in a guest's topic filter. */
  filterLevels: number;
}

export const DEFAULT_BROKER_LIMITS: BrokerLimits = {
  connectBytes: 64 * 1024,
  // A Kindle frame (1072x1448, 8-bit grey) is 27 KB; the same frame as incompressible noise is 1.56 MB.
  daemonPacketBytes: 8 * 1024 * 1024,
  guestPacketBytes: 64 * 1024,
  refreshBytes: 1024,
  guestRetainedBytes: 1024 * 1024,
  maxConnections: 32,
  // Home Assistant subscribes to a handful of filters here (its status, the discovery prefix, each display's state,
  // image and diagnostics topics: about 5 a display), a TRMNL or firmware simulator to 2, a user's MQTT Explorer to
  // `#`. 1,000 a client and 4,000 in all (the room of four such clients at their limit) are far above that, and
  // bound what guests' subscriptions take of the daemon's memory (capped at 96 MB of heap by the unit) to a few MB:
  // each is about 1 KB with a short filter, a few KB with the longest. The first 50 of every connection are taken
  // even when the 4,000 are: a flood does not lock Home Assistant out (at most 32 × 50 more). Topic filters of Home
  // Assistant, Zigbee2MQTT or Tasmota are under 100 bytes in at most 6 levels.
  guestSubscriptionsPerClient: 1_000,
  guestSubscriptionsTotal: 4_000,
  guestSubscriptionsGuaranteed: 50,
  filterBytes: 256,
  filterLevels: 16,
};

export interface BrokerPolicyOptions {
  /** The daemon's own login, made afresh by each process and never written anywhere. */
  daemonLogin: Login;
  /** When set, every client but the daemon must log in with it; when null, any login (or none) makes a guest. */
  guestLogin: Login | null;
  /** The daemon's topics: `<base>/…` is the daemon's, `<prefix>/device/<base>_…` its Home Assistant devices. */
  topics: MqttTopics;
  limits: BrokerLimits;
}

export interface PublishRequest {
  topic: string;
  payload: Buffer;
  retain: boolean;
}

const SYS_PREFIX = '$SYS';

function sameSecret(given: Buffer | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const want = Buffer.from(expected, 'utf8');
  return given.length === want.length && timingSafeEqual(given, want);
}

export class BrokerPolicy {
  readonly #o: BrokerPolicyOptions;
  /** Client ids the daemon has used: a guest taking one over would throw the daemon off the broker. */
  readonly #daemonIds = new Set<string>();
  /** Bytes (topic + payload) of each retained message a guest left. */
  readonly #guestRetained = new Map<string, number>();
  #guestRetainedTotal = 0;

  constructor(opts: BrokerPolicyOptions) {
    this.#o = opts;
  }

  /** Bytes retained by guests now. */
  get guestRetainedBytes(): number {
    return this.#guestRetainedTotal;
  }

  /** The role of a client that sent this CONNECT, or why it is refused. */
  authenticate(
    clientId: string,
    username: string | undefined,
    password: Buffer | undefined,
  ): BrokerRole | BrokerRefusal {
    const { daemonLogin, guestLogin } = this.#o;
    if (username === daemonLogin.username) {
      if (!sameSecret(password, daemonLogin.password)) {
        return new BrokerRefusal(
          'E_MQTT_LOGIN',
          `MQTT client "${clientId}": wrong password for the daemon's login`,
          CONNACK_BAD_USERNAME_OR_PASSWORD,
        );
      }
      this.#daemonIds.add(clientId);
      return 'daemon';
    }
    if (this.#daemonIds.has(clientId)) {
      return new BrokerRefusal(
        'E_MQTT_NOT_ALLOWED',
        `MQTT client "${clientId}": that client id is the daemon's`,
        CONNACK_IDENTIFIER_REJECTED,
      );
    }
    if (guestLogin !== null && (username !== guestLogin.username || !sameSecret(password, guestLogin.password))) {
      return new BrokerRefusal(
        'E_MQTT_LOGIN',
        `MQTT client "${clientId}": ${username === undefined ? 'no login' : `wrong username or password (user "${username}")`}`,
        CONNACK_BAD_USERNAME_OR_PASSWORD,
      );
    }
    return 'guest';
  }

  /** The largest packet a client of this role may send. */
  packetLimit(role: BrokerRole): number {
    return role === 'daemon' ? this.#o.limits.daemonPacketBytes : this.#o.limits.guestPacketBytes;
  }

  /** Null when the message may pass (and its retained bytes are booked), or why not. `who` names the client. */
  authorizePublish(role: BrokerRole | null, who: string, msg: PublishRequest): BrokerRefusal | null {
    if (role === 'daemon') {
      if (msg.retain) this.#book(msg.topic, 0);
      return null;
    }
    const refused = this.#guestRule(msg);
    if (refused !== null)
      return new BrokerRefusal('E_MQTT_NOT_ALLOWED', `MQTT client ${who}: ${refused} (topic "${msg.topic}")`);
    if (!msg.retain) return null;
    const bytes = msg.payload.length === 0 ? 0 : Buffer.byteLength(msg.topic) + msg.payload.length;
    const total = this.#guestRetainedTotal - (this.#guestRetained.get(msg.topic) ?? 0) + bytes;
    if (total > this.#o.limits.guestRetainedBytes) {
      return new BrokerRefusal(
        'E_MQTT_RETAINED_FULL',
        `MQTT client ${who}: retained messages of other clients would take ${total} bytes; at most ${this.#o.limits.guestRetainedBytes} (topic "${msg.topic}")`,
      );
    }
    this.#book(msg.topic, bytes);
    return null;
  }

  /** Why a guest may not publish this, or null. */
  #guestRule(msg: PublishRequest): string | null {
    const { topics, limits } = this.#o;
    if (msg.topic.startsWith(SYS_PREFIX)) return 'the $SYS topics are the broker’s';
    // The TRMNL pairing button (`<base>/<id>/pair`) is a press like refresh; so are a person's warmth vote and offset.
    if (
      refreshTarget(topics, msg.topic) !== null ||
      pairTarget(topics, msg.topic) !== null ||
      personCommand(topics, msg.topic) !== null
    ) {
      if (msg.retain) return 'a button press must not be retained';
      if (msg.payload.length > limits.refreshBytes) return `a button press of more than ${limits.refreshBytes} bytes`;
      return null;
    }
    if (underBase(topics, msg.topic)) return 'only the daemon writes its topics';
    if (isOurDiscovery(topics, msg.topic)) {
      // Home Assistant removes a device it was asked to delete with an empty retained config; the daemon sends it
      // again when Home Assistant next comes online.
      return msg.payload.length === 0 ? null : 'only the daemon writes its Home Assistant discovery';
    }
    return null;
  }

  #book(topic: string, bytes: number): void {
    this.#guestRetainedTotal -= this.#guestRetained.get(topic) ?? 0;
    if (bytes === 0) this.#guestRetained.delete(topic);
    else this.#guestRetained.set(topic, bytes);
    this.#guestRetainedTotal += bytes;
  }
}
