import path from 'node:path';
import type { Logger } from 'pino';
import { AbortedError } from '../api/errors.js';
import type { StoredRecommendation } from '../api/schemas.js';
import type { FetchOutcome, FetchReason } from '../budget/governor-types.js';
import type { PooledOutcome, PurchasePool } from '../budget/purchase-pool.js';
import type { DisplayConfig, PersonConfig } from '../config/schema.js';
import { additionsForAnswer } from '../domain/warmth.js';
import type { FramePerson } from '../render/frame.js';
import { LastGoodStore } from '../store/last-good.js';
import { StoreError, storeReadProblem, type StoreProblem } from '../store/store-error.js';
import type { Clock } from '../time/clock.js';
import type { PresenceBook } from '../household/presence-book.js';

/**
 * A household display's purchases (docs/guides/household.md, "Who is bought for, and what it costs"): each of its
 * people at home gets their own answer, asked with their own `gender` (the place, unit and endpoint are the
 * display's), through the purchase pool (one purchase per distinct request, across displays) and the governor (budget,
 * rate limit, ledger). Each person's last good answer is kept in `state_dir` as a display's is: a bad answer never
 * replaces it, a bad file is ignored with a word in the log, and a restart shows everyone's outfit. Someone away keeps
 * their last answer, marked away; nothing is bought for them.
 */

export interface HouseholdCycleOptions {
  /** The display (its place, unit and endpoint are every person's request). */
  display: DisplayConfig;
  /** The display's people, in its `people` order (the frame's order). */
  people: readonly PersonConfig[];
  /** Where the people's last good answers are kept (`<state_dir>/people/<display id>/<person id>.json`). */
  store: LastGoodStore;
  /** Buys one answer within budget and rate limit (the governor's fetch, as cycle-deps.ts's FetchFn). */
  fetch: (
    request: DisplayConfig,
    reason: FetchReason,
    last: StoredRecommendation | null,
    signal?: AbortSignal,
  ) => Promise<FetchOutcome>;
  /** Shares purchases of identical requests, across displays (one pool per daemon). */
  pool: PurchasePool;
  /** Who is at home (household/presence-book.ts); default everyone is. */
  presence?: Pick<PresenceBook, 'isHome'>;
  /** A person's warmth offset (°C, negative: runs cold) at `now`; default 0 for everyone. */
  offsetOf?: (personId: string, now: number) => number;
  /** Dates purchases. */
  clock: Clock;
  logger: Logger;
}

/** A person's answer and when it last counted as current (bought, shared, or confirmed by a poll). */
interface Kept {
  rec: StoredRecommendation | null;
  /** ms; null before their first answer. */
  servedAt: number | null;
}

export class HouseholdCycle {
  readonly #o: HouseholdCycleOptions;
  readonly #kept = new Map<string, Kept>();
  /** A person's answer that could not be saved, until one is (shown as the display's state problem). */
  #storeProblem: StoreProblem | null = null;

  constructor(opts: HouseholdCycleOptions) {
    this.#o = opts;
    for (const p of opts.people) this.#kept.set(p.id, { rec: null, servedAt: null });
  }

  /** The request a person's answer is bought with: the display's, with the person's `gender`. */
  requestOf(person: PersonConfig): DisplayConfig {
    return { ...this.#o.display, gender: person.gender };
  }

  #isHome(id: string): boolean {
    return this.#o.presence?.isHome(id) ?? true;
  }

  /** Loads each person's last good answer; one that cannot be read is logged and ignored (never a crash). */
  async restore(): Promise<void> {
    const { store, logger, clock, display } = this.#o;
    for (const p of this.#o.people) {
      const { rec, problem } = await store.load(p.id);
      if (problem !== null) {
        const read = storeReadProblem(store.fileOf(p.id), problem, new Date(clock.now()));
        logger.error(
          { display: display.id, person: p.id, err: new StoreError(read.code, read.file, read.message) },
          "a person's last good answer cannot be read back: ignored",
        );
      }
      // An answer dated ahead of the clock (a clock that was wrong) is shown but counts as having no known age.
      const at = rec === null ? NaN : Date.parse(rec.fetched_at);
      const servedAt = Number.isFinite(at) && at <= clock.now() ? at : null;
      this.#kept.set(p.id, { rec, servedAt });
      // Dated by its purchase: shared again as it would have been without the restart. A kill after a purchase and
      // before every display saved its share leaves the answer in some files only; the others take it from the pool
      // instead of buying the request again.
      if (rec !== null && servedAt !== null) this.#o.pool.remember(this.requestOf(p), rec, servedAt);
    }
  }

