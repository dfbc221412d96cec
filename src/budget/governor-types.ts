import type pino from 'pino';
import type { ApiError } from '../api/errors.js';
import type { Recommendation } from '../api/schemas.js';
import type { Config } from '../config/schema.js';
import type { Clock } from './clock.js';
import type { Refusal } from './spend-gate.js';

/** The governor's public types (re-exported by governed-fetch.ts). */

export type FetchReason = 'schedule' | 'refresh' | 'once';

export type FetchOutcome =
  | { kind: 'fresh'; rec: Recommendation }
  /** Change-aware mode: the weather did not change enough; keep the last outfit. */
  | { kind: 'unchanged'; reason: string }
  /** No request made. `scope` says which limit: the day's or month's budget, the refresh reserve, or a 402. */
  | { kind: 'budget_exhausted'; until: Date; scope?: Refusal | 'credits' }
  /** Rate limited / Retry-After / backoff / clock not trusted: no request made now. */
  | { kind: 'deferred'; until: Date; reason: string }
  /** After bounded retries (each retry counted against the budget). */
  | { kind: 'failed'; error: ApiError };

export interface BudgetStatus {
  spentToday: number;
  spentMonth: number;
  leftToday: number | null;
  leftMonth: number | null;
  periodResetsAt: Date;
  rateRemaining: number | null;
  blockedUntil: Date | null;
  warnings: string[];
}

export interface GovernorOptions {
  config: Config;
  stateDir: string;
  clock: Clock;
  logger?: pino.Logger;
  random?: () => number;
  /** Attempts per request within one cycle (default 3). */
  maxAttempts?: number;
  /** Longest a fetch waits in total for the rate limiter, Retry-After or backoff before it defers (default 90 s). */
  maxWaitMs?: number;
  /** A clock before this is not believed (default BUILD_TIME_MS). */
  buildTime?: number;
  /** When NTP last synchronized the clock (ms), or null: a new value makes the clock trusted as it is. */
  syncStamp?: () => number | null;
}

