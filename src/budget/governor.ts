import type { StoreProblem } from '../store/store-error.js';
import type pino from 'pino';
import { AbortedError, ApiError } from '../api/errors.js';
import type { OutfitClient } from '../api/client.js';
import type { StoredRecommendation } from '../api/schemas.js';
import type { Config, DisplayConfig } from '../config/schema.js';
import { CycleBackoff } from './cycle-backoff.js';
import { budgetStatus } from './budget-status.js';
import type { Clock } from '../time/clock.js';
import { CLOCK_SLACK_MS, ClockGuard, type TrustVerdict } from './clock-guard.js';
import { CreditsWatch } from './credits-watch.js';
import { recCost, weatherChange } from './change-aware.js';
import { Ledger, type ChargeResult, type Receipt } from './ledger.js';
import { REASONS, warning } from './messages.js';
import { planConfig } from './planner.js';
import { MAX_RETRY_AFTER_MS, RateLimiter } from './rate-limiter.js';
import { retryLoop, type Attempt, type Step } from './retry-loop.js';
import { refusal } from './spend-gate.js';
import { chargeResult, failureAction } from './failure-policy.js';
import { warningCode } from '../log/logging.js';
import { periodEnd, type Period } from '../time/zoned-time.js';
import type { BudgetStatus, FetchOutcome, FetchReason, GovernorOptions, Refusal } from './governor-types.js';

export type { BudgetStatus, FetchOutcome, FetchReason, GovernorOptions } from './governor-types.js';

