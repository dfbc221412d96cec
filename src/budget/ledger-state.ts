import { dateKey, localParts, monthKeyOf } from '../time/zoned-time.js';

/** What the ledger holds in memory (ledger-file.ts maps it to and from its file), and the pure steps on it. */

export interface LedgerState {
  day: string;
  daySpent: number;
  dayRefreshSpent: number;
  month: string;
  monthSpent: number;
  /** The latest trusted clock reading (ms) the ledger has seen. */
  highWater: number;
  /** Credits spent while the clock was not trusted, not yet placed in a period the trusted clock showed. */
  untrustedCarry: number;
  /** Of the day's and month's spending: credits of requests whose 2xx arrived. */
  dayCharged: number;
  monthCharged: number;
  /** Of the day's and month's spending: credits of requests sent without a usable answer (or still in flight). */
  dayUnknown: number;
  monthUnknown: number;
  /** Paid requests the service refused today and this month (their credits were given back). */
  dayRefused: number;
  monthRefused: number;
  /** The service said the account has no credits (402): since when, and when it last said so. */
  creditsOut: CreditsOut | null;
  /** Wall-clock time before which the service asked for no request (Retry-After). */
  rateBlockedUntil: number | null;
  /** Wall-clock send times of the requests of the last minute, so a restart keeps the rate window. */
  recentSends: number[];
  /**
   * Display id → when its last recommendation was bought (its 2xx arrived): a start whose last good file cannot be
   * read back knows the slot is paid, and does not buy it again.
   */
  lastBought: Record<string, number>;
  /**
   * Display id → when its last paid request got a 2xx, whether or not the answer could be used: a slot whose answer
   * was paid for and unusable is not bought again, after a restart either.
   */
  lastPaid: Record<string, number>;
  /** The failure backoff (cycle-backoff.ts): cycles failed in a row, and the wall time before which no purchase goes. */
  backoff: { failures: number; until: number };
  /** Send times of paid requests sent and not yet ended: one left at a start was cut off by a crash or a kill. */
  inFlight: number[];
}

export interface CreditsOut {
  since: number;
  lastRefusalAt: number;
}

export interface Limits {
  perDay: number | null;
  perMonth: number | null;
}

export function emptyState(now: number, tz: string): LedgerState {
  const p = localParts(now, tz);
  return {
    day: dateKey(p),
    daySpent: 0,
    dayRefreshSpent: 0,
    month: monthKeyOf(p),
    monthSpent: 0,
    highWater: 0,
    untrustedCarry: 0,
    dayCharged: 0,
    monthCharged: 0,
    dayUnknown: 0,
    monthUnknown: 0,
    dayRefused: 0,
    monthRefused: 0,
    creditsOut: null,
    rateBlockedUntil: null,
    recentSends: [],
    lastBought: {},
    lastPaid: {},
    backoff: { failures: 0, until: 0 },
    inFlight: [],
  };
}

/** What an unreadable ledger is replaced with: the most that could have been spent. */
export function conservativeState(now: number, tz: string, limits: Limits): LedgerState {
  const s = emptyState(now, tz);
  const dayOfMonth = localParts(now, tz).day;
  s.daySpent = limits.perDay ?? 0;
  s.dayRefreshSpent = s.daySpent;
  s.monthSpent =
    limits.perMonth === null
      ? 0
      : limits.perDay === null
        ? limits.perMonth
        : Math.min(limits.perMonth, limits.perDay * dayOfMonth);
  s.dayUnknown = s.daySpent;
  s.monthUnknown = s.monthSpent;
  s.highWater = now;
  return s;
}

/** The later periods of the two, and for a period both hold, the larger spending. */
export function mergeStates(a: LedgerState, b: LedgerState): LedgerState {
  const pick = <K extends keyof LedgerState>(key: K, aKey: string, bKey: string): LedgerState[K] =>
    aKey > bKey ? a[key] : bKey > aKey ? b[key] : (Math.max(a[key] as number, b[key] as number) as LedgerState[K]);
  return {
    day: a.day > b.day ? a.day : b.day,
    daySpent: pick('daySpent', a.day, b.day),
    dayRefreshSpent: pick('dayRefreshSpent', a.day, b.day),
    month: a.month > b.month ? a.month : b.month,
    monthSpent: pick('monthSpent', a.month, b.month),
    highWater: Math.max(a.highWater, b.highWater),
    untrustedCarry: Math.max(a.untrustedCarry, b.untrustedCarry),
    dayCharged: pick('dayCharged', a.day, b.day),
    monthCharged: pick('monthCharged', a.month, b.month),
    dayUnknown: pick('dayUnknown', a.day, b.day),
    monthUnknown: pick('monthUnknown', a.month, b.month),
    dayRefused: pick('dayRefused', a.day, b.day),
    monthRefused: pick('monthRefused', a.month, b.month),
    creditsOut: a.creditsOut ?? b.creditsOut,
    rateBlockedUntil: Math.max(a.rateBlockedUntil ?? 0, b.rateBlockedUntil ?? 0) || null,
    recentSends: [...new Set([...a.recentSends, ...b.recentSends])].sort((x, y) => x - y),
    lastBought: latestOfEach(a.lastBought, b.lastBought),
    lastPaid: latestOfEach(a.lastPaid, b.lastPaid),
    // The longer wait of the two: a temp file left by a power cut may be newer or older than the main one.
    backoff: a.backoff.until >= b.backoff.until ? a.backoff : b.backoff,
    inFlight: [...new Set([...a.inFlight, ...b.inFlight])].sort((x, y) => x - y),
  };
}

function latestOfEach(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out = { ...a };
  for (const [id, t] of Object.entries(b)) out[id] = Math.max(out[id] ?? t, t);
  return out;
}
