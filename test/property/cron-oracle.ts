import fc from 'fast-check';
import { createTask, parse, validateDetailed } from 'node-cron';

/**
 * An independent count of when a node-cron expression fires in a time zone, for the planner property: every UTC
 * minute of the stretch is visited, its local wall time is read from Intl's UTC offset (sampled hourly, minute by
 * minute inside an hour where the offset changes), and node-cron's own matcher (`createTask(...).match`) decides
 * the date fields, once per local date (minute, hour and second are already known to match; the rest of a match
 * depends on the date only). No code of src/budget is used.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's UTC offset at instant t, in ms ("GMT+05:45" → 20 700 000). */
export function offsetMs(tz: string, t: number): number {
  let f = offsetFormatters.get(tz);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' });
    offsetFormatters.set(tz, f);
  }
  const name = f.formatToParts(new Date(t)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /^GMT([+-])(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(name);
  if (m === null) return 0;
  const v = (Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0)) * 1000;
  return m[1] === '-' ? -v : v;
}

/** "2027-03-28" of a day number (days since 1970-01-01 of a wall time). */
export function dayKey(dayNumber: number): string {
  return new Date(dayNumber * DAY).toISOString().slice(0, 10);
}

/** A stretch of time in a zone with the UTC offset of every minute (read from Intl hourly, minute by minute where it changes). */
export class ZoneScan {
  readonly from: number;
  readonly to: number;
  /** Offset of each hour from floor(from) when constant through the hour, else NaN (see #minuteOffsets). */
  readonly #hourly: Float64Array;
  readonly #minuteOffsets = new Map<number, number>();
  /** Instants (UTC ms) where the UTC offset changes. */
  readonly transitions: number[] = [];
  readonly #start: number;

