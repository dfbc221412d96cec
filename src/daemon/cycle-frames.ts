import type { StoredRecommendation } from '../api/schemas.js';
import { OutputProblemTracker } from '../files/output-error.js';
import { PersonTurn } from '../household/person-turn.js';
import { drawInProcess } from '../render/display-frame.js';
import type { Frame, FramePerson } from '../render/frame.js';
import type { GlyphWarnings } from '../render/glyph-warnings.js';
import { staleness, type DisplayState } from '../state/display-state.js';
import type { ShownView } from '../state/display-views.js';
import type { RenderProblem } from '../state/render-problem.js';
import { shownStoreProblem, type StoreProblem } from '../store/store-error.js';
import type { CycleFacts } from './cycle-facts.js';
import type { DisplayCycleDeps } from './cycle-deps.js';
import { renderProblemOf } from './cycle-problems.js';

/**
 * A display's frames: drawn from what its cycle knows (CycleFacts), published to every publisher in turn, and
 * recorded with the state behind them in the daemon's display book. The cycle (cycle.ts) decides when; this draws,
 * publishes and records.
 */

export interface CycleFramesOptions {
  /** The cycle's parts this half uses: how frames are drawn, whom they go to, where the state is recorded. */
  deps: DisplayCycleDeps;
  /** What the cycle knows: read for every frame; a failed draw or publish writes its lastError. */
  facts: CycleFacts;
  /** Logs characters drawn as boxes (the daemon shares one). */
  glyphWarnings: GlyphWarnings;
}

export class CycleFrames {
  readonly #deps: DisplayCycleDeps;
  readonly #f: CycleFacts;
  readonly #glyphWarnings: GlyphWarnings;
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
  /** The state problem the publishers last saw. */
  #publishedProblem: StoreProblem | null = null;
  /** The frame files that could not be written (E_OUTPUT_WRITE), from the publish rounds. */
  readonly #output = new OutputProblemTracker();
  /** The publish round under way, and those waiting for it (#inTurn). */
  #rounds: Promise<unknown> = Promise.resolve();
  /** Frames asked for (renderAndPublish), and the round of the newest. */
  #rendersAsked = 0;
  #newestRender: Promise<boolean> = Promise.resolve(false);

  constructor(opts: CycleFramesOptions) {
    this.#deps = opts.deps;
    this.#f = opts.facts;
    this.#glyphWarnings = opts.glyphWarnings;
  }

  /** Whether a frame was drawn in this process. */
  get hasFrame(): boolean {
    return this.#frame !== null;
  }

  /** A frame file could not be written or a frame drawn: each tick tries again. */
  get pending(): boolean {
    return this.#output.problem !== null || this.#renderProblem !== null;
  }

  /** The last draw failed: the frame on show is older than the cycle's state. */
  get renderFailed(): boolean {
    return this.#renderProblem !== null;
  }

  /** The state problem the publishers last saw. */
  get publishedProblem(): StoreProblem | null {
    return this.#publishedProblem;
  }

