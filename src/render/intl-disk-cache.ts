import { readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { privateCacheDir, replaceCacheFile } from '../shared/private-cache-dir.js';
import { z } from '../shared/zod.js';
import { ZoneTableSchema } from '../store/zone-table-schema.js';
import type { Clock } from '../time/clock.js';
import { offsetAt } from '../time/zoned-time.js';
import { askedZones, buildZoneTable, dropZoneTable, useZoneTable, zoneTableOf, type ZoneTable } from '../time/zone-table.js';
import { readBuildId } from './build-id.js';
import { askedLocales, intlWordsOf, recordIntlWords, useIntlWords, type IntlWords } from './layout/intl-words.js';

/**
 * What the processes that draw (`render`, `once`, the daemon's render process) would otherwise ask Intl, kept on
 * disk between them: the words of each locale they drew in (layout/intl-words.ts) and the offsets of each zone
 * (time/zone-table.ts), over the days around now. A process that finds them builds no Intl formatter at all, which
 * spares it V8's first one (20-30 ms of a cold `render` on the test machine; docs/performance.md). They are made by Intl, after the work, by the process that needed them; the frame is the same with
 * the file or without it.
 *
 * Intl's words and offsets come from the node binary's ICU and tz data, so a file is kept per Node version and data
 * (and per build, which made its layout): its name carries a checksum of that stamp, and the stamp inside must match.
 * A file is replaced whole (a temporary file renamed over it) and checked whole; anything else is ignored and
 * written afresh. Nothing here fails a command.
 */

export interface IntlDiskCacheOptions {
  /** Now: the span kept is the days around it. */
  clock: Clock;
}

const DAY_MS = 86_400_000;
/** Days kept either side of now: an answer's time and its stale badge are within days of now, but for a stray one. */
const SPAN_DAYS = 400;
/** How close to its end a span may come before it is made afresh around now. */
const MARGIN_DAYS = 30;
/** A file of another stamp (another Node, another build) not written for this long is removed. */
const OLD_MS = 30 * DAY_MS;

/** A list of strings (of `n` when given), checked in one pass: some 3,000 of them, read at every start. */
const strings = (n?: number) =>
  z.custom<string[]>((v) => Array.isArray(v) && (n === undefined || v.length === n) && v.every((s) => typeof s === 'string'), {
    message: n === undefined ? 'must be a list of strings' : `must be a list of ${n} strings`,
  });

const WordsSchema = z
  .strictObject({
    tag: z.string(),
    fromDay: z.number().int(),
    times: strings(1440),
    days: strings(),
    dayMonths: strings(),
    weekdays: strings(7),
    decimal: z.string().nullable(),
  })
  .refine((w) => w.days.length === w.dayMonths.length, { message: 'days and dayMonths must be as many', path: ['days'] }) satisfies z.ZodType<IntlWords>;

const FileSchema = z.strictObject({ stamp: z.string(), words: z.array(WordsSchema), zones: z.array(ZoneTableSchema) });
type CacheFile = z.infer<typeof FileSchema>;

/** What the words and offsets depend on: this build, this Node and its ICU, CLDR and tz data. */
function stampOf(buildId: string): string {
  const v = process.versions;
  return [buildId, process.version, process.arch, `icu ${v.icu}`, `cldr ${v.cldr}`, `tz ${v.tz}`].join('\n');
}

function read(file: string, stamp: string): CacheFile | null {
  try {
    const parsed = FileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success && parsed.data.stamp === stamp ? parsed.data : null;
  } catch {
    // No file yet, or one that cannot be read: Intl answers, and the file is written after.
    return null;
  }
}

const dayOf = (t: number): number => Math.floor(t / DAY_MS);
const wordsCover = (w: IntlWords, day: number): boolean => w.fromDay + MARGIN_DAYS <= day && day < w.fromDay + w.days.length - MARGIN_DAYS;
const tableCovers = (t: ZoneTable, now: number): boolean => t.from + MARGIN_DAYS * DAY_MS <= now && now < t.to - MARGIN_DAYS * DAY_MS;

/** The records this process asked for and lacks (or has for days too far from now), made by Intl. */
function freshRecords(now: number): { words: IntlWords[]; zones: ZoneTable[] } {
  const day = dayOf(now);
  const words: IntlWords[] = [];
  for (const tag of askedLocales()) {
    const had = intlWordsOf(tag);
    if (had && wordsCover(had, day)) continue;
    const made = recordIntlWords(tag, day - SPAN_DAYS, 2 * SPAN_DAYS + 1);
    if (made) words.push(made);
  }
  const zones: ZoneTable[] = [];
  for (const zone of askedZones()) {
    const had = zoneTableOf(zone);
    if (had && tableCovers(had, now)) continue;
    // From Intl, not from the table this process had.
    dropZoneTable(zone);
    try {
      zones.push(buildZoneTable(zone, (day - SPAN_DAYS) * DAY_MS, (day + SPAN_DAYS + 1) * DAY_MS, (t) => offsetAt(t, zone)));
    } catch {
      // A zone Intl does not know: the frame failed with it already.
    }
  }
  return { words, zones };
}

/** Files of other stamps that no process has written for a month (an older Node or build): removed. */
function removeOld(dir: string, keep: string, now: number): void {
  try {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (file !== keep && /^intl-[0-9a-f]{8}\.json$/.test(name) && now - statSync(file).mtimeMs > OLD_MS) unlinkSync(file);
    }
  } catch {
    // Left for the next one.
  }
}

/**
 * Runs a process's drawing with the words and zone offsets earlier processes of this build and Node kept, and keeps
 * what it had to ask Intl for, for the next; written even when `work` fails.
 */
export async function withIntlDiskCache<T>(opts: IntlDiskCacheOptions, work: () => Promise<T>): Promise<T> {
  const dir = privateCacheDir('intl');
  const buildId = dir === null ? null : readBuildId();
  if (dir === null || buildId === null) return work();
  const stamp = stampOf(buildId);
  const file = path.join(dir, `intl-${crc32(stamp).toString(16).padStart(8, '0')}.json`);
  const kept = read(file, stamp);
  for (const w of kept?.words ?? []) useIntlWords(w);
  for (const t of kept?.zones ?? []) useZoneTable(t);
  try {
    return await work();
  } finally {
    const now = opts.clock.now();
    const fresh = freshRecords(now);
    if (fresh.words.length > 0 || fresh.zones.length > 0) {
      const words = new Map((kept?.words ?? []).map((w) => [w.tag, w]));
      for (const w of fresh.words) words.set(w.tag, w);
      const zones = new Map((kept?.zones ?? []).map((t) => [t.zone, t]));
      for (const t of fresh.zones) zones.set(t.zone, t);
      replaceCacheFile(file, JSON.stringify({ stamp, words: [...words.values()], zones: [...zones.values()] } satisfies CacheFile));
      removeOld(dir, file, now);
    }
  }
}
