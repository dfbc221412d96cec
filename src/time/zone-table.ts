/**
 * A zone's UTC offsets over a span of years, as its list of changes: where the daemon reads its local times from
 * (zoned-time.ts), so that it never builds an `Intl.DateTimeFormat` itself. V8's first Intl formatter in a process
 * reads its table of available locales, which keeps about 8 MB resident for the life of the daemon (docs/commands.md,
 * docs/performance.md). The table is made by Intl all the same, in a short-lived child process of the same node
 * binary (daemon/zone-table-child.ts, the hidden `zone-table` command): the same ICU data, so the same offsets.
 */

export interface ZoneTable {
  zone: string;
  /** The span held, [from, to), ms since the epoch (whole seconds). */
  from: number;
  to: number;
  /** Local minus UTC at `from`, ms (+3 600 000 for CET). */
  offset: number;
  /** Each change after `from`: its first instant and the offset from then on, in time order. */
  changes: Array<[at: number, offset: number]>;
}

/**
 * How far apart the samples are that look for a change. A change and its return within one step would be missed;
 * the shortest in the tz data are weeks apart (Gaza and Hebron leave summer time for a week around some Ramadans),
 * and test/time/zone-table.test.ts checks every zone against Intl at every change and between.
 */
const STEP_MS = 86_400_000;

/** The table of `zone` over [from, to) from `offsetAt` (Intl's, in the child): each change found to the second. */
export function buildZoneTable(zone: string, from: number, to: number, offsetAt: (t: number) => number): ZoneTable {
  const start = Math.floor(from / 1000) * 1000;
  const end = Math.floor(to / 1000) * 1000;
  const first = offsetAt(start);
  const changes: Array<[number, number]> = [];
  let t = start;
  let current = first;
  while (t < end) {
    const next = Math.min(t + STEP_MS, end);
    let hiOffset = offsetAt(next);
    if (hiOffset === current) {
      t = next;
      continue;
    }
    // offsetAt(lo) is the current offset, offsetAt(hi) (hiOffset) is not: halve to the second where it changes.
    let lo = t;
    let hi = next;
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      const o = offsetAt(mid);
      if (o === current) lo = mid;
      else [hi, hiOffset] = [mid, o];
    }
    current = hiOffset;
    if (hi < end) changes.push([hi, current]);
    t = hi;
  }
  return { zone, from: start, to: end, offset: first, changes };
}

const tables = new Map<string, ZoneTable>();
const asked = new Set<string>();

/** From now on, this process reads `table.zone`'s offsets within its span from it. */
export function useZoneTable(table: ZoneTable): void {
  tables.set(table.zone, table);
}

/** Back to Intl for `zone` (tests). */
export function dropZoneTable(zone: string): void {
  tables.delete(zone);
}

/** Every zone but UTC this process has asked offsets of: what render/intl-disk-cache.ts makes tables of. */
export function askedZones(): ReadonlySet<string> {
  return asked;
}

/** The table this process reads `zone`'s offsets from, if any. */
export function zoneTableOf(zone: string): ZoneTable | undefined {
  return tables.get(zone);
}

/** The names Intl reads as UTC itself (V8 maps them to "UTC" before ICU sees them): offset 0 without a table. */
export const UTC_NAMES: ReadonlySet<string> = new Set(['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT']);

/** Local minus UTC at `t` in `zone` from its table (0 in UTC), ms; null without a table or outside its span. */
export function tableOffset(t: number, zone: string): number | null {
  if (UTC_NAMES.has(zone)) return 0;
  asked.add(zone);
  const table = tables.get(zone);
  if (table === undefined || !(t >= table.from && t < table.to)) return null;
  // The last change at or before t: binary search, as a daemon asks for offsets thousands of times a plan.
  let lo = 0;
  let hi = table.changes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (table.changes[mid]![0] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? table.offset : table.changes[lo - 1]![1];
}
