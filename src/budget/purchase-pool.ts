import type { Recommendation } from '../api/schemas.js';
import type { Clock } from '../time/clock.js';
import type { FetchOutcome, FetchReason } from './governor-types.js';

/**
 * One purchase per distinct request (docs/guides/household.md, "Who is bought for, and what it costs"): people whose
 * requests are identical (place, unit, gender, endpoint) get the same answer from the service, so in a slot they share
 * one purchase, across displays too. A purchase in flight for the same request is awaited instead of sent again; one
 * that succeeded within SHARE_WINDOW_MS is handed out again without spending, also after a restart (remember()).
 */

/** What the service is sent, and so what makes two purchases the same one. */
export interface PurchaseRequest {
  readonly lat: number;
  readonly lon: number;
  readonly unit: string;
  /** "" sends none. */
  readonly gender: string;
  readonly endpoint: string;
}

/**
 * How long a purchase's answer is handed out again: displays whose slots are the same cron minute tick within seconds
 * of each other (one after the other's render, or after a rate-limit pause of up to a minute), and the service's
 * answer for one place is built from a weather reading that changes over tens of minutes; five minutes covers the
 * first and stays far inside the second.
 */
export const SHARE_WINDOW_MS = 5 * 60_000;

/** The key of a request: equal keys, equal requests. */
export function purchaseKey(r: PurchaseRequest): string {
  return JSON.stringify([r.endpoint, r.lat, r.lon, r.unit, r.gender]);
}

/** A purchase's outcome as the pool hands it out. */
export interface PooledOutcome {
  readonly outcome: FetchOutcome;
  /** When the answer was bought (ms): for a shared one, its buyer's time; null without an answer. */
  readonly boughtAt: number | null;
  /** Another caller's purchase (nothing was spent for this caller). */
  readonly shared: boolean;
}

export interface PurchasePoolOptions {
  /** Dates the purchases (the window is measured on it). */
  clock: Pick<Clock, 'now'>;
  /** How long an answer is shared; default SHARE_WINDOW_MS. */
  windowMs?: number;
}

interface Bought {
  outcome: FetchOutcome;
  boughtAt: number | null;
}

export class PurchasePool {
  readonly #clock: Pick<Clock, 'now'>;
  readonly #windowMs: number;
  readonly #inFlight = new Map<string, Promise<Bought>>();
  readonly #recent = new Map<string, { rec: Recommendation; boughtAt: number }>();

  constructor(opts: PurchasePoolOptions) {
    this.#clock = opts.clock;
    this.#windowMs = opts.windowMs ?? SHARE_WINDOW_MS;
  }

  /**
   * The answer to `request`: a recent purchase's (not for a refresh, which asks for a new answer), the one in flight,
   * or `buy()`'s. A purchase in flight that got no answer (deferred, failed, unchanged for its own last answer) is not
   * handed on: the caller then buys for itself, through the same budget rules.
   */
  async buy(request: PurchaseRequest, reason: FetchReason, buy: () => Promise<FetchOutcome>): Promise<PooledOutcome> {
    const key = purchaseKey(request);
    this.#prune();
    const recent = this.#recent.get(key);
    if (recent !== undefined && reason !== 'refresh')
      return { outcome: { kind: 'fresh', rec: recent.rec }, boughtAt: recent.boughtAt, shared: true };
    for (let flying = this.#inFlight.get(key); flying !== undefined; flying = this.#inFlight.get(key)) {
      const got = await flying;
      if (got.outcome.kind === 'fresh') return { ...got, shared: true };
    }
    const own = this.#own(key, buy);
    this.#inFlight.set(key, own);
    try {
      return { ...(await own), shared: false };
    } finally {
      if (this.#inFlight.get(key) === own) this.#inFlight.delete(key);
    }
  }

  /**
   * An answer bought before this process started, as a person's last good file keeps it (household-cycle.ts, restore):
   * handed out again within the window as if bought here, so that a restart does not buy again a request another
   * display (or person) already holds. The newest per request counts.
   */
  remember(request: PurchaseRequest, rec: Recommendation, boughtAt: number): void {
    const key = purchaseKey(request);
    const now = this.#clock.now();
    if (now - boughtAt >= this.#windowMs || now < boughtAt) return;
    const known = this.#recent.get(key);
    if (known === undefined || known.boughtAt < boughtAt) this.#recent.set(key, { rec, boughtAt });
  }

  async #own(key: string, buy: () => Promise<FetchOutcome>): Promise<Bought> {
    const outcome = await buy();
    if (outcome.kind !== 'fresh') return { outcome, boughtAt: null };
    const boughtAt = this.#clock.now();
    this.#recent.set(key, { rec: outcome.rec, boughtAt });
    return { outcome, boughtAt };
  }

  /** Forgets answers older than the window (or dated ahead of a clock stepped back). */
  #prune(): void {
    const now = this.#clock.now();
    for (const [key, r] of this.#recent)
      if (now - r.boughtAt >= this.#windowMs || now < r.boughtAt) this.#recent.delete(key);
  }
}
