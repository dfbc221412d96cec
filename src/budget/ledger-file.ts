import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { LedgerState } from './ledger.js';

/** The ledger's file format (version 1): small JSON, written whole, validated whole when read. */

const count = z.number().finite().nonnegative();
const LedgerFileSchema = z.object({
  version: z.literal(1),
  timezone: z.string(),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  day_spent: count,
  day_refresh_spent: count,
  month: z.string().regex(/^\d{4}-\d{2}$/),
  month_spent: count,
  high_water: count,
  untrusted_carry: count,
  exhausted_period: z.string().nullable(),
  rate_blocked_until: z.number().nullable(),
  updated_at: z.string(),
});
export type LedgerFile = z.infer<typeof LedgerFileSchema>;

export function toFile(s: LedgerState, timezone: string): LedgerFile {
  return {
    version: 1,
    timezone,
    day: s.day,
    day_spent: s.daySpent,
    day_refresh_spent: s.dayRefreshSpent,
    month: s.month,
    month_spent: s.monthSpent,
    high_water: s.highWater,
    untrusted_carry: s.untrustedCarry,
    exhausted_period: s.exhaustedPeriod,
    rate_blocked_until: s.rateBlockedUntil,
    updated_at: new Date(s.highWater).toISOString(),
  };
}

export type ReadResult =
  | { kind: 'ok'; state: LedgerState; timezone: string }
  | { kind: 'missing' }
  | { kind: 'bad'; reason: string };

export async function readLedger(file: string): Promise<ReadResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { kind: 'missing' } : { kind: 'bad', reason: `cannot read ${file} (${code ?? String(err)})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'bad', reason: `${file} is not JSON (truncated or corrupt, ${text.length} bytes)` };
  }
  const parsed = LedgerFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { kind: 'bad', reason: `${file} is not a ledger (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'})` };
  }
  const f = parsed.data;
  return {
    kind: 'ok',
    timezone: f.timezone,
    state: {
      day: f.day,
      daySpent: f.day_spent,
      dayRefreshSpent: f.day_refresh_spent,
      month: f.month,
      monthSpent: f.month_spent,
      highWater: f.high_water,
      untrustedCarry: f.untrusted_carry,
      exhaustedPeriod: f.exhausted_period,
      rateBlockedUntil: f.rate_blocked_until,
    },
  };
}
