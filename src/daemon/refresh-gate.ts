import type { WarningCode } from '../shared/codes.js';
import type { Clock } from '../time/clock.js';

/**
 * Whether a refresh press (Home Assistant's button, the status page, any MQTT client) may start a cycle. A press
 * costs credits from the refresh reserve and a render; anyone on the network can press, so presses are limited
 * here, before the governor is asked:
 * - with no reserve (`budget.refresh_reserve_credits: 0`) every press is refused at once;
 * - a press within `minSpacingMs` of the last accepted one for the same display is refused ("too soon").
 * Presses while a cycle of the display runs share that cycle (the daemon coalesces them before asking here).
 * A refused press changes nothing on the wall: the daemon logs it (at most once a minute per display) and shows it
 * briefly in the diagnostics.
 */

/** The warning a refused press is logged with. */
export const W_REFRESH_REFUSED = 'W_REFRESH_REFUSED' satisfies WarningCode;

export type RefreshRefusal =
  /** budget.refresh_reserve_credits is 0. */
  | { kind: 'no-reserve' }
  /** Another press of this display was accepted less than the spacing ago. */
  | { kind: 'too-soon'; retryInMs: number }
  /** The governor said no: the reserve of today is spent, the budget is used up, or the rate limit is full. */
  | { kind: 'budget'; detail: string };

export type RefreshVerdict = { ok: true } | { ok: false; refusal: RefreshRefusal };

export interface RefreshGateOptions {
  /** budget.refresh_reserve_credits: 0 turns refreshing off. */
  reserveCredits: number;
  /** Wall time of each press (a press is spaced from the last accepted one by it). */
  clock: Clock;
  /** Least time between two accepted presses of one display (default 30 s). */
  minSpacingMs?: number;
}

const REFRESH_MIN_SPACING_MS = 30_000;

/** Words for a refusal, as the log, the diagnostics and Home Assistant show them. */
export function refusalText(r: RefreshRefusal): string {
  switch (r.kind) {
    case 'no-reserve':
      return 'refresh is off: budget.refresh_reserve_credits is 0';
    case 'too-soon':
      return `refresh refused: too soon after the last one (again in ${Math.ceil(r.retryInMs / 1000)} s)`;
    case 'budget':
      return `refresh refused: ${r.detail}`;
  }
}

export class RefreshGate {
  readonly #reserve: number;
  readonly #clock: Clock;
  readonly #spacing: number;
  readonly #lastAccepted = new Map<string, number>();

  constructor(opts: RefreshGateOptions) {
    this.#reserve = opts.reserveCredits;
    this.#clock = opts.clock;
    this.#spacing = opts.minSpacingMs ?? REFRESH_MIN_SPACING_MS;
  }

  /** Why refreshing is off for good (no reserve), or null when presses can be accepted. */
  get unavailableReason(): string | null {
    return this.#reserve > 0 ? null : refusalText({ kind: 'no-reserve' });
  }

  /** Asks for a press of `displayId`; an accepted press is counted at once. */
  press(displayId: string): RefreshVerdict {
    if (this.#reserve <= 0) return { ok: false, refusal: { kind: 'no-reserve' } };
    const now = this.#clock.now();
    const last = this.#lastAccepted.get(displayId);
    // A clock stepped back makes `now - last` negative: that is not "too soon" for ever.
    if (last !== undefined && now >= last && now - last < this.#spacing) {
      return { ok: false, refusal: { kind: 'too-soon', retryInMs: last + this.#spacing - now } };
    }
    this.#lastAccepted.set(displayId, now);
    return { ok: true };
  }
}