  /**
   * Buys for everyone at home, one after the other (the pool lets later ones share an earlier one's purchase). The
   * display's outcome is its first person at home's: the display's own answer (`<id>.json`) is theirs. Nobody at home:
   * `away`, nothing bought.
   */
  async fetch(reason: FetchReason, signal?: AbortSignal): Promise<FetchOutcome> {
    const { display, logger } = this.#o;
    const home = this.#o.people.filter((p) => this.#isHome(p.id));
    if (home.length === 0) return { kind: 'away', reason: `nobody ${display.id} dresses is at home: nothing bought` };
    let lead: { got: PooledOutcome; rec: StoredRecommendation | null } | null = null;
    for (const person of home) {
      const kept = this.#kept.get(person.id) ?? { rec: null, servedAt: null };
      const request = this.requestOf(person);
      const last = kept.servedAt === null ? null : kept.rec;
      const got = await this.#o.pool.buy(request, reason, () => this.#o.fetch(request, reason, last, signal));
      const rec = await this.#took(person, got);
      lead ??= { got, rec };
      const o = got.outcome;
      if (o.kind === 'fresh')
        logger.info({ display: display.id, person: person.id, shared: got.shared }, 'new recommendation for a person');
      else if (o.kind !== 'unchanged')
        logger.info({ display: display.id, person: person.id, outcome: o.kind }, "a person's answer kept");
      // The daemon is stopping: nobody else is bought for.
      if (o.kind === 'failed' && o.error instanceof AbortedError) break;
    }
    if (lead === null) return { kind: 'away', reason: 'nobody at home' };
    const { got, rec } = lead;
    if (got.outcome.kind === 'fresh' && rec !== null)
      return { kind: 'fresh', rec: got.outcome.rec, fetchedAt: new Date(rec.fetched_at) };
    return got.outcome;
  }

  /** Keeps a person's new answer (saved; a save that fails is shown, the answer still is), or notes a confirming poll. */
  async #took(person: PersonConfig, got: PooledOutcome): Promise<StoredRecommendation | null> {
    const { clock, store, display, logger } = this.#o;
    const kept = this.#kept.get(person.id) ?? { rec: null, servedAt: null };
    const o = got.outcome;
    if (o.kind === 'unchanged') {
      this.#kept.set(person.id, { ...kept, servedAt: clock.now() });
      return kept.rec;
    }
    if (o.kind !== 'fresh') return kept.rec;
    const at = got.boughtAt ?? clock.now();
    const rec: StoredRecommendation = { ...o.rec, fetched_at: new Date(at).toISOString() };
    this.#kept.set(person.id, { rec, servedAt: at });
    try {
      await store.save(person.id, rec);
      this.#storeProblem = null;
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
      const since = this.#storeProblem?.code === err.code ? this.#storeProblem.since : new Date(at).toISOString();
      this.#storeProblem = { code: err.code, file: err.file, message: err.message, since };
      logger.error(
        { display: display.id, person: person.id, err },
        "a person's new answer is shown but cannot be saved",
      );
    }
    return rec;
  }

  /** A person's answer could not be saved, or null. */
  get storeProblem(): StoreProblem | null {
    return this.#storeProblem;
  }

  /** The display's own answer: its first person at home's; with nobody at home, its first person's who has one. */
  leadRec(): StoredRecommendation | null {
    const people = this.#o.people;
    const first = people.find((p) => this.#isHome(p.id) && this.#kept.get(p.id)?.rec != null);
    const any = first ?? people.find((p) => this.#kept.get(p.id)?.rec != null);
    return any === undefined ? null : (this.#kept.get(any.id)?.rec ?? null);
  }

  /**
   * Everyone on the frame at `now`: their answer, warmth offset and the garments it adds, whether they are away, and
   * whether their answer is stale by the schedule (`staleFrom`, as a display's is; an answer of no known age is).
   */
  people(now: number, staleFrom: (servedAt: number) => Date | null = () => null): FramePerson[] {
    return this.#o.people.map((p) => {
      const { rec, servedAt } = this.#kept.get(p.id) ?? { rec: null, servedAt: null };
      const offsetC = this.#o.offsetOf?.(p.id, now) ?? 0;
      const from = servedAt === null ? null : staleFrom(servedAt);
      const stale = rec !== null && (servedAt === null || (from !== null && now >= from.getTime()));
      // As `render` works them out from a household file: one rule for the daemon's frames and the preview.
      const additions = rec === null ? [] : additionsForAnswer(rec, offsetC);
      return { id: p.id, name: p.name, rec, offsetC, additions, away: !this.#isHome(p.id), stale };
    });
  }
}

/** What a household display's cycle is built from, beyond the display (householdCycleOf). */
export type HouseholdDeps = Omit<HouseholdCycleOptions, 'display' | 'people' | 'store'> & {
  /** The config's `people`. */
  people: readonly PersonConfig[];
  /** `state_dir`: the people's answers are kept under `people/<display id>/`. */
  stateDir: string;
};

/** The household side of a display with `people`, or undefined for a display of one outfit. */
export function householdCycleOf(display: DisplayConfig, deps: HouseholdDeps): HouseholdCycle | undefined {
  if (display.people === undefined) return undefined;
  // The config's cross-checks (schema.ts, householdIssues) make every id one of `people`.
  const people = display.people.flatMap((id) => deps.people.filter((p) => p.id === id));
  const { stateDir, ...rest } = deps;
  const store = new LastGoodStore(stateDir, { folder: path.join('people', display.id) });
  return new HouseholdCycle({ ...rest, display, people, store });
}
