import type pino from 'pino';
import { AbortedError, ApiError } from '../api/errors.js';
import type { OutfitClient } from '../api/client.js';
import type { StoredRecommendation } from '../api/schemas.js';
import type { Config, DisplayConfig } from '../config/schema.js';
import { backoffDelay, CYCLE_BACKOFF, RETRY_BACKOFF } from './backoff.js';
import { monotonicOf, sleepOn, type Clock } from './clock.js';
import { ClockGuard, type TrustVerdict } from './clock-guard.js';
import { recCost, weatherChange } from './change-aware.js';
import { Ledger } from './ledger.js';
import { REASONS, warning } from './messages.js';
import { planConfig } from './planner.js';
import { RateLimiter } from './rate-limiter.js';
import { refusal, type Refusal } from './spend-gate.js';
import { failureAction, refunds } from './failure-policy.js';
import { errorFields } from '../logging.js';
import { periodEnd } from './zoned-time.js';
import type { BudgetStatus, FetchOutcome, FetchReason, GovernorOptions } from './governor-types.js';

export type { BudgetStatus, FetchOutcome, FetchReason, GovernorOptions } from './governor-types.js';

type Step<T> = { ok: true; value: T } | { ok: false; outcome: FetchOutcome };
type Gate = { kind: 'go'; trusted: boolean } | { kind: 'wait'; ms: number; reason: string } | { kind: 'stop'; outcome: FetchOutcome };

/** Decides whether, when and how often a display may call the service; one per daemon, shared by all displays. */
export class Governor {
  readonly #config: Config;
  readonly #clock: Clock;
  readonly #log: pino.Logger | undefined;
  readonly #random: () => number;
  readonly #maxAttempts: number;
  readonly #maxWaitMs: number;
  readonly #ledger: Ledger;
  readonly #guard: ClockGuard;
  readonly #limiter: RateLimiter;
  readonly #inflight = new Map<string, Promise<FetchOutcome>>();
  #warnings: string[] = [];
  #keyRejected: ApiError | null = null;
  #failedCycles = 0;
  #backoffUntilMono = 0;
  #untrustedReason: string | null = null;