  constructor(
    readonly tz: string,
    from: number,
    to: number,
  ) {
    this.from = from;
    this.to = to;
    this.#start = Math.floor(from / HOUR) * HOUR;
    const n = Math.ceil((to - this.#start) / HOUR);
    this.#hourly = new Float64Array(n);
    let next = offsetMs(tz, this.#start);
    for (let i = 0; i < n; i++) {
      const h = this.#start + i * HOUR;
      const here = next;
      next = offsetMs(tz, h + HOUR);
      if (here === next) {
        this.#hourly[i] = here;
        continue;
      }
      this.#hourly[i] = NaN;
      let prev = here;
      for (let t = h; t < h + HOUR; t += MINUTE) {
        const off = t === h ? here : offsetMs(tz, t);
        this.#minuteOffsets.set(t, off);
        if (off !== prev) this.transitions.push(t);
        prev = off;
      }
      if (prev !== next) this.transitions.push(h + HOUR);
    }
  }

  offsetAt(t: number): number {
    const o = this.#hourly[Math.floor((t - this.#start) / HOUR)] ?? NaN;
    return Number.isNaN(o) ? (this.#minuteOffsets.get(t) ?? offsetMs(this.tz, t)) : o;
  }

  /** Firings of `expr` by local date "YYYY-MM-DD", for every instant of the stretch. */
  count(expr: string): Map<string, number> {
    const fields = parse(expr);
    const minutes = new Set(fields.minute);
    const hours = new Set(fields.hour);
    const seconds = [...new Set(fields.second)].sort((a, b) => a - b);
    const task = createTask(expr, () => undefined, { timezone: this.tz });
    const byDay = new Map<number, number>();
    const dayOk = new Map<number, boolean>();
    try {
      const first = Math.ceil(this.from / MINUTE) * MINUTE;
      for (let t = first; t < this.to; t += MINUTE) {
        const wall = t + this.offsetAt(t);
        const minuteOfDay = Math.floor(wall / MINUTE) % 1440;
        if (!minutes.has(minuteOfDay % 60) || !hours.has(Math.floor(minuteOfDay / 60))) continue;
        const dayNumber = Math.floor(wall / DAY);
        let ok = dayOk.get(dayNumber);
        if (ok === undefined) {
          ok = task.match(new Date(t + (seconds[0] ?? 0) * 1000));
          dayOk.set(dayNumber, ok);
        }
        if (ok) byDay.set(dayNumber, (byDay.get(dayNumber) ?? 0) + seconds.length);
      }
    } finally {
      void task.destroy();
    }
    return new Map([...byDay].map(([d, n]) => [dayKey(d), n]));
  }
}

/** "YYYY-MM-DD" of instant t in tz, through Intl. */
const dateFormatters = new Map<string, Intl.DateTimeFormat>();
export function localDateKey(tz: string, t: number): string {
  let f = dateFormatters.get(tz);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormatters.set(tz, f);
  }
  return f.format(new Date(t));
}

// --- cron expressions from node-cron's field grammar -------------------------------------------------------------

function item(min: number, max: number, values: fc.Arbitrary<number>): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: values.map(String), weight: 4 },
    { arbitrary: fc.tuple(values, values).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`), weight: 2 },
    { arbitrary: fc.integer({ min: 1, max: max - min + 1 }).map((k) => `*/${k}`), weight: 2 },
    {
      arbitrary: fc
        .tuple(values, values, fc.integer({ min: 1, max: 12 }))
        .map(([a, b, k]) => `${Math.min(a, b)}-${Math.max(a, b)}/${k}`),
      weight: 2,
    },
  );
}

function field(
  min: number,
  max: number,
  values: fc.Arbitrary<number>,
  extra: fc.Arbitrary<string>[] = [],
  star = 1,
): fc.Arbitrary<string> {
  const one = fc.oneof(item(min, max, values), ...extra);
  return fc.oneof(
    { arbitrary: fc.constant('*'), weight: star },
    { arbitrary: fc.array(one, { minLength: 1, maxLength: 3 }).map((xs) => xs.join(',')), weight: 3 },
  );
}

/** Seconds kept coarse: a few values a minute at most. */
const secondsField = fc.oneof(
  fc.constantFrom('0', '30', '0,30', '*/20', '15-45/15', '59', '0-59/30'),
  fc
    .array(
      fc.integer({ min: 0, max: 5 }).map((k) => String(k * 10)),
      { minLength: 1, maxLength: 3 },
    )
    .map((xs) => [...new Set(xs)].join(',')),
);

export interface CronOptions {
  /** Keep the number of firings a day small (for the scheduler simulation). */
  sparse?: boolean;
}

/** Valid node-cron expressions: lists, ranges, steps, month and weekday names, L / W / # tokens, an optional seconds field. */
export function cronArb(opts: CronOptions = {}): fc.Arbitrary<string> {
  const minute = opts.sparse
    ? fc.oneof(fc.integer({ min: 0, max: 59 }).map(String), fc.constantFrom('0,30', '*/15', '10-50/20', '0,45'))
    : field(0, 59, fc.integer({ min: 0, max: 59 }));
  // Hours lean towards 0-4, where daylight-saving changes happen.
  const hour = field(
    0,
    23,
    fc.oneof(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 4 })),
    [],
    opts.sparse ? 0 : 1,
  );
  const dom = field(1, 31, fc.integer({ min: 1, max: 31 }), [fc.constantFrom('L', 'LW', '15W', '1W', 'L-2')], 8);
  const month = field(
    1,
    12,
    fc.integer({ min: 1, max: 12 }),
    [fc.constantFrom('jan', 'mar', 'oct', 'nov', 'mar-oct', 'sep-dec')],
    6,
  );
  const dow = field(
    0,
    7,
    fc.integer({ min: 0, max: 7 }),
    [fc.constantFrom('mon-fri', 'sat,sun', 'sun', '5#2', '0#1', '1L', '6L')],
    6,
  );
  const withSeconds = opts.sparse
    ? fc.option(fc.constantFrom('0', '30', '0,30'), { nil: undefined, freq: 3 })
    : fc.option(secondsField, { nil: undefined, freq: 3 });
  return fc
    .tuple(withSeconds, minute, hour, dom, month, dow)
    .map(([s, ...rest]) => [...(s === undefined ? [] : [s]), ...rest].join(' '))
    .filter((e) => validateDetailed(e).valid);
}

/** Zones with and without daylight saving, odd offsets (+5:45, +12:45, -3:30), a 30-minute DST (Lord Howe), a DST
 * change at midnight (Havana), one in the southern hemisphere (Santiago, Sydney), Ramadan pauses (Casablanca). */
export const ZONES = [
  'UTC',
  'Europe/Berlin',
  'Europe/London',
  'Europe/Dublin',
  'America/New_York',
  'America/St_Johns',
  'America/Havana',
  'America/Santiago',
  'America/Sao_Paulo',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Asia/Kathmandu',
  'Asia/Kolkata',
  'Asia/Tehran',
  'Africa/Casablanca',
  'Asia/Gaza',
  'Pacific/Apia',
] as const;
