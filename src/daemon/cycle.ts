import { AbortedError, KeyRejectedError, type ApiError } from '../api/errors.js';
import type { Recommendation, StoredRecommendation } from '../api/schemas.js';
import type { FetchReason } from '../budget/governor-types.js';
import { REASONS } from '../budget/messages.js';
import type { DisplayConfig } from '../config/schema.js';
import { GlyphWarnings } from '../render/glyph-warnings.js';
import { recentNotice, type RefreshNotice } from '../state/display-state.js';
import { StoreError, storeReadProblem, W_STATE_IGNORED } from '../store/store-error.js';
import { CycleFacts } from './cycle-facts.js';
import { CycleFrames } from './cycle-frames.js';
import type { DisplayCycleDeps } from './cycle-deps.js';
import { retryAtOf, type CycleResult } from './cycle-result.js';
import {
  askedToWait,
  budgetStatus,
  notReadBackError,
  refusedBudgetWords,
  SERVICE_PROBLEMS,
  unusableAnswer,
} from './cycle-problems.js';
import { refusalText, type RefreshRefusal } from './refresh-gate.js';
import { RefusalLog } from './refusal-log.js';

/** A last good answer dated further ahead than this is from a clock that was wrong: shown, but not fresh. */
const FUTURE_TOLERANCE_MS = 5 * 60_000;
/** A purchase the ledger dates this much after the last good answer is one whose answer was not saved. */
const UNSAVED_AFTER_MS = 5_000;

/**
 * One display's cycle: fetch (through the governor) → keep the last good → render → publish.
 * A failed or refused fetch never replaces the last good Recommendation; it changes only the mark on the frame.
 */
export class DisplayCycle {
  readonly display: DisplayConfig;
  readonly #deps: DisplayCycleDeps;
  /** What the cycle knows: its answer, status and problems (shared with its frames). */
  readonly #f = new CycleFacts();
  /** Draws, publishes and records the display's frames. */
  readonly #frames: CycleFrames;
  /** Refused refresh presses, at most one log line a minute. */
  readonly #refusals: RefusalLog;

  constructor(deps: DisplayCycleDeps) {
    this.display = deps.display;
    this.#deps = deps;
    const glyphWarnings = deps.glyphWarnings ?? new GlyphWarnings(deps.logger);
    this.#frames = new CycleFrames({ deps, facts: this.#f, glyphWarnings });
    this.#refusals = new RefusalLog({ displayId: deps.display.id, logger: deps.logger });
  }

  #currentNotice(): RefreshNotice | null {
    return recentNotice(this.#f.refreshRefused, this.#deps.clock.now());
  }

  /**
   * Loads the last good Recommendation from the state store and, unless told not to, publishes its frame at once
   * (before any poll). Returns whether there was one.
   */
  async restore(opts: { publish: boolean } = { publish: true }): Promise<boolean> {
    const { logger, clock } = this.#deps;
    await this.#deps.household?.restore();
    const loaded = await this.#deps.store.load(this.display.id);
    const { problem } = loaded;
    // A household display without a file of its own (its first person has had no answer yet) shows its people's.
    const rec = loaded.rec ?? this.#deps.household?.leadRec() ?? null;
    if (problem !== null) {
      // What the display showed is lost: a state problem everywhere an owner looks, until an answer is saved over it.
      this.#f.storeProblem = storeReadProblem(this.#deps.store.fileOf(this.display.id), problem, new Date(clock.now()));
      const { code, file, message } = this.#f.storeProblem;
      logger.error(
        { display: this.display.id, err: new StoreError(code, file, message) },
        'the last good answer cannot be read back: ignored',
      );
    }
    const bought = this.#deps.lastBoughtAt?.() ?? null;
    if (bought !== null && (rec === null || bought > Date.parse(rec.fetched_at) + UNSAVED_AFTER_MS))
      this.#notReadBack(bought, problem);
    const paid = this.#deps.lastPaidAt?.() ?? null;
    if (
      paid !== null &&
      paid > (bought ?? -Infinity) &&
      (rec === null || paid > Date.parse(rec.fetched_at) + UNSAVED_AFTER_MS)
    )
      this.#unusable(paid);
    if (rec === null) return false;
    this.#f.rec = rec;
    // A file dated in the future (a clock that was wrong when it was written) would count as fresh for ever: it is
    // shown, as better than nothing, but counts as having no known age, so a new answer is bought at once.
    this.#f.ageKnown = !(Date.parse(rec.fetched_at) > clock.now() + FUTURE_TOLERANCE_MS);
    this.#f.lastSuccessAt = this.#f.ageKnown ? rec.fetched_at : null;
    if (!this.#f.ageKnown) {
      logger.warn(
        { display: this.display.id, code: W_STATE_IGNORED, fetched_at: rec.fetched_at },
        'last good answer is dated in the future: shown, but not fresh',
      );
    }
    if (opts.publish) await this.#frames.renderAndPublish();
    else this.#frames.record();
    return this.#f.ageKnown;
  }

