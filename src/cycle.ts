import type { Logger } from 'pino';
import { AbortedError, KeyRejectedError, type ApiError } from './api/errors.js';
import type { Recommendation, StoredRecommendation } from './api/schemas.js';
import type { FetchOutcome } from './budget/governed-fetch.js';
import type { DisplayConfig } from './config/schema.js';
import { errorFields } from './logging.js';
import type { Publisher } from './publish/publisher.js';
import { renderFrame, type Frame, type FrameStatus } from './render/frame.js';
import type { PanelProfile } from './render/panels.js';
import type { LastGoodStore } from './store/last-good.js';

export type FetchReason = 'schedule' | 'refresh' | 'once';

/** Gets a Recommendation for a display within budget and rate limit (the governor). */
export type FetchFn = (
  display: DisplayConfig,
  reason: FetchReason,
  last: StoredRecommendation | null,
  signal?: AbortSignal,
) => Promise<FetchOutcome>;

export interface DisplayCycleDeps {
  display: DisplayConfig;
  panel: PanelProfile;
  timezone: string;
  store: LastGoodStore;
  fetch: FetchFn;
  publishers: readonly Publisher[];
  now: () => number;
  nextUpdateAt: () => Date | null;
  logger: Logger;
}

export interface CycleResult {
  outcome: FetchOutcome['kind'];
  error: ApiError | null;
  /** Whether a frame went out to the publishers. */
  published: boolean;
}

/** What the status page and Home Assistant show about one display. */
export interface DisplaySnapshot {
  rec: StoredRecommendation | null;
  status: FrameStatus;
  frame: Frame | null;
  lastError: { code: string; message: string; at: string } | null;
  lastSuccessAt: string | null;
}

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
  #lastError: DisplaySnapshot['lastError'] = null;
  #lastSuccessAt: string | null = null;
  #failingSince: Date | null = null;

  constructor(deps: DisplayCycleDeps) {
    this.display = deps.display;
    this.#deps = deps;
  }

  snapshot(): DisplaySnapshot {
    return {
      rec: this.#rec,
      status: this.#status,
      frame: this.#frame,
      lastError: this.#lastError,
      lastSuccessAt: this.#lastSuccessAt,
    };
  }

  /**
   * Loads the last good Recommendation from the state store and, unless told not to, publishes its frame at once
   * (before any poll). Returns whether there was one.
   */
  async restore(opts: { publish: boolean } = { publish: true }): Promise<boolean> {
    const { rec, problem } = await this.#deps.store.load(this.display.id);
    if (problem !== null) this.#deps.logger.warn({ display: this.display.id, problem }, 'last good state ignored');
    if (rec === null) return false;
    this.#rec = rec;
    this.#lastSuccessAt = rec.fetched_at;
    if (opts.publish) await this.#renderAndPublish();
    return true;
  }

  async run(reason: FetchReason, signal?: AbortSignal): Promise<CycleResult> {
    const { logger } = this.#deps;
    logger.debug({ display: this.display.id, reason }, 'cycle started');
    const outcome = await this.#deps.fetch(this.display, reason, this.#rec, signal);
    let error: ApiError | null = null;
    const now = new Date(this.#deps.now());
    switch (outcome.kind) {
      case 'fresh':
        await this.#accept(outcome.rec, now);
        break;
      case 'unchanged':
        this.#failingSince = null;
        this.#status = { kind: 'ok' };
        logger.info({ display: this.display.id, reason: outcome.reason }, 'weather unchanged, outfit kept');
        break;
      case 'budget_exhausted':
        this.#status = { kind: 'budget_exhausted', until: outcome.until };
        logger.warn({ display: this.display.id, until: outcome.until.toISOString() }, 'budget used up');
        break;
      case 'deferred':
        logger.info({ display: this.display.id, until: outcome.until.toISOString(), why: outcome.reason }, 'deferred');
        return { outcome: outcome.kind, error: null, published: false };
      case 'failed':
        // Aborted: the daemon is stopping, nothing failed. The display keeps its frame (no error screen on the way out).
        if (outcome.error instanceof AbortedError) {
          logger.info({ display: this.display.id }, 'cycle aborted: stopping');
          return { outcome: outcome.kind, error: outcome.error, published: false };
        }
        error = outcome.error;
        this.#fail(outcome.error, now);
        break;
    }
    const published = await this.#renderAndPublish();
    return { outcome: outcome.kind, error, published };
  }

  async #accept(rec: Recommendation, now: Date): Promise<void> {
    const stored: StoredRecommendation = { ...rec, fetched_at: now.toISOString() };
    this.#rec = stored;
    this.#status = { kind: 'ok' };
    this.#failingSince = null;
    this.#lastSuccessAt = stored.fetched_at;
    await this.#deps.store.save(this.display.id, stored);
    this.#deps.logger.info(
      { display: this.display.id, temp: rec.weather.temp, description: rec.weather.description },
      'new recommendation',
    );
  }

  #fail(err: ApiError, now: Date): void {
    this.#lastError = { code: err.code, message: err.message, at: now.toISOString() };
    if (err instanceof KeyRejectedError) {
      this.#status = { kind: 'key_rejected', message: err.serviceMessage ?? err.message };
    } else {
      this.#failingSince ??= now;
      this.#status = { kind: 'unreachable', since: this.#failingSince, message: err.serviceMessage ?? err.message };
    }
    this.#deps.logger.error({ display: this.display.id, ...errorFields(err) }, 'cycle failed; last good frame kept');
  }

  /** Renders the current state and hands it to every publisher; one failing publisher does not stop the others. */
  async #renderAndPublish(): Promise<boolean> {
    const { display, panel, timezone, logger } = this.#deps;
    const frame = await renderFrame(
      {
        rec: this.#rec,
        displayName: display.name ?? display.id,
        timezone,
        status: this.#status,
        now: new Date(this.#deps.now()),
      },
      panel,
      { rotation: display.rotation, dither: display.dither },
    );
    this.#frame = frame;
    const update = {
      display,
      rec: this.#rec,
      frame,
      status: this.#status,
      nextUpdateAt: this.#deps.nextUpdateAt(),
    };
    const results = await Promise.allSettled(this.#deps.publishers.map((p) => p.publish(update)));
    let ok = true;
    results.forEach((r, i) => {
      if (r.status === 'rejected') {
        ok = false;
        const name = this.#deps.publishers[i]?.name ?? 'publisher';
        const err = r.reason as Error;
        this.#lastError = {
          code: (err as NodeJS.ErrnoException).code ?? 'E_PUBLISH',
          message: `${name}: ${err.message}`,
          at: new Date(this.#deps.now()).toISOString(),
        };
        logger.error({ display: display.id, publisher: name, ...errorFields(err) }, 'publish failed');
      }
    });
    return ok;
  }
}
