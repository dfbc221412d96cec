import type { Logger } from 'pino';
import { AbortedError, KeyRejectedError, type ApiError } from '../api/errors.js';
import type { Recommendation, StoredRecommendation } from '../api/schemas.js';
import type { FetchOutcome, FetchReason } from '../budget/governor-types.js';
import { REASONS } from '../budget/messages.js';
import type { DisplayConfig } from '../config/schema.js';
import { OutputProblemTracker } from '../files/output-error.js';
import type { Publisher } from '../publish/publisher.js';
import { drawInProcess, type DisplayRenderOptions, type DrawFrame } from '../render/display-frame.js';

import type { FrameStatus, ServiceProblem } from '../domain/frame-status.js';
import type { Frame, FramePerson } from '../render/frame.js';
import { GlyphWarnings } from '../render/glyph-warnings.js';
import { refusalText, W_REFRESH_REFUSED, type RefreshRefusal } from './refresh-gate.js';
import type { LastGoodStore } from '../store/last-good.js';
import {
  shownStoreProblem,
  StoreError,
  storeReadProblem,
  W_STATE_IGNORED,
  type StoreProblem,
} from '../store/store-error.js';
import type { DisplayBookWriter } from '../state/display-book.js';
import {
  recentNotice,
  staleness,
  type DisplayState,
  type LastError,
  type RefreshNotice,
} from '../state/display-state.js';
import type { DisplayViewSource, ShownView } from '../state/display-views.js';
import type { RenderProblem } from '../state/render-problem.js';
import type { Clock } from '../time/clock.js';
import { askedToWait, renderProblemOf } from './cycle-problems.js';
import type { HouseholdCycle } from './household-cycle.js';
import { PersonTurn } from '../household/person-turn.js';

/** Gets a Recommendation for a display within budget and rate limit (the governor). */
export type FetchFn = (
  display: DisplayConfig,
  reason: FetchReason,
  last: StoredRecommendation | null,
  signal?: AbortSignal,
) => Promise<FetchOutcome>;

export interface DisplayCycleDeps {
  display: DisplayConfig;
  /** How the display's frames are drawn (render/display-frame.ts: panel, time zone, rotation, dither, locale). */
  render: DisplayRenderOptions;
  /** Draws its frames: `run` passes a render process's (render-process.ts); default in this process. */
  draw?: DrawFrame;
  store: LastGoodStore;
  fetch: FetchFn;
  /** Told, after each record, that the display changed: each gets the display's view. */
  publishers: readonly Publisher[];
  /** Where the cycle writes its state whenever it changes (the daemon's display book): the one writer of it. */
  displayBook: DisplayBookWriter;
  /** The daemon's views of the display book: the one view of this display that the publishers are handed. */
  views: Pick<DisplayViewSource, 'view'>;
  /** Dates fetches, failures and refresh refusals. */
  clock: Clock;
  /**
   * The display's next update (its next tick or retry, as the budget allows); with `retryAt`, as it will be once the
   * slot that just failed asks for a retry then (the time the frame announces).
   */
  nextUpdateAt: (retryAt?: Date | null) => Date | null;
  logger: Logger;
  /**
   * While this display's state cannot be saved, no purchase sooner than this after the last one (the schedule's
   * shortest gap, at least a minute): what is bought is shown, but a restart would lose it, so nothing extra is bought.
   */
  purchaseIntervalMs: number;
  /** A state problem shared by every display (the credit ledger cannot be written), or null. */
  sharedStoreProblem?: () => StoreProblem | null;
  /** Logs characters drawn as boxes once per process (the daemon shares one); default: one for this cycle. */
  glyphWarnings?: GlyphWarnings;
  /** When an answer served at `servedAt` goes stale by the schedule (Scheduler.staleFrom); default never. */
  staleFrom?: (servedAt: number) => Date | null;
  /**
   * When the display's last recommendation was bought, as the credit ledger keeps it (Governor.lastBoughtAt), or null:
   * a start that cannot read that answer back says so (the scheduler does not buy its slot again).
   */
  lastBoughtAt?: () => number | null;
  /**
   * When the display's slot was last paid for (Governor.lastPaidAt): later than its last purchase, a 2xx whose answer
   * could not be used, which a start says as the cycle that got it did (its slot is not bought again).
   */
  lastPaidAt?: () => number | null;
  /**
   * A household display's people (household-cycle.ts): bought for instead of `fetch`, one answer each; the display's
   * own answer is its first person at home's. Absent: a display of one outfit, as before.
   */
  household?: HouseholdCycle;
}

