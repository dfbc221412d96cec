import type { Config } from '../config/schema.js';
import { parseDeparture, nextDeparture, lastDepartureAtOrBefore, type Departure } from '../time/departures.js';
import { parseQuietHours, quietEnd, type QuietHours } from '../time/quiet-hours.js';
import type { PresenceBook, PresenceChange } from './presence-book.js';

/** Why a display buys nothing now: its quiet hours, or everyone it dresses is away. */
export type HoldReason = 'quiet_hours' | 'away';

/** A hold on a display's purchases: why, and until when (the quiet hours' end; null for away: the arrival ends it). */
export interface Hold {
  reason: HoldReason;
  until: number | null;
}

/**
 * How long before a departure the purchase is made: time for the cycle (a slow answer, a retry after a 429) and for a
 * device that pulls every few minutes to show it, yet recent enough that the outfit is the one for the time of
 * leaving. The service answers for "now", so closer is better; 15 minutes leaves room for one failed try.
 */
export const DEPARTURE_LEAD_MS = 15 * 60_000;

/**
 * How long a device that pulls sleeps while everyone its display dresses is away (and no quiet hours end sooner):
 * nothing is bought meanwhile, and on arrival a frame is bought at once; an hour bounds how long an arrival waits for
 * the device to look, while sparing most of a working day's wakes.
 */
export const AWAY_SLEEP_MS = 60 * 60_000;

/** An arrival this close before the display's next slot leaves the purchase to that slot (no two within moments). */
export const ARRIVAL_SLACK_MS = 2 * 60_000;

/** What an arrival's purchase is weighed against, by display id. */
export interface ArrivalContext {
  /** The schedule's period (its shortest gap), ms. */
  periodMs: (displayId: string) => number;
  /**
   * When the answer on show for the person arriving was bought (ms), or null: on a household display their own
   * answer, so that the one who was away gets theirs, whoever else was bought for meanwhile.
   */
  lastAnswerAt: (displayId: string, personId: string) => number | null;
  /** The display's next scheduled purchase (ms), or null; default: none known. */
  nextRunAt?: (displayId: string) => number | null;
}

/** The times of a display's purchases before its people's departures (the scheduler's extra times). */
export interface DepartureTimes {
  nextAfter(t: number): number | null;
  lastAtOrBefore(t: number, notBefore: number): number | null;
}

export interface HouseholdGateOptions {
  /** The displays (their `people`, `quiet_hours`, `schedule`), the people, the top-level `quiet_hours`, `timezone`. */
  config: Pick<Config, 'displays' | 'people' | 'quiet_hours' | 'timezone'>;
  /** Who is at home. */
  presence: PresenceBook;
}

/**
 * Buying when someone will see it (docs/guides/household.md): a display's purchases are held during its quiet hours
 * (its own, else the top-level ones) and while everyone it dresses is away (a display without `people` has no
 * presence: only quiet hours hold it); the first arrival after an absence longer than the schedule's period buys at
 * once; an `auto` display also buys shortly before each departure of its people.
 */
export class HouseholdGate {
  readonly #tz: string;
  readonly #presence: PresenceBook;
  readonly #quiet = new Map<string, QuietHours>();
  readonly #people = new Map<string, readonly string[]>();
  /** A display's people's departures, each with whose it is (only those at home buy before theirs). */
  readonly #departures = new Map<string, Array<{ personId: string; departures: Departure[] }>>();

