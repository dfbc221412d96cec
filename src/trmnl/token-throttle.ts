import type { Clock } from '../time/clock.js';

/**
 * Wrong TRMNL access tokens, slowed per client (the remote address): after WRONG_TOKENS_ALLOWED wrong tokens within
 * WRONG_TOKEN_WINDOW_MS, every TRMNL request of that client that takes a token is answered 429 with Retry-After
 * until the window has passed, without its token being looked at, so a guesser learns nothing while slowed: five
 * guesses a minute. A right token is never counted. A 429 rather than a delay: a held answer would keep a socket and memory per
 * guess, which is what a flood wants. The firmware reads a 429's JSON like a 200's and finds no status it acts on, so
 * a device with a wrong token (which never gets an image anyway) sleeps and asks again.
 *
 * The table holds at most MAX_CLIENTS addresses: expired ones are dropped first, then the oldest, so a flood from many
 * addresses costs a bounded amount of memory (and each of those addresses still gets its five guesses a minute).
 */

export const WRONG_TOKENS_ALLOWED = 5;
export const WRONG_TOKEN_WINDOW_MS = 60_000;
export const MAX_CLIENTS = 1_024;

export interface TokenThrottleOptions {
  /** The windows' time. */
  clock: Clock;
  /** Default WRONG_TOKENS_ALLOWED. */
  allowed?: number;
  /** Default WRONG_TOKEN_WINDOW_MS. */
  windowMs?: number;
  /** Default MAX_CLIENTS. */
  maxClients?: number;
}

interface Window {
  /** When its first wrong token came. */
  start: number;
  wrong: number;
}

/** `::ffff:192.0.2.1` (an IPv4 client on a dual-stack socket) → `192.0.2.1`: one client, one entry. */
function clientOf(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice('::ffff:'.length) : address;
}

export class TokenThrottle {
  readonly #o: Required<TokenThrottleOptions>;
  readonly #clients = new Map<string, Window>();

  constructor(opts: TokenThrottleOptions) {
    this.#o = { allowed: WRONG_TOKENS_ALLOWED, windowMs: WRONG_TOKEN_WINDOW_MS, maxClients: MAX_CLIENTS, ...opts };
  }

  /** Clients in the table (tests: it stays bounded). */
  get size(): number {
    return this.#clients.size;
  }

  /** Seconds until the client may try again, or null when it is not slowed. */
  retryAfterS(address: string | undefined): number | null {
    const w = this.#clients.get(clientOf(address));
    if (w === undefined || w.wrong < this.#o.allowed) return null;
    const left = w.start + this.#o.windowMs - this.#o.clock.now();
    return left > 0 ? Math.ceil(left / 1000) : null;
  }

  /** Counts a wrong token of the client. */
  wrong(address: string | undefined): void {
    const client = clientOf(address);
    const now = this.#o.clock.now();
    const w = this.#clients.get(client);
    if (w !== undefined && now - w.start < this.#o.windowMs && now >= w.start) {
      w.wrong += 1;
      return;
    }
    this.#clients.delete(client);
    if (this.#clients.size >= this.#o.maxClients) this.#evict(now);
    this.#clients.set(client, { start: now, wrong: 1 });
  }

  #evict(now: number): void {
    for (const [client, w] of this.#clients) if (now - w.start >= this.#o.windowMs) this.#clients.delete(client);
    // Still full: the oldest window goes (a Map iterates in insertion order, and a window is inserted when it starts).
    while (this.#clients.size >= this.#o.maxClients) {
      const oldest = this.#clients.keys().next().value;
      if (oldest === undefined) break;
      this.#clients.delete(oldest);
    }
  }
}