  /**
   * The ledger says an answer was bought at `bought`, and the last good file does not hold it (unreadable, missing,
   * or an older one): its slot is paid, and is not bought again (the scheduler counts the purchase); the display says
   * so until its next purchase.
   */
  #notReadBack(bought: number, problem: string | null): void {
    this.#f.unreadSince = new Date(bought);
    const why = problem ?? `${this.display.id}'s last good file is missing or older`;
    this.#f.lastError = notReadBackError(bought, why, new Date(this.#deps.clock.now()));
    this.#deps.logger.warn(
      { display: this.display.id, code: W_STATE_IGNORED, boughtAt: new Date(bought).toISOString() },
      'the last answer bought could not be read back: not bought again before the next slot',
    );
  }

  /** The ledger says the slot's answer, paid for at `paid`, could not be used: the display says so, as before the start. */
  #unusable(paid: number): void {
    const { status, lastError } = unusableAnswer(paid, new Date(this.#deps.clock.now()), this.#deps.nextUpdateAt());
    this.#f.failingSince = status.since;
    this.#f.lastError = lastError;
    this.#f.status = status;
  }

  /** Renders what the display has now (the placeholder, when it has no outfit yet) and publishes it. */
  publishCurrent(): Promise<boolean> {
    return this.#frames.renderAndPublish();
  }

  async run(reason: FetchReason, signal?: AbortSignal): Promise<CycleResult> {
    const { logger } = this.#deps;
    logger.debug({ display: this.display.id, reason }, 'cycle started');
    const held = this.#holdPurchase(reason);
    if (held !== null) return { outcome: 'deferred', error: null, published: false, retryAt: held };
    const { household } = this.#deps;
    const outcome =
      household === undefined
        ? await this.#deps.fetch(this.display, reason, this.#f.ageKnown ? this.#f.rec : null, signal)
        : await household.fetch(reason, signal);
    const retryAt = retryAtOf(outcome);
    if (reason === 'refresh' && (outcome.kind === 'budget_exhausted' || outcome.kind === 'deferred')) {
      // A refused press changes nothing on the wall: no budget screen while the schedule still has credits.
      const detail = outcome.kind === 'deferred' ? outcome.reason : refusedBudgetWords(outcome);
      await this.refuseRefresh({ kind: 'budget', detail });
      return { outcome: outcome.kind, error: null, published: false, refused: true, retryAt: null };
    }
    let error: ApiError | null = null;
    const now = new Date(this.#deps.clock.now());
    switch (outcome.kind) {
      case 'fresh':
        await this.#accept(outcome.rec, outcome.fetchedAt ?? now);
        break;
      case 'away':
        // Nothing bought and nothing failed: the frame is drawn again with who is away.
        logger.info({ display: this.display.id, why: outcome.reason }, 'nobody at home: nothing bought');
        break;
      case 'unchanged':
        // The poll confirmed the outfit on show: the slot is served, and the answer counts as current from now.
        this.#f.failingSince = null;
        this.#f.status = { kind: 'ok' };
        this.#f.lastSuccessAt = now.toISOString();
        logger.info({ display: this.display.id, reason: outcome.reason }, 'weather unchanged, outfit kept');
        break;
      case 'budget_exhausted':
        // A 402 is the service's account, not our budget: the frame says so (and where to top it up).
        this.#f.status = budgetStatus(outcome, now);
        logger.warn(
          {
            display: this.display.id,
            code: outcome.scope === 'credits' ? 'W_CREDITS_EXHAUSTED' : 'W_BUDGET_EXHAUSTED',
            until: outcome.until.toISOString(),
            scope: outcome.scope,
          },
          outcome.scope === 'credits' ? 'service account out of credits' : 'budget used up',
        );
        break;
      case 'deferred': {
        logger.info({ display: this.display.id, until: outcome.until.toISOString(), why: outcome.reason }, 'deferred');
        const before = this.#f.status;
        if (this.#f.rec === null && outcome.reason === REASONS.retryAfter) {
          // Nothing to show and the service refuses us for now: the wall and every publisher say so, and until when.
          this.#f.failingSince ??= now;
          const waiting = askedToWait({
            until: outcome.until,
            since: this.#f.failingSince,
            retryAt: this.#deps.nextUpdateAt(retryAt),
            timeZone: this.#deps.render.timezone,
          });
          this.#f.status = waiting;
          this.#f.lastError = { code: 'E_RATE_LIMITED', message: waiting.message, at: now.toISOString() };
        }
        // Nothing new to show; but a state problem that appeared or went away must reach the publishers.
        // Frame files that could not be written, and a frame that could not be drawn, are tried again at each tick.
        // A display with no frame yet in this process (`once`, whose restore does not publish) gets its frame.
        const problems = this.#frames.pending;
        if (
          this.#frames.hasFrame &&
          this.#f.status === before &&
          this.#frames.storeProblem()?.code === this.#frames.publishedProblem?.code &&
          !problems
        ) {
          return { outcome: outcome.kind, error: null, published: false, retryAt };
        }
        // Without an outfit the frame itself names the state problem: drawn again when it appears or goes.
        const redraw = !this.#frames.hasFrame || this.#f.rec === null || this.#frames.renderFailed;
        const published = redraw ? await this.#frames.renderAndPublish() : await this.#frames.republish();
        return { outcome: outcome.kind, error: null, published, retryAt };
      }
      case 'failed':
        // Aborted: the daemon is stopping, nothing failed. The display keeps its frame (no error screen on the way out).
        if (outcome.error instanceof AbortedError) {
          logger.info({ display: this.display.id }, 'cycle aborted: stopping');
          return { outcome: outcome.kind, error: outcome.error, published: false, retryAt: null };
        }
        error = outcome.error;
        this.#fail(outcome.error, now, retryAt);
        break;
    }
    const published = await this.#frames.renderAndPublish();
    return { outcome: outcome.kind, error, published, retryAt };
  }

  /**
   * While the state cannot be saved, at most one purchase an interval (`once`, run by hand, always goes): every
   * answer is still shown, but nothing extra is bought that a restart would lose.
   */
  #holdPurchase(reason: FetchReason): Date | null {
    // A household display's person whose answer cannot be saved holds its purchases back as its own file would.
    const problem = this.#f.storeProblem ?? this.#deps.household?.storeProblem ?? null;
    if (problem?.code !== 'E_STATE_WRITE' || reason === 'once' || this.#f.lastBoughtAt === null) return null;
    const since = this.#deps.clock.now() - this.#f.lastBoughtAt;
    if (since < 0 || since >= this.#deps.purchaseIntervalMs) return null;
    this.#deps.logger.warn(
      {
        display: this.display.id,
        reason,
        err: new StoreError(problem.code, problem.file, problem.message),
        againInMs: this.#deps.purchaseIntervalMs - since,
      },
      'state cannot be saved: no new purchase before the interval has passed',
    );
    return new Date(this.#f.lastBoughtAt + this.#deps.purchaseIntervalMs);
  }

  /**
   * A refresh that was not allowed (by the daemon's gate or the governor): logged at most once a minute, shown in
   * the diagnostics for a few minutes; the frame is not rendered again and nothing else changes.
   */
  async refuseRefresh(refusal: RefreshRefusal): Promise<void> {
    const now = this.#deps.clock.now();
    const text = refusalText(refusal);
    const shown = this.#currentNotice();
    this.#f.refreshRefused = { kind: refusal.kind, text, at: new Date(now).toISOString() };
    this.#refusals.refused(refusal, text, now);
    this.#frames.record();
    // The diagnostics learn of it through a publish of the unchanged frame, once per kind of notice (not per press).
    if (this.#frames.hasFrame && (shown === null || shown.kind !== refusal.kind)) await this.#frames.republish();
  }

  async #accept(rec: Recommendation, now: Date): Promise<void> {
    const stored: StoredRecommendation = { ...rec, fetched_at: now.toISOString() };
    this.#f.rec = stored;
    this.#f.status = { kind: 'ok' };
    this.#f.failingSince = null;
    this.#f.lastSuccessAt = stored.fetched_at;
    this.#f.lastBoughtAt = now.getTime();
    this.#f.ageKnown = true;
    this.#f.unreadSince = null;
    this.#deps.logger.info(
      { display: this.display.id, temp: rec.weather.temp, description: rec.weather.description },
      'new recommendation',
    );
    // What was bought is shown whether or not it can be saved; a save that fails is reported on every publisher.
    try {
      await this.#deps.store.save(this.display.id, stored);
      if (this.#f.storeProblem !== null) {
        const words =
          this.#f.storeProblem.code === 'E_STATE_READ'
            ? 'a last good answer is saved again'
            : 'state can be saved again';
        this.#deps.logger.info({ display: this.display.id, was: this.#f.storeProblem.code }, words);
      }
      this.#f.storeProblem = null;
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
      this.#f.storeProblem = {
        code: err.code,
        file: err.file,
        message: err.message,
        since: this.#f.storeProblem?.code === err.code ? this.#f.storeProblem.since : now.toISOString(),
      };
      this.#deps.logger.error({ display: this.display.id, err }, 'the new recommendation is shown but cannot be saved');
    }
  }

  #fail(err: ApiError, now: Date, retryAt: Date | null): void {
    this.#f.lastError = { code: err.code, message: err.message, at: now.toISOString() };
    if (err instanceof KeyRejectedError) {
      this.#f.status = { kind: 'key_rejected', message: err.serviceMessage ?? err.message };
    } else {
      this.#f.failingSince ??= now;
      // When the wall says the next try comes: the retry the scheduler will set for this slot, or the next tick.
      const next = {
        since: this.#f.failingSince,
        message: err.serviceMessage ?? err.message,
        retryAt: err.retryable ? this.#deps.nextUpdateAt(retryAt) : null,
      };
      // "No connection" only when none was made; once the service was reached, it is the service that failed.
      this.#f.status =
        err.code === 'E_CONNECT'
          ? { kind: 'unreachable', ...next }
          : { kind: 'service_error', problem: SERVICE_PROBLEMS[err.code] ?? 'refused', ...next };
    }
    this.#deps.logger.error({ display: this.display.id, err }, 'cycle failed; last good frame kept');
  }
}
