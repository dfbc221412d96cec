import type { StoreProblem } from '../store/store-error.js';
import type pino from 'pino';
import type { OutfitClient } from '../api/client.js';
import type { ApiError } from '../api/errors.js';
import type { Recommendation } from '../api/schemas.js';
import type { Config } from '../config/schema.js';
import type { Clock } from '../time/clock.js';

/** The governor's public types (re-exported by governor.ts). */

export type FetchReason = 'schedule' | 'refresh' | 'once';

/** The budget a request would overrun: what the spend gate (spend-gate.ts) refuses it for. */
export type Refusal = 'day' | 'month' | 'refresh-reserve';

export type FetchOutcome =
  /**
   * A new answer. `fetchedAt`: when it counts as bought, where that is not the moment the fetch returned (a household's
   * first person's answer, bought earlier in the cycle or shared from another display's purchase).
   */
  | { kind: 'fresh'; rec: Recommendation; fetchedAt?: Date }
  /** A household display: nobody it dresses is at home (their presence topics say so), so nothing was bought. */
  | { kind: 'away'; reason: string }
  /** Change-aware mode: the weather did not change enough; keep the last outfit. */
  | { kind: 'unchanged'; reason: string }
  /**
   * No request made. `scope` says which limit: the day's or month's budget, the refresh reserve, or 'credits': the
   * service's account is out of credits (402), and `until` is when it is asked again.
   */
  | {
      kind: 'budget_exhausted';
      until: Date;
      scope?: Refusal | 'credits';
      /** Day or month: how many of the counted credits were sent without a usable answer (charge unknown). */
      unknownCredits?: number;
      /** 'credits': since when the account is out of credits. */
      since?: Date;
    }
  /** Rate limited / Retry-After / backoff / clock not trusted: no request made now. */
  | { kind: 'deferred'; until: Date; reason: string }
  /**
   * The request failed; sent again within the cycle only when it never reached the service, or after a 429.
   * `retryAt`: when a new try may go (the failure backoff ends), for a failure that another try may mend (sent
   * without a usable answer, or never sent); absent when trying again cannot help (a rejected key, a refused request).
   */
  | { kind: 'failed'; error: ApiError; retryAt?: Date };

export interface BudgetStatus {
  spentToday: number;
  spentMonth: number;
  leftToday: number | null;
  leftMonth: number | null;
  /** Of the spending: credits whose 2xx arrived, and credits sent without a usable answer (charge unknown). */
  chargedToday: number;
  unknownToday: number;
  /** Paid requests the service refused today (given back). */
  refusedToday: number;
  chargedMonth: number;
  unknownMonth: number;
  /** The service's account is out of credits (402): since when, and when it is asked again. */
  creditsOut: { since: Date; nextTryAt: Date } | null;
  periodResetsAt: Date;
  rateRemaining: number | null;
  blockedUntil: Date | null;
  warnings: string[];
  /** The ledger cannot be written: no paid request is sent until it can (the state folder is unwritable or full). */
  storeProblem: StoreProblem | null;
}

export interface GovernorOptions {
  config: Config;
  /** Where the ledger file is kept. */
  stateDir: string;
  /** The service's client: every paid request of every display goes through it. */
  client: OutfitClient;
  clock: Clock;
  logger?: pino.Logger;
  random?: () => number;
  /** Attempts per request within one cycle, when it never reached the service or got a 429 (default 3). */
  maxAttempts?: number;
  /** Longest a fetch waits in total for the rate limiter, Retry-After or backoff before it defers (default 90 s). */
  maxWaitMs?: number;
  /** A clock before this is not believed (default BUILD_TIME_MS). */
  buildTime?: number;
  /** When NTP last synchronized the clock (ms), or null: a new value makes the clock trusted as it is. */
  syncStamp?: () => number | null;
}