  constructor(opts: GovernorOptions) {
    this.#config = opts.config;
    this.#clock = opts.clock;
    this.#log = opts.logger;
    this.#random = opts.random ?? Math.random;
    this.#maxAttempts = opts.maxAttempts ?? 3;
    this.#maxWaitMs = opts.maxWaitMs ?? 90_000;
    const b = opts.config.budget;
    this.#ledger = new Ledger(opts.stateDir, opts.config.timezone, {
      perDay: b.credits_per_day ?? null,
      perMonth: b.credits_per_month ?? null,
    });
    this.#guard = new ClockGuard(opts.clock, opts.buildTime, undefined, opts.syncStamp);
    this.#limiter = new RateLimiter({ clock: opts.clock, limitPerMinute: b.rate_limit_per_minute });
  }

  /** Reads the persisted ledger; an unreadable one is logged and counted as spent, never a crash. */
  async load(): Promise<void> {
    const now = this.#clock.now();
    for (const w of await this.#ledger.load(now)) this.#warn(warning('W_LEDGER_UNREADABLE', w));
    const s = this.#ledger.state;
    this.#guard.restore(s.highWater);
    if (s.rateBlockedUntil !== null && s.rateBlockedUntil > now) {
      this.#limiter.blockFor(Math.min(s.rateBlockedUntil - now, 3_600_000));
    }
    try {
      for (const w of planConfig(this.#config, { now }).warnings) this.#warn(w);
    } catch (err) {
      this.#log?.error({ err }, 'cannot plan the schedules');
    }
  }

  /** A recommendation for `display`, within budget and rate limit. Concurrent calls for one display share one fetch. */
  fetch(
    display: DisplayConfig,
    client: OutfitClient,
    reason: FetchReason,
    last: StoredRecommendation | null,
    signal?: AbortSignal,
  ): Promise<FetchOutcome> {
    const running = this.#inflight.get(display.id);
    if (running) return running;
    const p = this.#fetch(display, client, reason, last, signal).finally(() => this.#inflight.delete(display.id));
    this.#inflight.set(display.id, p);
    return p;
  }

  async #fetch(
    d: DisplayConfig,
    client: OutfitClient,
    reason: FetchReason,
    last: StoredRecommendation | null,
    signal?: AbortSignal,
  ): Promise<FetchOutcome> {
    const req = { lat: d.lat, lon: d.lon, unit: d.unit, ...(d.gender !== '' && { gender: d.gender }) };
    const ca = d.change_aware;
    const rec = recCost(d);
    if (reason === 'schedule' && ca !== undefined && last !== null) {
      const age = this.#clock.now() - Date.parse(last.fetched_at);
      const w = this.#config.budget.weather_credit_cost;
      // Poll only when the outfit is young enough to keep and a purchase after the poll would still be affordable.
      if (age < ca.max_age_minutes * 60_000 && this.#affordable(reason, rec + w)) {
        const polled = await this.#request(client, reason, w, (s) => client.weather({ lat: d.lat, lon: d.lon, unit: d.unit }, { signal: s }), signal);
        if (!polled.ok) return polled.outcome;
        const change = weatherChange(last.weather, polled.value, ca);
        if (change === null) return { kind: 'unchanged', reason: 'the weather did not change enough to change the outfit' };
        this.#log?.info({ display: d.id, change }, 'weather changed: buying a new recommendation');
      }
    }
    const call = d.endpoint === 'recweather' ? client.recweather.bind(client) : client.recommend.bind(client);
    const bought = await this.#request(client, reason, rec, (s) => call(req, { signal: s }), signal);
    return bought.ok ? { kind: 'fresh', rec: bought.value } : bought.outcome;
  }

  /** Whether `cost` would pass the budget rules now (no waiting considered). */
  #affordable(reason: FetchReason, cost: number): boolean {
    const g = this.#gate(reason, cost);
    return g.kind !== 'stop' || g.outcome.kind !== 'budget_exhausted';
  }

  /** One paid request with bounded retries: gate, write-ahead charge, send, classify. */
  async #request<T>(
    client: OutfitClient,
    reason: FetchReason,
    cost: number,
    send: (signal?: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<Step<T>> {
    let attempts = 0;
    let waited = 0;
    const wait = async (ms: number): Promise<boolean> => {
      try {
        await sleepOn(this.#clock, ms, signal);
        waited += ms;
        return true;
      } catch {
        return false;
      }
    };
    for (;;) {
      if (signal?.aborted) return this.#stop({ kind: 'failed', error: new AbortedError('fetch aborted before it was sent') });
      const g = this.#gate(reason, cost);
      if (g.kind === 'stop') return this.#stop(g.outcome);
      if (g.kind === 'wait') {
        if (waited + g.ms > this.#maxWaitMs) return this.#stop(this.#deferred(g.ms, g.reason));
        if (!(await wait(g.ms))) return this.#stop({ kind: 'failed', error: new AbortedError('fetch aborted while waiting') });
        continue;
      }
      // Synchronously with the gate's yes: take the rate slot and charge the ledger, then wait for the disk.
      this.#limiter.take();
      const { receipt, persisted } = this.#ledger.charge(cost, reason === 'refresh', g.trusted);
      if (!g.trusted) this.#guard.recordSpend(cost);
      try {
        await persisted;
      } catch (err) {
        this.#log?.error({ err }, 'cannot write the budget ledger: no paid request without a record');
        return this.#stop(this.#deferred(60_000, `cannot write the budget ledger (${(err as Error).message})`));
      }
      attempts++;
      let error: unknown;
      try {
        const value = await send(signal);
        this.#limiter.observe(client.rateLimit);
        this.#failedCycles = 0;
        return { ok: true, value };
      } catch (err) {
        this.#limiter.observe(client.rateLimit);
        error = err;
      }
      if (!(error instanceof ApiError)) throw error;
      const action = failureAction(error);
      if (refunds(action)) {
        if (receipt.untrusted) this.#guard.cancelSpend(cost);
        await this.#ledger.refund(receipt).catch((e: unknown) => this.#log?.error({ err: e }, 'cannot write the budget ledger'));
      }
      switch (action.kind) {
        case 'rate-limited':
          this.#log?.warn({ ...errorFields(error), attempt: attempts, retryAfterMs: action.retryAfterMs }, 'rate limited: no request before Retry-After');
          this.#limiter.blockFor(action.retryAfterMs);
          await this.#ledger.setRateBlockedUntil(this.#clock.now() + action.retryAfterMs).catch(() => undefined);
          if (attempts < this.#maxAttempts) continue;
          return this.#stop(this.#deferred(action.retryAfterMs, REASONS.retryAfter));
        case 'key-rejected':
          this.#keyRejected = error;
          this.#warn(warning('W_KEY_REJECTED', error.message));
          return this.#stop({ kind: 'failed', error });
        case 'credits': {
          const s = this.#ledger.state;
          const period = this.#config.budget.credits_per_day !== undefined ? `day:${s.day}` : `month:${s.month}`;
          await this.#ledger.setExhausted(period).catch(() => undefined);
          this.#warn(warning('W_CREDITS_EXHAUSTED', `${error.message}: no paid request until the next budget period`));
          return this.#stop(this.#exhausted(period.startsWith('day:') ? 'day' : 'month', 'credits'));
        }
        case 'refused':
        case 'aborted':
          return this.#stop({ kind: 'failed', error });
        case 'retry': {
          const delay = backoffDelay(attempts, RETRY_BACKOFF, this.#random);
          if (attempts < this.#maxAttempts && waited + delay <= this.#maxWaitMs) {
            this.#log?.warn({ ...errorFields(error), attempt: attempts, delayMs: delay }, 'request failed: retrying');
            if (await wait(delay)) continue;
            return this.#stop({ kind: 'failed', error });
          }
          this.#failedCycles++;
          this.#backoffUntilMono = monotonicOf(this.#clock) + backoffDelay(this.#failedCycles, CYCLE_BACKOFF, this.#random);
          return this.#stop({ kind: 'failed', error });
        }
      }
    }
  }

  #stop<T>(outcome: FetchOutcome): Step<T> {
    return { ok: false, outcome };
  }

  /** The budget, clock, backoff and rate checks, in one synchronous step. */
  #gate(reason: FetchReason, cost: number): Gate {
    const verdict = this.#observeClock();
    if (this.#keyRejected) return { kind: 'stop', outcome: { kind: 'failed', error: this.#keyRejected } };
    const s = this.#ledger.state;
    if (s.exhaustedPeriod !== null) {
      return { kind: 'stop', outcome: this.#exhausted(s.exhaustedPeriod.startsWith('day:') ? 'day' : 'month', 'credits') };
    }
    const backoff = this.#backoffUntilMono - monotonicOf(this.#clock);
    if (backoff > 0) return { kind: 'stop', outcome: this.#deferred(backoff, `${REASONS.backoff} (${this.#failedCycles})`) };
    const used = verdict.trusted ? { day: s.daySpent, month: s.monthSpent } : this.#guard.windowUsed();
    const no = refusal(this.#config, { reason, cost, dayUsed: used.day, monthUsed: used.month, refreshSpentToday: s.dayRefreshSpent });
    if (no !== null) {
      if (verdict.trusted || no === 'refresh-reserve') {
        return { kind: 'stop', outcome: this.#exhausted(no === 'month' ? 'month' : 'day', no) };
      }
      const perDay = this.#config.budget.credits_per_day;
      const ms = perDay === undefined ? null : this.#guard.msUntilDayWindowFrees(cost, perDay);
      return { kind: 'stop', outcome: this.#deferred(ms ?? 3_600_000, `${REASONS.clock}: ${verdict.reason ?? ''}`) };
    }
    const rate = this.#limiter.wait();
    if (rate.ms > 0) {
      const why = rate.why === 'retry-after' ? REASONS.retryAfter : rate.why === 'header' ? REASONS.rateHeader : REASONS.rateWindow;
      return { kind: 'wait', ms: rate.ms, reason: why };
    }
    return { kind: 'go', trusted: verdict.trusted };
  }

  /** Checks the clock and moves the ledger to the clock's day and month when it may. */
  #observeClock(): TrustVerdict {
    const verdict = this.#guard.check(() => ({ day: this.#ledger.state.daySpent, month: this.#ledger.state.monthSpent }));
    if (verdict.reason !== this.#untrustedReason) {
      if (verdict.reason !== null) this.#log?.warn(warning('W_CLOCK_UNTRUSTED', verdict.reason));
      this.#untrustedReason = verdict.reason;
    }
    this.#ledger.settle(this.#clock.now(), verdict.trusted);
    return verdict;
  }

  #deferred(ms: number, reason: string): FetchOutcome {
    return { kind: 'deferred', until: new Date(this.#clock.now() + ms), reason };
  }

  #exhausted(period: 'day' | 'month', scope: Refusal | 'credits'): FetchOutcome {
    return { kind: 'budget_exhausted', until: new Date(this.#periodEnd(period)), scope };
  }

  /** The first instant after the ledger's current day or month (the clock's own, or later: periods never go back). */
  #periodEnd(period: 'day' | 'month'): number {
    const s = this.#ledger.state;
    return periodEnd(period === 'day' ? s.day : s.month, this.#config.timezone);
  }

  #warn(text: string): void {
    if (!this.#warnings.includes(text)) this.#warnings.push(text);
    this.#log?.warn(text);
  }

  status(): BudgetStatus {
    this.#observeClock();
    const s = this.#ledger.state;
    const b = this.#config.budget;
    const now = this.#clock.now();
    const mono = monotonicOf(this.#clock);
    const blocks = [
      s.exhaustedPeriod !== null ? this.#periodEnd(s.exhaustedPeriod.startsWith('day:') ? 'day' : 'month') : 0,
      this.#limiter.blockedMs > 0 ? now + this.#limiter.blockedMs : 0,
      this.#backoffUntilMono > mono ? now + (this.#backoffUntilMono - mono) : 0,
    ];
    const blocked = Math.max(...blocks);
    const warnings = [...this.#warnings];
    if (this.#untrustedReason !== null) warnings.push(warning('W_CLOCK_UNTRUSTED', this.#untrustedReason));
    return {
      spentToday: s.daySpent,
      spentMonth: s.monthSpent,
      leftToday: b.credits_per_day === undefined ? null : Math.max(0, b.credits_per_day - s.daySpent),
      leftMonth: b.credits_per_month === undefined ? null : Math.max(0, b.credits_per_month - s.monthSpent),
      periodResetsAt: new Date(this.#periodEnd('day')),
      rateRemaining: this.#limiter.serviceRemaining,
      blockedUntil: blocked > 0 ? new Date(blocked) : null,
      warnings,
    };
  }

  /** Resolves when the ledger on disk holds every change so far. */
  flush(): Promise<void> {
    return this.#ledger.flush();
  }
}
