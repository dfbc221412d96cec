import { z } from '../shared/zod.js';
import { describeIssues } from '../shared/describe-issue.js';
import { readSmallJson } from '../store/small-json-file.js';
import type { LedgerState } from './ledger-state.js';

/**
 * The ledger's file format: small JSON, written whole, validated whole when read. Version 2 adds the split of the
 * spending (charged, unknown, refused), the account's credit state and the last minute's sends; a version-1 file
 * still reads (its spending counts as unknown, its 402 period as "out of credits" since its last write).
 */

const count = z.number().finite().nonnegative();
const common = {
  timezone: z.string(),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  day_spent: count,
  day_refresh_spent: count,
  month: z.string().regex(/^\d{4}-\d{2}$/),
  month_spent: count,
  high_water: count,
  untrusted_carry: count,
  rate_blocked_until: z.number().nullable(),
  updated_at: z.string(),
};
const V1Schema = z.object({ version: z.literal(1), ...common, exhausted_period: z.string().nullable() });
const V2Schema = z.object({
  version: z.literal(2),
  ...common,
  day_charged: count,
  month_charged: count,
  day_unknown: count,
  month_unknown: count,
  day_refused: count,
  month_refused: count,
  credits_out: z.object({ since: count, last_refusal_at: count }).nullable(),
  recent_sends: z.array(count).max(10_000),
  /** Added in place (a file without it still reads, and an older daemon drops it): display id → last purchase (ms). */
  last_bought: z.record(z.string(), count).optional(),
  /** Added in place, like last_bought: display id → last 2xx, usable or not (ms). */
  last_paid: z.record(z.string(), count).optional(),
  /** Added in place: the failure backoff (cycles failed in a row, the wall time it ends). */
  backoff: z.object({ failures: count, until: count }).optional(),
  /** Added in place: send times of paid requests not yet ended. */
  in_flight: z.array(count).max(1_000).optional(),
});
const LedgerFileSchema = z.discriminatedUnion('version', [V1Schema, V2Schema]);
export type LedgerFile = z.infer<typeof V2Schema>;

export function toFile(s: LedgerState, timezone: string): LedgerFile {
  return {
    version: 2,
    timezone,
    day: s.day,
    day_spent: s.daySpent,
    day_refresh_spent: s.dayRefreshSpent,
    month: s.month,
    month_spent: s.monthSpent,
    high_water: s.highWater,
    untrusted_carry: s.untrustedCarry,
    day_charged: s.dayCharged,
    month_charged: s.monthCharged,
    day_unknown: s.dayUnknown,
    month_unknown: s.monthUnknown,
    day_refused: s.dayRefused,
    month_refused: s.monthRefused,
    credits_out:
      s.creditsOut === null ? null : { since: s.creditsOut.since, last_refusal_at: s.creditsOut.lastRefusalAt },
    rate_blocked_until: s.rateBlockedUntil,
    recent_sends: s.recentSends,
    last_bought: s.lastBought,
    last_paid: s.lastPaid,
    backoff: s.backoff,
    in_flight: s.inFlight,
    updated_at: new Date(s.highWater).toISOString(),
  };
}

const MAX_LEDGER_BYTES = 64 * 1024;

export type ReadResult =
  { kind: 'ok'; state: LedgerState; timezone: string } | { kind: 'missing' } | { kind: 'bad'; reason: string };

export async function readLedger(file: string): Promise<ReadResult> {
  // A ledger is a few hundred bytes; a larger file was not written by us, and is not read whole.
  const read = await readSmallJson(
    file,
    MAX_LEDGER_BYTES,
    (size) => `${file} is ${size} bytes, more than a ledger can be (${MAX_LEDGER_BYTES})`,
  );
  if (read.kind !== 'ok') return read;
  const parsed = LedgerFileSchema.safeParse(read.json);
  if (!parsed.success) {
    return { kind: 'bad', reason: `${file} is not a ledger (${describeIssues(parsed.error)[0] ?? 'invalid'})` };
  }
  const f = parsed.data;
  const base = {
    day: f.day,
    daySpent: f.day_spent,
    dayRefreshSpent: f.day_refresh_spent,
    month: f.month,
    monthSpent: f.month_spent,
    highWater: f.high_water,
    untrustedCarry: f.untrusted_carry,
    rateBlockedUntil: f.rate_blocked_until,
  };
  if (f.version === 1) {
    const out = f.exhausted_period === null ? null : { since: f.high_water, lastRefusalAt: f.high_water };
    return {
      kind: 'ok',
      timezone: f.timezone,
      state: {
        ...base,
        dayCharged: 0,
        monthCharged: 0,
        dayUnknown: f.day_spent,
        monthUnknown: f.month_spent,
        dayRefused: 0,
        monthRefused: 0,
        creditsOut: out,
        recentSends: [],
        lastBought: {},
        lastPaid: {},
        backoff: { failures: 0, until: 0 },
        inFlight: [],
      },
    };
  }
  return {
    kind: 'ok',
    timezone: f.timezone,
    state: {
      ...base,
      dayCharged: f.day_charged,
      monthCharged: f.month_charged,
      dayUnknown: f.day_unknown,
      monthUnknown: f.month_unknown,
      dayRefused: f.day_refused,
      monthRefused: f.month_refused,
      creditsOut:
        f.credits_out === null ? null : { since: f.credits_out.since, lastRefusalAt: f.credits_out.last_refusal_at },
      recentSends: f.recent_sends,
      lastBought: f.last_bought ?? {},
      lastPaid: f.last_paid ?? {},
      backoff: f.backoff ?? { failures: 0, until: 0 },
      inFlight: f.in_flight ?? [],
    },
  };
}
