import { stateWriteError, type StateProblem } from '../store/state-error.js';
import type pino from 'pino';
import { AbortedError, ApiError } from '../api/errors.js';
import type { OutfitClient } from '../api/client.js';
import type { StoredRecommendation } from '../api/schemas.js';
import type { Config, DisplayConfig } from '../config/schema.js';
import { backoffDelay, CYCLE_BACKOFF, RETRY_BACKOFF } from './backoff.js';
import { budgetStatus, CREDITS_RETRY_MS } from './budget-status.js';
import { monotonicOf, sleepOn, type Clock } from './clock.js';
import { ClockGuard, type TrustVerdict } from './clock-guard.js';
import { recCost, weatherChange } from './change-aware.js';
import { Ledger, type ChargeResult, type Receipt } from './ledger.js';
import { REASONS, warning } from './messages.js';
import { planConfig } from './planner.js';
import { RateLimiter } from './rate-limiter.js';
import { refusal, type Refusal } from './spend-gate.js';
import { chargeResult, failureAction } from './failure-policy.js';
import { errorFields } from '../logging.js';
import { periodEnd } from './zoned-time.js';
import type { BudgetStatus, FetchOutcome, FetchReason, GovernorOptions } from './governor-types.js';

export type { BudgetStatus, FetchOutcome, FetchReason, GovernorOptions } from './governor-types.js';
export { CREDITS_RETRY_MS } from './budget-status.js';

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
  /** The ledger could not be written (E_STATE_WRITE): shown by every publisher until a write succeeds. */
  #ledgerProblem: StateProblem | null = null;
  #untrustedCause: string | null = null;
  /** After a start or reload (SIGHUP), an empty account is asked again at once rather than after the hour. */
  #creditsProbe = true;
  /** When the service last said the account is empty (monotonic: a clock step neither shortens nor stretches the hour). */
  #creditsRefusedMono = -Infinity;

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
    this.#limiter.prime(s.recentSends.map((t) => now - t));
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
      this.#creditsProbe = false;
      const { receipt, persisted } = this.#ledger.charge(cost, reason === 'refresh', g.trusted, this.#clock.now());
      if (!g.trusted) this.#guard.recordSpend(cost);
      try {
        await persisted;
        this.#ledgerProblem = null;
      } catch (err) {
        const e = stateWriteError(this.#ledger.file, err);
        this.#ledgerProblem = { code: e.code, file: e.file, message: e.message, since: this.#ledgerProblem?.since ?? new Date(this.#clock.now()).toISOString() };
        this.#log?.error(errorFields(e), 'cannot write the budget ledger: no paid request without a record');
        return this.#stop(this.#deferred(60_000, `cannot write the budget ledger: ${e.message}`));
      }
      attempts++;
      let error: unknown;
      try {
        const value = await send(signal);
        this.#limiter.observe(client.rateLimit);
        this.#failedCycles = 0;
        await this.#record(receipt, 'charged');
        if (this.#ledger.state.creditsOut !== null) await this.#creditsBack();
        return { ok: true, value };
      } catch (err) {
        this.#limiter.observe(client.rateLimit);
        error = err;
      }
      if (!(error instanceof ApiError)) throw error;
      const action = failureAction(error);
      const result = chargeResult(action);
      if (receipt.untrusted && (result === 'refused' || result === 'not-sent')) this.#guard.cancelSpend(cost);
      await this.#record(receipt, result);
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
          this.#creditsRefusedMono = monotonicOf(this.#clock);
          await this.#ledger.setCreditsOut(this.#clock.now()).catch(() => undefined);
          this.#warn(warning('W_CREDITS_EXHAUSTED', `${error.message}: ${REASONS.creditsOut}`));
          return this.#stop(this.#creditsOutcome());
        }
        case 'refused':
        case 'aborted':
          return this.#stop({ kind: 'failed', error });
        case 'not-sent': {
          const delay = backoffDelay(attempts, RETRY_BACKOFF, this.#random);
          if (attempts < this.#maxAttempts && waited + delay <= this.#maxWaitMs) {
            this.#log?.warn({ ...errorFields(error), attempt: attempts, delayMs: delay }, 'request not sent: trying again');
            if (await wait(delay)) continue;
            return this.#stop({ kind: 'failed', error });
          }
          this.#cycleFailed();
          return this.#stop({ kind: 'failed', error });
        }
        case 'sent-failed':
          // Sent, and it may have been billed: never sent again in this cycle; the next try waits for the backoff.
          this.#log?.warn({ ...errorFields(error), charge: action.result }, 'paid request sent without a usable answer: not sent again in this cycle');
          this.#cycleFailed();
          return this.#stop({ kind: 'failed', error });
      }
    }
  }

  #cycleFailed(): void {
    this.#failedCycles++;
    this.#backoffUntilMono = monotonicOf(this.#clock) + backoffDelay(this.#failedCycles, CYCLE_BACKOFF, this.#random);
  }

  async #record(receipt: Receipt, result: ChargeResult): Promise<void> {
    await this.#ledger.resolve(receipt, result).catch((e: unknown) => this.#log?.error({ err: e }, 'cannot write the budget ledger'));
  }

  /** The empty account answered again (a top-up): back to normal. */
  async #creditsBack(): Promise<void> {
    await this.#ledger.setCreditsOut(null).catch(() => undefined);
    this.#warnings = this.#warnings.filter((w) => !w.startsWith('W_CREDITS_EXHAUSTED'));
    this.#log?.info('the service answered again: the account has credits');
  }

  /** The account is empty: no paid request before the next probe (hourly), except a refresh or after a reload. */
  #creditsOutcome(): FetchOutcome {
    const now = this.#clock.now();
    const since = this.#ledger.state.creditsOut?.since ?? now;
    const next = now + Math.max(0, CREDITS_RETRY_MS - (monotonicOf(this.#clock) - this.#creditsRefusedMono));
    return { kind: 'budget_exhausted', until: new Date(next), scope: 'credits', since: new Date(since) };
  }

  #stop<T>(outcome: FetchOutcome): Step<T> {
    return { ok: false, outcome };
  }

  /** The budget, clock, backoff and rate checks, in one synchronous step. */
  #gate(reason: FetchReason, cost: number): Gate {
    const verdict = this.#observeClock();
    if (this.#keyRejected) return { kind: 'stop', outcome: { kind: 'failed', error: this.#keyRejected } };
    const s = this.#ledger.state;
    if (s.creditsOut !== null && reason !== 'refresh' && !this.#creditsProbe) {
      if (monotonicOf(this.#clock) - this.#creditsRefusedMono < CREDITS_RETRY_MS) return { kind: 'stop', outcome: this.#creditsOutcome() };
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
    // Once per change of cause: the reason's text carries a count that changes with every check.
    if (verdict.cause !== this.#untrustedCause && verdict.reason !== null) this.#log?.warn(warning('W_CLOCK_UNTRUSTED', verdict.reason));
    this.#untrustedCause = verdict.cause;
    this.#untrustedReason = verdict.reason;
    this.#ledger.settle(this.#clock.now(), verdict.trusted);
    return verdict;
  }

  #deferred(ms: number, reason: string): FetchOutcome {
    return { kind: 'deferred', until: new Date(this.#clock.now() + ms), reason };
  }

  #exhausted(period: 'day' | 'month', scope: Refusal): FetchOutcome {
    const s = this.#ledger.state;
    const unknownCredits = period === 'day' ? s.dayUnknown : s.monthUnknown;
    return { kind: 'budget_exhausted', until: new Date(this.#periodEnd(period)), scope, ...(unknownCredits > 0 && { unknownCredits }) };
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
    const warnings = [...this.#warnings];
    if (this.#untrustedReason !== null) warnings.push(warning('W_CLOCK_UNTRUSTED', this.#untrustedReason));
    return budgetStatus({
      state: this.#ledger.state,
      config: this.#config,
      now: this.#clock.now(),
      periodResetsAt: this.#periodEnd('day'),
      rateBlockedMs: this.#limiter.blockedMs,
      backoffMs: this.#backoffUntilMono - monotonicOf(this.#clock),
      rateRemaining: this.#limiter.serviceRemaining,
      warnings,
      stateProblem: this.#ledgerProblem,
    });
  }

  /** The ledger cannot be written, or null. */
  get stateProblem(): StateProblem | null {
    return this.#ledgerProblem;
  }

  /** Resolves when the ledger on disk holds every change so far. */
  flush(): Promise<void> {
    return this.#ledger.flush();
  }
}