/** The checks before a send: go, or an attempt that ends before sending. */
type Gate = { kind: 'go'; trusted: boolean } | Extract<Attempt<never>, { kind: 'over' | 'pause' }>;

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
  readonly #client: OutfitClient;
  readonly #backoff: CycleBackoff;
  readonly #credits: CreditsWatch;
  #warnings: string[] = [];
  #keyRejected: ApiError | null = null;
  #untrustedReason: string | null = null;
  #untrustedCause: string | null = null;

  constructor(opts: GovernorOptions) {
    this.#config = opts.config;
    this.#client = opts.client;
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
    this.#guard = new ClockGuard({ clock: opts.clock, buildTime: opts.buildTime, syncStamp: opts.syncStamp });
    this.#limiter = new RateLimiter({ clock: opts.clock, limitPerMinute: b.rate_limit_per_minute });
    this.#backoff = new CycleBackoff({ clock: opts.clock, random: this.#random });
    this.#credits = new CreditsWatch(opts.clock);
  }

  /** Reads the persisted ledger; an unreadable one is logged and counted as spent, never a crash. */
  async load(): Promise<void> {
    const now = this.#clock.now();
    for (const w of await this.#ledger.load(now)) this.#warn(warning('W_LEDGER_UNREADABLE', w));
    const s = this.#ledger.state;
    this.#guard.restore(s.highWater);
    if (s.rateBlockedUntil !== null && s.rateBlockedUntil - now > MAX_RETRY_AFTER_MS + CLOCK_SLACK_MS) {
      // Further ahead than any Retry-After we take: written by a clock from the future (or stepped back since).
      this.#warn(
        warning(
          'W_LEDGER_FUTURE',
          `the budget ledger holds a Retry-After until ${new Date(s.rateBlockedUntil).toISOString()}, later than any the service can ask for: not honoured`,
        ),
      );
      await this.#ledger.setRateBlockedUntil(null).catch(() => undefined);
    } else if (s.rateBlockedUntil !== null && s.rateBlockedUntil > now) {
      this.#limiter.blockFor(s.rateBlockedUntil - now);
    }
    this.#limiter.prime(s.recentSends.map((t) => now - t));
    await this.#resumeBackoff(now);
    try {
      for (const w of planConfig(this.#config, { now }).warnings) this.#warn(w);
    } catch (err) {
      this.#log?.error({ err }, 'cannot plan the schedules');
    }
  }

  /**
   * The failure backoff as the ledger kept it, so that a restart waits as the process before it would have; a paid
   * request the ledger still has in flight was cut off by a crash or a kill, and counts as a failure from its send.
   */
  async #resumeBackoff(now: number): Promise<void> {
    const s = this.#ledger.state;
    this.#backoff.restore(s.backoff.failures, s.backoff.until - now);
    if (s.inFlight.length === 0) return;
    const sentAt = Math.max(...s.inFlight);
    this.#backoff.failedAt(sentAt);
    this.#ledger.noteBackoff(this.#backoff.failures, this.#backoff.untilWall());
    await this.#ledger.clearInFlight().catch(() => undefined);
    this.#log?.warn(
      {
        code: 'W_PAID_REQUEST_CUT',
        sentAt: new Date(sentAt).toISOString(),
        until: new Date(this.#backoff.untilWall()).toISOString(),
      },
      warning(
        'W_PAID_REQUEST_CUT',
        `a paid request sent at ${new Date(sentAt).toISOString()} never ended (the daemon stopped mid-request): counted as a failure, no purchase before the backoff ends`,
      ),
    );
  }

  /** The backoff after a failure, in memory and in the ledger (written with the request's record). */
  #failed(): void {
    this.#backoff.failed();
    this.#ledger.noteBackoff(this.#backoff.failures, this.#backoff.untilWall());
  }

  /**
   * A recommendation for `d`, within budget and rate limit. The daemon runs one cycle of a display at a time (a
   * refresh press shares the scheduled cycle in flight), so calls for one display never overlap.
   */
  async fetch(
    d: DisplayConfig,
    reason: FetchReason,
    last: StoredRecommendation | null,
    signal?: AbortSignal,
  ): Promise<FetchOutcome> {
    const client = this.#client;
    const req = { lat: d.lat, lon: d.lon, unit: d.unit, ...(d.gender !== '' && { gender: d.gender }) };
    const ca = d.change_aware;
    const rec = recCost(d);
    if (reason === 'schedule' && ca !== undefined && last !== null) {
      const age = this.#clock.now() - Date.parse(last.fetched_at);
      const w = this.#config.budget.weather_credit_cost;
      // Poll only when the outfit is young enough to keep and a purchase after the poll would still be affordable.
      if (age < ca.max_age_minutes * 60_000 && this.#affordable(reason, rec + w)) {
        const polled = await this.#request(
          reason,
          w,
          (s) => client.weather({ lat: d.lat, lon: d.lon, unit: d.unit }, { signal: s }),
          signal,
        );
        if (!polled.ok) return this.#withRetry(polled.outcome);
        const change = weatherChange(last.weather, polled.value, ca);
        if (change === null)
          return { kind: 'unchanged', reason: 'the weather did not change enough to change the outfit' };
        this.#log?.info({ display: d.id, change }, 'weather changed: buying a new recommendation');
      }
    }
    const call = d.endpoint === 'recweather' ? client.recweather.bind(client) : client.recommend.bind(client);
    const bought = await this.#request(reason, rec, (s) => call(req, { signal: s }), signal, d.id);
    return bought.ok ? { kind: 'fresh', rec: bought.value } : this.#withRetry(bought.outcome);
  }

  /** A failure another try may mend (sent without a usable answer, never sent) says when that try may go. */
  #withRetry(o: FetchOutcome): FetchOutcome {
    if (o.kind !== 'failed' || this.#keyRejected !== null) return o;
    const action = failureAction(o.error);
    if (action.kind !== 'sent-failed' && action.kind !== 'not-sent') return o;
    // A 2xx whose answer cannot be used was paid for: its slot is not bought again; the next slot is the next try.
    if (action.kind === 'sent-failed' && action.result === 'charged') return o;
    return { ...o, retryAt: new Date(this.#clock.now() + Math.max(0, this.#backoff.msLeft())) };
  }

  /** Whether `cost` would pass the budget rules now (no waiting considered). */
  #affordable(reason: FetchReason, cost: number): boolean {
    const g = this.#gate(reason, cost);
    return g.kind !== 'over' || g.outcome.kind !== 'budget_exhausted';
  }

  /**
   * One paid request with bounded retries (retry-loop.ts): attempts, and the pauses between them. `boughtFor`: the
   * display whose recommendation it buys, whose purchase the ledger keeps.
   */
  #request<T>(
    reason: FetchReason,
    cost: number,
    send: (signal?: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
    boughtFor?: string,
  ): Promise<Step<T>> {
    return retryLoop({
      attempt: (n) => this.#attempt(reason, cost, send, signal, n, boughtFor),
      clock: this.#clock,
      random: this.#random,
      maxAttempts: this.#maxAttempts,
      maxWaitMs: this.#maxWaitMs,
      signal,
      logger: this.#log,
      onGiveUp: () => this.#failed(),
    });
  }

  /** One attempt: gate, write-ahead charge, send, classify (and record how it ended). */
  async #attempt<T>(
    reason: FetchReason,
    cost: number,
    send: (signal?: AbortSignal) => Promise<T>,
    signal: AbortSignal | undefined,
    attempt: number,
    boughtFor?: string,
  ): Promise<Attempt<T>> {
    if (signal?.aborted)
      return { kind: 'over', outcome: { kind: 'failed', error: new AbortedError('fetch aborted before it was sent') } };
    const g = this.#gate(reason, cost);
    if (g.kind !== 'go') return g;
    // Synchronously with the gate's yes: take the rate slot and charge the ledger, then wait for the disk.
    const sentAt = this.#limiter.take();
    const probe = this.#credits.sending();
    const sendingAt = this.#clock.now();
    this.#ledger.noteSending(sendingAt);
    const charging = this.#ledger.chargeAhead(cost, reason === 'refresh', g.trusted, sendingAt);
    if (!g.trusted) this.#guard.recordSpend(cost);
    const charged = await charging;
    if (!charged.ok) {
      // Not sent: it costs nothing here either (the ledger took its charge back), and uses no rate slot or probe.
      this.#ledger.noteEnded(sendingAt);
      this.#limiter.untake(sentAt);
      this.#credits.notSent(probe);
      if (!g.trusted) this.#guard.cancelSpend(cost);
      this.#log?.error({ err: charged.error }, 'cannot write the budget ledger: no paid request without a record');
      return {
        kind: 'over',
        outcome: this.#deferred(60_000, `cannot write the budget ledger: ${charged.error.message}`),
      };
    }
    const { receipt } = charged;
    let error: unknown;
    try {
      const value = await send(signal);
      this.#limiter.observe(this.#client.rateLimit);
      this.#backoff.answered();
      this.#ledger.noteEnded(sendingAt);
      this.#ledger.noteBackoff(0, 0);
      if (boughtFor !== undefined) this.#ledger.noteBought(boughtFor, this.#clock.now());
      await this.#record(receipt, 'charged');
      if (this.#ledger.state.creditsOut !== null) await this.#creditsBack();
      return { kind: 'answered', value };
    } catch (err) {
      this.#limiter.observe(this.#client.rateLimit);
      error = err;
    }
    if (!(error instanceof ApiError)) throw error;
    const action = failureAction(error);
    const result = chargeResult(action);
    if (receipt.untrusted && (result === 'refused' || result === 'not-sent')) this.#guard.cancelSpend(cost);
    this.#ledger.noteEnded(sendingAt);
    // Sent, and it may have been billed (a 2xx that could not be used, a 5xx, no answer, or cut off by a stop): the
    // backoff follows, and is written with the record, so that a restart waits for it too.
    if (action.kind === 'sent-failed' || action.kind === 'aborted') this.#failed();
    if (action.kind === 'sent-failed' && action.result === 'charged' && boughtFor !== undefined)
      this.#ledger.notePaid(boughtFor, this.#clock.now());
    await this.#record(receipt, result);
    switch (action.kind) {
      case 'rate-limited':
        this.#log?.warn(
          { err: error, attempt, retryAfterMs: action.retryAfterMs },
          'rate limited: no request before Retry-After',
        );
        this.#limiter.blockFor(action.retryAfterMs);
        await this.#ledger.setRateBlockedUntil(this.#clock.now() + action.retryAfterMs).catch(() => undefined);
        return { kind: 'rate-limited', retryAfterMs: action.retryAfterMs };
      case 'key-rejected':
        this.#keyRejected = error;
        this.#warn(warning('W_KEY_REJECTED', error.message));
        return { kind: 'over', outcome: { kind: 'failed', error } };
      case 'credits':
        this.#credits.refused();
        await this.#ledger.setCreditsOut(this.#clock.now()).catch(() => undefined);
        this.#warn(warning('W_CREDITS_EXHAUSTED', `${error.message}: ${REASONS.creditsOut}`));
        return { kind: 'over', outcome: this.#creditsOutcome() };
      case 'refused':
      case 'aborted':
        return { kind: 'over', outcome: { kind: 'failed', error } };
      case 'not-sent':
        return { kind: 'not-sent', error };
      case 'sent-failed':
        // Sent, and it may have been billed: never sent again in this cycle; the next try waits for the backoff.
        this.#log?.warn(
          { err: error, charge: action.result },
          action.result === 'charged'
            ? 'paid request answered with an unusable answer: its slot is not bought again'
            : 'paid request sent without a usable answer: not sent again in this cycle',
        );
        return { kind: 'over', outcome: { kind: 'failed', error } };
    }
  }

  async #record(receipt: Receipt, result: ChargeResult): Promise<void> {
    await this.#ledger
      .resolve(receipt, result)
      .catch((e: unknown) => this.#log?.error({ err: e }, 'cannot write the budget ledger'));
  }

  /** The empty account answered again (a top-up): back to normal. */
  async #creditsBack(): Promise<void> {
    await this.#ledger.setCreditsOut(null).catch(() => undefined);
    this.#warnings = this.#warnings.filter((w) => !w.startsWith('W_CREDITS_EXHAUSTED'));
    this.#log?.info('the service answered again: the account has credits');
  }

  /** The account is empty: no paid request before the next probe (hourly), except a refresh or after a reload. */
  #creditsOutcome(): FetchOutcome {
    const since = this.#ledger.state.creditsOut?.since ?? this.#clock.now();
    return {
      kind: 'budget_exhausted',
      until: new Date(this.#credits.nextProbeAt()),
      scope: 'credits',
      since: new Date(since),
    };
  }

  /** The budget, clock, backoff and rate checks, in one synchronous step. */
  #gate(reason: FetchReason, cost: number): Gate {
    const verdict = this.#observeClock();
    if (this.#keyRejected) return { kind: 'over', outcome: { kind: 'failed', error: this.#keyRejected } };
    const s = this.#ledger.state;
    if (this.#credits.holds(s.creditsOut !== null, reason)) return { kind: 'over', outcome: this.#creditsOutcome() };
    // `once`, run by hand for every display, tries each one: another display's failure does not hold it back.
    const backoff = reason === 'once' ? 0 : this.#backoff.msLeft();
    if (backoff > 0)
      return { kind: 'over', outcome: this.#deferred(backoff, `${REASONS.backoff} (${this.#backoff.failures})`) };
    const used = verdict.trusted ? { day: s.daySpent, month: s.monthSpent } : this.#guard.windowUsed();
    const no = refusal(this.#config, {
      reason,
      cost,
      dayUsed: used.day,
      monthUsed: used.month,
      refreshSpentToday: s.dayRefreshSpent,
    });
    if (no !== null) {
      if (verdict.trusted || no === 'refresh-reserve') {
        return { kind: 'over', outcome: this.#exhausted(no === 'month' ? 'month' : 'day', no) };
      }
      const perDay = this.#config.budget.credits_per_day;
      const ms = perDay === undefined ? null : this.#guard.msUntilDayWindowFrees(cost, perDay);
      return { kind: 'over', outcome: this.#deferred(ms ?? 3_600_000, `${REASONS.clock}: ${verdict.reason ?? ''}`) };
    }
    const rate = this.#limiter.wait();
    if (rate.ms > 0) {
      const why =
        rate.why === 'retry-after'
          ? REASONS.retryAfter
          : rate.why === 'header'
            ? REASONS.rateHeader
            : REASONS.rateWindow;
      return { kind: 'pause', ms: rate.ms, reason: why };
    }
    return { kind: 'go', trusted: verdict.trusted };
  }

  /** Checks the clock and moves the ledger to the clock's day and month when it may. */
  #observeClock(): TrustVerdict {
    const verdict = this.#guard.check(() => ({
      day: this.#ledger.state.daySpent,
      month: this.#ledger.state.monthSpent,
    }));
    // Once per change of cause: the reason's text carries a count that changes with every check.
    if (verdict.cause !== this.#untrustedCause && verdict.reason !== null)
      this.#log?.warn({ code: 'W_CLOCK_UNTRUSTED' }, warning('W_CLOCK_UNTRUSTED', verdict.reason));
    this.#untrustedCause = verdict.cause;
    this.#untrustedReason = verdict.reason;
    const moved = this.#ledger.settle(this.#clock.now(), verdict.trusted);
    if (moved !== null) this.#warn(warning('W_LEDGER_FUTURE', moved));
    return verdict;
  }

  #deferred(ms: number, reason: string): FetchOutcome {
    return { kind: 'deferred', until: new Date(this.#clock.now() + ms), reason };
  }

  #exhausted(period: Period['scope'], scope: Refusal): FetchOutcome {
    const s = this.#ledger.state;
    const unknownCredits = period === 'day' ? s.dayUnknown : s.monthUnknown;
    const until = periodEnd(this.#ledger.period(period), this.#config.timezone);
    return { kind: 'budget_exhausted', until: new Date(until), scope, ...(unknownCredits > 0 && { unknownCredits }) };
  }

  #warn(text: string): void {
    if (!this.#warnings.includes(text)) this.#warnings.push(text);
    this.#log?.warn(warningCode(text), text);
  }

  status(): BudgetStatus {
    this.#observeClock();
    const warnings = [...this.#warnings];
    if (this.#untrustedReason !== null) warnings.push(warning('W_CLOCK_UNTRUSTED', this.#untrustedReason));
    return budgetStatus({
      state: this.#ledger.state,
      config: this.#config,
      now: this.#clock.now(),
      periodResetsAt: periodEnd(this.#ledger.period('day'), this.#config.timezone),
      rateBlockedMs: this.#limiter.blockedMs,
      backoffMs: this.#backoff.msLeft(),
      rateRemaining: this.#limiter.serviceRemaining,
      warnings,
      storeProblem: this.#ledger.problem,
    });
  }

  /**
   * The earliest time a scheduled purchase for `d` may go, as far as the budget knows now, or null: now. What holds
   * it back: the failure backoff, a Retry-After, the empty account's next probe, or a day or month whose budget has no
   * room for it. The next update a display announces is its next tick or retry, but never before this.
   */
  nextAllowedAt(d: DisplayConfig): Date | null {
    const now = this.#clock.now();
    const s = this.#ledger.state;
    let at = now + Math.max(0, this.#backoff.msLeft(), this.#limiter.blockedMs);
    if (s.creditsOut !== null) at = Math.max(at, this.#credits.nextProbeAt());
    const no = refusal(this.#config, {
      reason: 'schedule',
      cost: recCost(d),
      dayUsed: s.daySpent,
      monthUsed: s.monthSpent,
      refreshSpentToday: s.dayRefreshSpent,
    });
    if (no === 'day' || no === 'month') at = Math.max(at, periodEnd(this.#ledger.period(no), this.#config.timezone));
    return at > now ? new Date(at) : null;
  }

  /**
   * When `displayId`'s last recommendation was bought (ms), as the ledger keeps it, or null. A time later than the
   * clock allows (a clock that was ahead) is not believed: it would hold the display's purchases back for ever.
   */
  lastBoughtAt(displayId: string): number | null {
    const at = this.#ledger.state.lastBought[displayId];
    return at === undefined || at > this.#clock.now() + CLOCK_SLACK_MS ? null : at;
  }

  /**
   * When `displayId`'s slot was last paid for (ms): its last answer bought, or a later 2xx whose answer could not be
   * used; null when neither is known. A time later than the clock allows is not believed, as for lastBoughtAt.
   */
  lastPaidAt(displayId: string): number | null {
    const s = this.#ledger.state;
    const at = Math.max(s.lastBought[displayId] ?? -Infinity, s.lastPaid[displayId] ?? -Infinity);
    return at === -Infinity || at > this.#clock.now() + CLOCK_SLACK_MS ? null : at;
  }

  /** The ledger cannot be written, or null. */
  get storeProblem(): StoreProblem | null {
    return this.#ledger.problem;
  }

  /** Resolves when the ledger on disk holds every change so far. */
  flush(): Promise<void> {
    return this.#ledger.flush();
  }
}