  /** This display's own state problem, or the one every display shares (store-error.ts, shownStoreProblem). */
  storeProblem(): StoreProblem | null {
    // A household display's person whose answer cannot be saved is the display's problem as its own file would be.
    const own = this.#f.storeProblem ?? this.#deps.household?.storeProblem ?? null;
    return shownStoreProblem(own, this.#deps.sharedStoreProblem?.() ?? null);
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
  republish(): Promise<boolean> {
    return this.#inTurn(() => (this.#frame === null ? Promise.resolve(false) : this.#publish(this.#frame)));
  }

  /** What the frame and the state show: a household's first person at home and everyone, or the display's answer. */
  #shown(now: number): { rec: StoredRecommendation | null; people?: FramePerson[]; onePerson?: string } {
    const h = this.#deps.household;
    if (h === undefined) return { rec: this.#f.rec };
    const staleFrom = this.#deps.staleFrom;
    const people = h.people(now, (at) => staleFrom?.(at) ?? null);
    // A small panel shows one person a frame: the next one with each new answer of any of them.
    const onePerson = this.#turn.shows(people, people.map((p) => p.rec?.fetched_at ?? '').join(' '));
    return { rec: h.leadRec() ?? this.#f.rec, people, ...(onePerson !== undefined && { onePerson }) };
  }

  /**
   * Renders the current state and publishes it, in turn. A frame that was still being drawn when a newer one was
   * asked for is dropped: the state it was drawn from has changed (the start's first frame, drawn while a tick's
   * purchase failed, would show "waiting" beside the failure), and the newer round draws the state as it is then.
   * Its caller gets the newer round's outcome.
   */
  renderAndPublish(): Promise<boolean> {
    const asked = ++this.#rendersAsked;
    const round = this.#inTurn(() => this.#drawAndPublish(asked)).then((r) =>
      r === 'superseded' ? this.#newestRender : r,
    );
    this.#newestRender = round;
    return round;
  }

  async #drawAndPublish(asked: number): Promise<boolean | 'superseded'> {
    const { display } = this.#deps;
    const f = this.#f;
    // The answer on show went stale by the clock (a slot passed without a new one): the frame and every publisher
    // say so. A new answer (or a confirming poll) sets the status back to ok; an error status says more and stays.
    const parsed = f.lastSuccessAt === null ? NaN : Date.parse(f.lastSuccessAt);
    const served = Number.isFinite(parsed) ? parsed : null;
    const { staleFrom } = this.#deps;
    const now = this.#deps.clock.now();
    const { stale, since } = staleness({
      servedAt: served,
      ageUnknown: f.rec !== null && !f.ageKnown,
      staleFrom: (at) => staleFrom?.(at) ?? null,
      now,
    });
    if (f.status.kind === 'ok' && stale && served !== null) f.status = { kind: 'stale', since: new Date(served) };
    const shown = this.#shown(now);
    const onShow = { ...shown, status: f.status, stale, staleSince: since };
    let frame: Frame;
    try {
      frame = await (this.#deps.draw ?? drawInProcess)(this.#deps.render, {
        ...shown,
        status: f.status,
        // The age shows whatever else is wrong; an answer of no known age (dated ahead) is not current either.
        stale,
        now: new Date(now),
        storeProblem: this.storeProblem(),
        notReadBack: f.unreadSince,
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
    this.#f.lastError = { code: this.#renderProblem.code, message: this.#renderProblem.message, at: now.toISOString() };
    if (this.#frame === null) this.record();
    else await this.#publish(this.#frame);
  }

  /**
   * Records `frame` and the state behind it in the display book, then tells every publisher, handing each the display's
   * view; one failing publisher does not stop the others. When the frame files' problem appears or goes, the round
   * is repeated once, so that every publisher shows it.
   */
  async #publish(frame: Frame, again = true): Promise<boolean> {
    const { display, logger } = this.#deps;
    this.#publishedProblem = this.storeProblem();
    const view = this.#recordAndView(frame);
    const results = await Promise.allSettled(this.#deps.publishers.map((p) => p.publish(view)));
    let ok = true;
    results.forEach((r, i) => {
      if (r.status === 'rejected') {
        ok = false;
        const name = this.#deps.publishers[i]?.name ?? 'publisher';
        const err = r.reason as Error;
        this.#f.lastError = {
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
    if (!ok) this.record(frame);
    return ok;
  }

  /** Writes the cycle's own state to the display book (the shared state problem and the schedule are added by its readers). */
  record(frame: Frame | null = this.#frame): void {
    this.#deps.displayBook.record(this.#state(frame));
  }

  /** Records `frame` with the state behind it, and reads back the one view every publisher is handed. */
  #recordAndView(frame: Frame): ShownView {
    this.record(frame);
    const id = this.#deps.display.id;
    const view = this.#deps.views.view(id);
    // The display book has just recorded a frame for this display: anything else is views not over this cycle's book.
    if (view?.kind !== 'shown')
      throw new Error(
        `display "${id}": its view does not show the frame just recorded (the cycle's views must read its display book)`,
      );
    return view;
  }

  #state(frame: Frame | null): DisplayState {
    const f = this.#f;
    // With a frame, what it was drawn from; without one, the cycle's own state (no frame on the wall to be stale).
    const shown =
      frame !== null && this.#onShow !== null
        ? this.#onShow
        : { ...this.#shown(this.#deps.clock.now()), status: f.status, stale: false, staleSince: null };
    return {
      display: this.#deps.display,
      ...shown,
      frame,
      lastError: f.lastError,
      lastSuccessAt: f.lastSuccessAt,
      storeProblem: f.storeProblem,
      outputProblem: this.#output.problem,
      renderProblem: this.#renderProblem,
      refreshRefused: f.refreshRefused,
      nextUpdateAt: this.#deps.nextUpdateAt(),
    };
  }
}