export interface CycleResult {
  outcome: FetchOutcome['kind'];
  error: ApiError | null;
  /** Whether a frame went out to the publishers. */
  published: boolean;
  /** A refresh the governor did not allow: nothing on the wall changed. */
  refused?: boolean;
  /**
   * When a scheduled slot may be tried again, the purchase not having been made: deferred (backoff, Retry-After, the
   * rate limit, a state that cannot be saved), the empty account's next probe, or a failure that another try may
   * mend; null when it got its answer or trying again cannot help (a rejected key, our own budget used up).
   */
  retryAt: Date | null;
}

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
  #rec: StoredRecommendation | null = null;
  #status: FrameStatus = { kind: 'ok' };
  #frame: Frame | null = null;
  /**
   * What #frame was drawn from, and how stale (staleness()): recorded with it, also after a newer draw failed. The
   * last success is the cycle's own: an answer bought is not bought again because its frame could not be drawn.
   */
  #onShow: Pick<DisplayState, 'rec' | 'status' | 'stale' | 'staleSince' | 'people' | 'onePerson'> | null = null;
  /** Whom the display's own frame shows where its panel has room for one person only. */
  readonly #turn = new PersonTurn();
  /** The last draw failed (E_RENDER_…): #frame is older than the cycle's state until a draw succeeds. */
  #renderProblem: RenderProblem | null = null;
  #lastError: LastError | null = null;
  #lastSuccessAt: string | null = null;
  #failingSince: Date | null = null;
  #storeProblem: StoreProblem | null = null;
  /** The state problem the publishers last saw. */
  #publishedProblem: StoreProblem | null = null;
  /** The frame files that could not be written (E_OUTPUT_WRITE), from the publish rounds. */
  readonly #output = new OutputProblemTracker();
  /** When the last answer was bought in this process (ms), for the state-problem limit. */
  #lastBoughtAt: number | null = null;
  /** When the answer last bought was bought, while it could not be read back at the start (#notReadBack); else null. */
  #unreadSince: Date | null = null;
  /** False while #rec's fetched_at is not believable (dated in the future): it is shown, but its age is unknown. */
  #ageKnown = true;
  #refreshRefused: RefreshNotice | null = null;
  /** Refusals not logged yet (at most one log line a minute per display). */
  #refusalsUnlogged = 0;
  #refusalLoggedAt = -Infinity;
  readonly #glyphWarnings: GlyphWarnings;
  /** The publish round under way, and those waiting for it (#inTurn). */
  #rounds: Promise<unknown> = Promise.resolve();
  /** Frames asked for (#renderAndPublish), and the round of the newest. */
  #rendersAsked = 0;
  #newestRender: Promise<boolean> = Promise.resolve(false);

  constructor(deps: DisplayCycleDeps) {
    this.display = deps.display;
    this.#deps = deps;
    this.#glyphWarnings = deps.glyphWarnings ?? new GlyphWarnings(deps.logger);
  }

  /**
   * Runs a publish round after the ones before it. Drawing in a render process takes real time, so two rounds of a
   * display (the start's first frame and a tick's, say) would otherwise overlap and could end out of order, the
   * files of the older frame written over the newer. Each round draws, or takes, its frame when its turn comes, from
   * the state as it is then.
   */
  #inTurn<T>(round: () => Promise<T>): Promise<T> {
    const run = this.#rounds.then(round, round);
    this.#rounds = run.catch(() => undefined);
    return run;
  }

  /** The frame on show, published again in turn (its state changed, not its picture). */
  #republish(): Promise<boolean> {
    return this.#inTurn(() => (this.#frame === null ? Promise.resolve(false) : this.#publish(this.#frame)));
  }

  /** This display's own state problem, or the one every display shares (store-error.ts, shownStoreProblem). */
  #currentStoreProblem(): StoreProblem | null {
    // A household display's person whose answer cannot be saved is the display's problem as its own file would be.
    const own = this.#storeProblem ?? this.#deps.household?.storeProblem ?? null;
    return shownStoreProblem(own, this.#deps.sharedStoreProblem?.() ?? null);
  }

  /** What the frame and the state show: a household's first person at home and everyone, or the display's answer. */
  #shown(now: number): { rec: StoredRecommendation | null; people?: FramePerson[]; onePerson?: string } {
    const h = this.#deps.household;
    if (h === undefined) return { rec: this.#rec };
    const staleFrom = this.#deps.staleFrom;
    const people = h.people(now, (at) => staleFrom?.(at) ?? null);
    // A small panel shows one person a frame: the next one with each new answer of any of them.
    const onePerson = this.#turn.shows(people, people.map((p) => p.rec?.fetched_at ?? '').join(' '));
    return { rec: h.leadRec() ?? this.#rec, people, ...(onePerson !== undefined && { onePerson }) };
  }

  #currentNotice(): RefreshNotice | null {
    return recentNotice(this.#refreshRefused, this.#deps.clock.now());
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
      this.#storeProblem = storeReadProblem(this.#deps.store.fileOf(this.display.id), problem, new Date(clock.now()));
      const { code, file, message } = this.#storeProblem;
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
    this.#rec = rec;
    // A file dated in the future (a clock that was wrong when it was written) would count as fresh for ever: it is
    // shown, as better than nothing, but counts as having no known age, so a new answer is bought at once.
    this.#ageKnown = !(Date.parse(rec.fetched_at) > clock.now() + FUTURE_TOLERANCE_MS);
    this.#lastSuccessAt = this.#ageKnown ? rec.fetched_at : null;
    if (!this.#ageKnown) {
      logger.warn(
        { display: this.display.id, code: W_STATE_IGNORED, fetched_at: rec.fetched_at },
        'last good answer is dated in the future: shown, but not fresh',
      );
    }
    if (opts.publish) await this.#renderAndPublish();
    else this.#record();
    return this.#ageKnown;
  }

  /**
   * The ledger says an answer was bought at `bought`, and the last good file does not hold it (unreadable, missing,
   * or an older one): its slot is paid, and is not bought again (the scheduler counts the purchase); the display says
   * so until its next purchase.
   */
  #notReadBack(bought: number, problem: string | null): void {
    this.#unreadSince = new Date(bought);
    const at = new Date(bought).toISOString();
    const why = problem ?? `${this.display.id}'s last good file is missing or older`;
    this.#lastError = {
      code: W_STATE_IGNORED,
      message: `the answer bought at ${at} could not be read back (${why}): its slot is paid and not bought again; the next slot buys`,
      at: new Date(this.#deps.clock.now()).toISOString(),
    };
    this.#deps.logger.warn(
      { display: this.display.id, code: W_STATE_IGNORED, boughtAt: at },
      'the last answer bought could not be read back: not bought again before the next slot',
    );
  }

  /** The ledger says the slot's answer, paid for at `paid`, could not be used: the display says so, as before the start. */
  #unusable(paid: number): void {
    const since = new Date(paid);
    const message = `the answer bought at ${since.toISOString()} could not be used: its slot is paid and not bought again; the next slot buys`;
    this.#failingSince = since;
    this.#lastError = { code: 'E_BAD_RESPONSE', message, at: new Date(this.#deps.clock.now()).toISOString() };
    this.#status = { kind: 'service_error', problem: 'bad_answer', since, message, retryAt: this.#deps.nextUpdateAt() };
  }

  /** Renders what the display has now (the placeholder, when it has no outfit yet) and publishes it. */
  publishCurrent(): Promise<boolean> {
    return this.#renderAndPublish();
  }

  async run(reason: FetchReason, signal?: AbortSignal): Promise<CycleResult> {
    const { logger } = this.#deps;
    logger.debug({ display: this.display.id, reason }, 'cycle started');
    const held = this.#holdPurchase(reason);
    if (held !== null) return { outcome: 'deferred', error: null, published: false, retryAt: held };
    const { household } = this.#deps;
    const outcome =
      household === undefined
        ? await this.#deps.fetch(this.display, reason, this.#ageKnown ? this.#rec : null, signal)
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
        this.#failingSince = null;
        this.#status = { kind: 'ok' };
        this.#lastSuccessAt = now.toISOString();
        logger.info({ display: this.display.id, reason: outcome.reason }, 'weather unchanged, outfit kept');
        break;
      case 'budget_exhausted':
        // A 402 is the service's account, not our budget: the frame says so (and where to top it up).
        this.#status =
          outcome.scope === 'credits'
            ? { kind: 'credits_out', since: outcome.since ?? now, until: outcome.until }
            : {
                kind: 'budget_exhausted',
                until: outcome.until,
                ...(outcome.unknownCredits ? { unknownCredits: outcome.unknownCredits } : {}),
              };
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
        const before = this.#status;
        if (this.#rec === null && outcome.reason === REASONS.retryAfter) {
          // Nothing to show and the service refuses us for now: the wall and every publisher say so, and until when.
          this.#failingSince ??= now;
          const waiting = askedToWait({
            until: outcome.until,
            since: this.#failingSince,
            retryAt: this.#deps.nextUpdateAt(retryAt),
            timeZone: this.#deps.render.timezone,
          });
          this.#status = waiting;
          this.#lastError = { code: 'E_RATE_LIMITED', message: waiting.message, at: now.toISOString() };
        }
        // Nothing new to show; but a state problem that appeared or went away must reach the publishers.
        // Frame files that could not be written, and a frame that could not be drawn, are tried again at each tick.
        // A display with no frame yet in this process (`once`, whose restore does not publish) gets its frame.
        const problems = this.#output.problem !== null || this.#renderProblem !== null;
        if (
          this.#frame !== null &&
          this.#status === before &&
          this.#currentStoreProblem()?.code === this.#publishedProblem?.code &&
          !problems
        ) {
          return { outcome: outcome.kind, error: null, published: false, retryAt };
        }
        // Without an outfit the frame itself names the state problem: drawn again when it appears or goes.
        const redraw = this.#frame === null || this.#rec === null || this.#renderProblem !== null;
        const published = redraw ? await this.#renderAndPublish() : await this.#republish();
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
    const published = await this.#renderAndPublish();
    return { outcome: outcome.kind, error, published, retryAt };
  }

  /**
   * While the state cannot be saved, at most one purchase an interval (`once`, run by hand, always goes): every
   * answer is still shown, but nothing extra is bought that a restart would lose.
   */
  #holdPurchase(reason: FetchReason): Date | null {
    // A household display's person whose answer cannot be saved holds its purchases back as its own file would.
    const problem = this.#storeProblem ?? this.#deps.household?.storeProblem ?? null;
    if (problem?.code !== 'E_STATE_WRITE' || reason === 'once' || this.#lastBoughtAt === null) return null;
    const since = this.#deps.clock.now() - this.#lastBoughtAt;
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
    return new Date(this.#lastBoughtAt + this.#deps.purchaseIntervalMs);
  }

  /**
   * A refresh that was not allowed (by the daemon's gate or the governor): logged at most once a minute, shown in
   * the diagnostics for a few minutes; the frame is not rendered again and nothing else changes.
   */
  async refuseRefresh(refusal: RefreshRefusal): Promise<void> {
    const now = this.#deps.clock.now();
    const text = refusalText(refusal);
    const shown = this.#currentNotice();
    this.#refreshRefused = { kind: refusal.kind, text, at: new Date(now).toISOString() };
    this.#refusalsUnlogged++;
    if (now - this.#refusalLoggedAt >= 60_000 || now < this.#refusalLoggedAt) {
      this.#deps.logger.warn(
        {
          display: this.display.id,
          code: W_REFRESH_REFUSED,
          refusal: refusal.kind,
          count: this.#refusalsUnlogged,
        },
        text,
      );
      this.#refusalLoggedAt = now;
      this.#refusalsUnlogged = 0;
    }
    this.#record();
    // The diagnostics learn of it through a publish of the unchanged frame, once per kind of notice (not per press).
    if (this.#frame !== null && (shown === null || shown.kind !== refusal.kind)) await this.#republish();
  }

  async #accept(rec: Recommendation, now: Date): Promise<void> {
    const stored: StoredRecommendation = { ...rec, fetched_at: now.toISOString() };
    this.#rec = stored;
    this.#status = { kind: 'ok' };
    this.#failingSince = null;
    this.#lastSuccessAt = stored.fetched_at;
    this.#lastBoughtAt = now.getTime();
    this.#ageKnown = true;
    this.#unreadSince = null;
    this.#deps.logger.info(
      { display: this.display.id, temp: rec.weather.temp, description: rec.weather.description },
      'new recommendation',
    );
    // What was bought is shown whether or not it can be saved; a save that fails is reported on every publisher.
    try {
      await this.#deps.store.save(this.display.id, stored);
      if (this.#storeProblem !== null) {
        const words =
          this.#storeProblem.code === 'E_STATE_READ' ? 'a last good answer is saved again' : 'state can be saved again';
        this.#deps.logger.info({ display: this.display.id, was: this.#storeProblem.code }, words);
      }
      this.#storeProblem = null;
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
      this.#storeProblem = {
        code: err.code,
        file: err.file,
        message: err.message,
        since: this.#storeProblem?.code === err.code ? this.#storeProblem.since : now.toISOString(),
      };
      this.#deps.logger.error({ display: this.display.id, err }, 'the new recommendation is shown but cannot be saved');
    }
  }

  #fail(err: ApiError, now: Date, retryAt: Date | null): void {
    this.#lastError = { code: err.code, message: err.message, at: now.toISOString() };
    if (err instanceof KeyRejectedError) {
      this.#status = { kind: 'key_rejected', message: err.serviceMessage ?? err.message };
    } else {
      this.#failingSince ??= now;
      // When the wall says the next try comes: the retry the scheduler will set for this slot, or the next tick.
      const next = {
        since: this.#failingSince,
        message: err.serviceMessage ?? err.message,
        retryAt: err.retryable ? this.#deps.nextUpdateAt(retryAt) : null,
      };
      // "No connection" only when none was made; once the service was reached, it is the service that failed.
      this.#status =
        err.code === 'E_CONNECT'
          ? { kind: 'unreachable', ...next }
          : { kind: 'service_error', problem: SERVICE_PROBLEMS[err.code] ?? 'refused', ...next };
    }
    this.#deps.logger.error({ display: this.display.id, err }, 'cycle failed; last good frame kept');
  }

  /**
   * Renders the current state and publishes it, in turn. A frame that was still being drawn when a newer one was
   * asked for is dropped: the state it was drawn from has changed (the start's first frame, drawn while a tick's
   * purchase failed, would show "waiting" beside the failure), and the newer round draws the state as it is then.
   * Its caller gets the newer round's outcome.
   */
  #renderAndPublish(): Promise<boolean> {
    const asked = ++this.#rendersAsked;
    const round = this.#inTurn(() => this.#drawAndPublish(asked)).then((r) =>
      r === 'superseded' ? this.#newestRender : r,
    );
    this.#newestRender = round;
    return round;
  }

  async #drawAndPublish(asked: number): Promise<boolean | 'superseded'> {
    const { display } = this.#deps;
    // The answer on show went stale by the clock (a slot passed without a new one): the frame and every publisher
    // say so. A new answer (or a confirming poll) sets the status back to ok; an error status says more and stays.
    const parsed = this.#lastSuccessAt === null ? NaN : Date.parse(this.#lastSuccessAt);
    const served = Number.isFinite(parsed) ? parsed : null;
    const { staleFrom } = this.#deps;
    const now = this.#deps.clock.now();
    const { stale, since } = staleness({
      servedAt: served,
      ageUnknown: this.#rec !== null && !this.#ageKnown,
      staleFrom: (at) => staleFrom?.(at) ?? null,
      now,
    });
    if (this.#status.kind === 'ok' && stale && served !== null)
      this.#status = { kind: 'stale', since: new Date(served) };
    const shown = this.#shown(now);
    const onShow = { ...shown, status: this.#status, stale, staleSince: since };
    let frame: Frame;
    try {
      frame = await (this.#deps.draw ?? drawInProcess)(this.#deps.render, {
        ...shown,
        status: this.#status,
        // The age shows whatever else is wrong; an answer of no known age (dated ahead) is not current either.
        stale,
        now: new Date(now),
        storeProblem: this.#currentStoreProblem(),
        notReadBack: this.#unreadSince,
      });
    } catch (err) {
      if (this.#rendersAsked === asked) await this.#drawFailed(err);
      throw err;
    }
    if (this.#rendersAsked > asked) return 'superseded';
    if (this.#renderProblem !== null) this.#deps.logger.info({ display: display.id }, 'frames can be drawn again');
    this.#renderProblem = null;
    this.#frame = frame;
    this.#onShow = onShow;
    this.#glyphWarnings.report(frame.missingGlyphs ?? [], { display: display.id });
    this.#glyphWarnings.reportScripts(frame.missingScripts ?? [], { display: display.id });
    return this.#publish(frame);
  }

  /**
   * A draw failed: the frame on show stays, with the state it was drawn from (an answer just bought is kept, and drawn
   * with the next frame), and every publisher is told why it was not replaced. The caller still fails with the error.
   */
  async #drawFailed(err: unknown): Promise<void> {
    const now = new Date(this.#deps.clock.now());
    this.#renderProblem = renderProblemOf(err, now, this.#renderProblem);
    this.#lastError = { code: this.#renderProblem.code, message: this.#renderProblem.message, at: now.toISOString() };
    if (this.#frame === null) this.#record();
    else await this.#publish(this.#frame);
  }

  /**
   * Records `frame` and the state behind it in the display book, then tells every publisher, handing each the display's
   * view; one failing publisher does not stop the others. When the frame files' problem appears or goes, the round
   * is repeated once, so that every publisher shows it.
   */
  async #publish(frame: Frame, again = true): Promise<boolean> {
    const { display, logger } = this.#deps;
    this.#publishedProblem = this.#currentStoreProblem();
    const view = this.#recordAndView(frame);
    const results = await Promise.allSettled(this.#deps.publishers.map((p) => p.publish(view)));
    let ok = true;
    results.forEach((r, i) => {
      if (r.status === 'rejected') {
        ok = false;
        const name = this.#deps.publishers[i]?.name ?? 'publisher';
        const err = r.reason as Error;
        this.#lastError = {
          code: (err as NodeJS.ErrnoException).code ?? 'E_PUBLISH',
          message: `${name}: ${err.message}`,
          at: new Date(this.#deps.clock.now()).toISOString(),
        };
        logger.error({ display: display.id, publisher: name, err }, 'publish failed');
      }
    });
    const output = this.#output.observe(
      results.map((r): unknown => (r.status === 'rejected' ? r.reason : null)),
      new Date(this.#deps.clock.now()),
    );
    if (output.cleared) logger.info({ display: display.id }, 'frame files can be written again');
    if (output.changed && again) return this.#publish(frame, false);
    if (!ok) this.#record(frame);
    return ok;
  }

  /** Writes the cycle's own state to the display book (the shared state problem and the schedule are added by its readers). */
  #record(frame: Frame | null = this.#frame): void {
    this.#deps.displayBook.record(this.#state(frame));
  }

  /** Records `frame` with the state behind it, and reads back the one view every publisher is handed. */
  #recordAndView(frame: Frame): ShownView {
    this.#record(frame);
    const view = this.#deps.views.view(this.display.id);
    // The display book has just recorded a frame for this display: anything else is views not over this cycle's book.
    if (view?.kind !== 'shown')
      throw new Error(
        `display "${this.display.id}": its view does not show the frame just recorded (the cycle's views must read its display book)`,
      );
    return view;
  }

  #state(frame: Frame | null): DisplayState {
    // With a frame, what it was drawn from; without one, the cycle's own state (no frame on the wall to be stale).
    const shown =
      frame !== null && this.#onShow !== null
        ? this.#onShow
        : { ...this.#shown(this.#deps.clock.now()), status: this.#status, stale: false, staleSince: null };
    return {
      display: this.display,
      ...shown,
      frame,
      lastError: this.#lastError,
      lastSuccessAt: this.#lastSuccessAt,
      storeProblem: this.#storeProblem,
      outputProblem: this.#output.problem,
      renderProblem: this.#renderProblem,
      refreshRefused: this.#refreshRefused,
      nextUpdateAt: this.#deps.nextUpdateAt(),
    };
  }
}

/** The wall's words for each failure once the service was reached (any other: `refused`). */
const SERVICE_PROBLEMS: Readonly<Partial<Record<ApiError['code'], ServiceProblem>>> = {
  E_SERVICE: 'error',
  E_TIMEOUT: 'no_answer',
  E_NETWORK: 'connection_lost',
  E_BAD_RESPONSE: 'bad_answer',
  E_RATE_LIMITED: 'busy',
};

/** When a slot whose fetch ended so may be tried again (CycleResult.retryAt). */
function retryAtOf(o: FetchOutcome): Date | null {
  switch (o.kind) {
    case 'deferred':
      return o.until;
    case 'budget_exhausted':
      // The account's next probe (a 402: a top-up recovers the same day); our own budget used up waits for the
      // display's next slot, rather than buying a night-time answer the moment the new day opens.
      return o.scope === 'credits' ? o.until : null;
    case 'failed':
      return o.retryAt ?? null;
    default:
      return null;
  }
}

/** What a refused refresh says when the governor refused it for the budget. */
function refusedBudgetWords(o: Extract<FetchOutcome, { kind: 'budget_exhausted' }>): string {
  switch (o.scope) {
    case 'refresh-reserve':
      return "today's refresh reserve is spent";
    case 'credits':
      return 'the service account is out of credits';
    default:
      return `the credit budget is used up until ${o.until.toISOString()}`;
  }
}