  constructor(opts: HouseholdGateOptions) {
    const { config } = opts;
    this.#tz = config.timezone;
    this.#presence = opts.presence;
    const top = config.quiet_hours === undefined ? null : parseQuietHours(config.quiet_hours);
    const leaves = new Map(config.people.map((p) => [p.id, p.leaves.map(parseDeparture)]));
    for (const d of config.displays) {
      const q = d.quiet_hours === undefined ? top : parseQuietHours(d.quiet_hours);
      if (q !== null) this.#quiet.set(d.id, q);
      const people = d.people ?? [];
      this.#people.set(d.id, people);
      if (d.schedule === 'auto')
        this.#departures.set(
          d.id,
          people.map((id) => ({ personId: id, departures: leaves.get(id) ?? [] })),
        );
    }
  }

  /** The people a display dresses ([] for one without `people`). */
  peopleOf(displayId: string): readonly string[] {
    return this.#people.get(displayId) ?? [];
  }

  /** The displays that dress `personId`. */
  displaysOf(personId: string): string[] {
    return [...this.#people].filter(([, ids]) => ids.includes(personId)).map(([id]) => id);
  }

  /** The end of the display's quiet hours holding `t`, or null when `t` is not in them (or it has none). */
  quietEnd(displayId: string, t: number): number | null {
    const q = this.#quiet.get(displayId);
    return q === undefined ? null : quietEnd(q, t, this.#tz);
  }

  /** Whether the display has people and every one of them is away (unknown counts as at home). */
  allAway(displayId: string): boolean {
    const people = this.peopleOf(displayId);
    return people.length > 0 && people.every((id) => !this.#presence.isHome(id));
  }

  /** Why the display buys nothing at `t` (quiet hours first: they say when they end), or null. */
  hold(displayId: string, t: number): Hold | null {
    const until = this.quietEnd(displayId, t);
    if (until !== null) return { reason: 'quiet_hours', until };
    return this.allAway(displayId) ? { reason: 'away', until: null } : null;
  }

  /**
   * Until when the devices that pull a display's frames sleep, given its next update: during quiet hours, until their
   * end (or that update, when later); while everyone is away, at least AWAY_SLEEP_MS. Null when there is no update.
   */
  sleepUntil(displayId: string, next: Date | null, now: number): Date | null {
    const quiet = this.quietEnd(displayId, now);
    let at = next?.getTime() ?? null;
    if (quiet !== null) at = Math.max(at ?? quiet, quiet);
    if (this.allAway(displayId)) at = Math.max(at ?? 0, now + AWAY_SLEEP_MS);
    return at === null ? null : new Date(at);
  }

  /**
   * The display's purchase times before its people's departures (DEPARTURE_LEAD_MS ahead), for an `auto` display
   * whose people leave at set times; null otherwise.
   */
  departureTimes(displayId: string): DepartureTimes | null {
    const all = this.#departures.get(displayId) ?? [];
    if (all.every((p) => p.departures.length === 0)) return null;
    const tz = this.#tz;
    // Only the departures of people at home (or not known to be away): nobody leaves who is not there.
    const home = (): Departure[] => all.flatMap((p) => (this.#presence.isHome(p.personId) ? p.departures : []));
    return {
      nextAfter: (t) => {
        const d = nextDeparture(home(), t + DEPARTURE_LEAD_MS, tz);
        return d === null ? null : d - DEPARTURE_LEAD_MS;
      },
      lastAtOrBefore: (t, notBefore) => {
        const d = lastDepartureAtOrBefore(home(), t + DEPARTURE_LEAD_MS, notBefore + DEPARTURE_LEAD_MS, tz);
        return d === null ? null : d - DEPARTURE_LEAD_MS;
      },
    };
  }

  /**
   * The displays an arrival should buy for at once: a change to home after an absence longer than the display's
   * schedule period, outside its quiet hours, whose answer on show is older than that period (one bought a moment ago
   * by a tick serves the arrival too), and whose next slot is not due within ARRIVAL_SLACK_MS (that slot buys).
   */
  arrivalPurchases(change: PresenceChange, now: number, ctx: ArrivalContext): string[] {
    if (change.to !== 'home' || change.awayMs === null) return [];
    const away = change.awayMs;
    return this.displaysOf(change.personId).filter((id) => {
      const period = ctx.periodMs(id);
      const answer = ctx.lastAnswerAt(id, change.personId);
      const next = ctx.nextRunAt?.(id) ?? null;
      return (
        away > period &&
        this.quietEnd(id, now) === null &&
        (answer === null || now - answer > period) &&
        (next === null || next - now > ARRIVAL_SLACK_MS)
      );
    });
  }
}
