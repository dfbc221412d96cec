import { z } from '../shared/zod.js';
import type { ZoneTable } from '../time/zone-table.js';

const DAY_MS = 86_400_000;

/**
 * A zone's table (time/zone-table.ts) as another process wrote it (the daemon's `zone-table` child) or an earlier
 * one kept it on disk (render/intl-disk-cache.ts), checked before this process reads its times from it: a table
 * that is wrong would move every day.
 */
export const ZoneTableSchema = z
  .strictObject({
    zone: z.string(),
    from: z.number().int(),
    to: z.number().int(),
    offset: z.number().int().min(-DAY_MS).max(DAY_MS),
    changes: z.array(z.tuple([z.number().int(), z.number().int().min(-DAY_MS).max(DAY_MS)])),
  })
  .refine((t) => t.changes.every(([at], i) => at > t.from && at < t.to && (i === 0 || at > t.changes[i - 1]![0])), {
    message: 'its changes must be in time order, within its span',
    path: ['changes'],
  }) satisfies z.ZodType<ZoneTable>;
