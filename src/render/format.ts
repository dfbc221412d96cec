
/** Words and numbers as the frame shows them. Pure; dates in the display's timezone via Intl (no Date.now()). */

const MINUS = '\u2212';

function signed(n: number): string {
  const r = Math.round(n);
  return r < 0 ? `${MINUS}${-r}` : String(r === 0 ? 0 : r);
}

/** What the frame shows for a reading the response did not carry (or carried in a form we could not read). */
export const MISSING = '\u2014';

const present = (n: number | undefined): n is number => typeof n === 'number' && Number.isFinite(n);

/** "21°C", "−4°F": the unit as the response wrote it; "—" without a temperature. */
export function formatTemp(value: number | undefined, unit: string | undefined): string {
  if (!present(value)) return MISSING;
  return `${signed(value)}${unit?.startsWith('°') ? unit : unit ? ` ${unit}` : '°'}`;
}

/** "19°": the degree sign without the scale letter; "—" without a temperature. */
export function formatTempShort(value: number | undefined): string {
  return present(value) ? `${signed(value)}°` : MISSING;
}

export function formatPercent(value: number | undefined): string {
  return present(value) ? `${Math.round(value)}%` : MISSING;
}

export function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, '');
}

/** A reading rounded to whole units ("3"), or to tenths ("2.5"); "—" when missing. */
export function formatReading(value: number | undefined, step: 1 | 0.1 = 1): string {
  if (!present(value)) return MISSING;
  return formatNumber(step === 1 ? Math.round(value) : Math.round(value * 10) / 10);
}

/** "14 km/h" (the unit as the response wrote it, if any); "—" without a speed. */
export function formatSpeed(value: number | undefined, unit: string | undefined): string {
  if (!present(value)) return MISSING;
  return unit?.trim() ? `${formatReading(value)} ${unit}` : formatReading(value);
}

const TEXT_KEYS = ['title', 'headline', 'event', 'description', 'summary', 'message', 'text', 'name', 'severity'] as const;

/**
 * The text of an alert item, whatever its shape: a string; or an object's title, headline, event or
 * description (the first that is a non-empty string), else its first string field in key order, looking one
 * level into nested objects (GeoJSON-like `properties`); else "Weather alert".
 */
export function alertText(alert: unknown): string {
  return textOf(alert, 2) ?? 'Weather alert';
}

function textOf(v: unknown, depth: number): string | null {
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    for (const item of v) {
      const t = depth > 0 ? textOf(item, depth - 1) : null;
      if (t) return t;
    }
    return null;
  }
  if (!v || typeof v !== 'object') return null;
  const obj = v as Record<string, unknown>;
  for (const key of TEXT_KEYS) {
    const t = obj[key];
    if (typeof t === 'string' && t.trim()) return t.trim();
  }
  const keys = Object.keys(obj).sort();
  for (const key of keys) {
    const t = obj[key];
    if (typeof t === 'string' && t.trim()) return t.trim();
  }
  if (depth > 0) {
    for (const key of keys) {
      const t = obj[key] && typeof obj[key] === 'object' ? textOf(obj[key], depth - 1) : null;
      if (t) return t;
    }
  }
  return null;
}

/** Alert texts, empty strings and repeats left out (an object without any text still counts as an alert). */
export function alertTexts(alerts: readonly unknown[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const a of alerts) {
    if (a === null || a === undefined || (typeof a === 'string' && !a.trim())) continue;
    const t = alertText(a).replace(/\s+/g, ' ');
    if (t && !seen.has(t.toLowerCase())) {
      seen.add(t.toLowerCase());
      out.push(t);
    }
  }
  return out;
}

const COMPASS = ['N', 'NNE', 'NE', 'ENE', 'E', 'ESE', 'SE', 'SSE', 'S', 'SSW', 'SW', 'WSW', 'W', 'WNW', 'NW', 'NNW'];
const WORDS: Record<string, string> = { NORTH: 'N', SOUTH: 'S', EAST: 'E', WEST: 'W' };

/** Degrees (0 = from the north, clockwise) of a wind direction: "NW", "north-west", "315"; null when unknown. */
export function windDegrees(dir: string | undefined): number | null {
  if (dir === undefined) return null;
  const s = dir.trim().toUpperCase();
  if (/^\d+(\.\d+)?°?$/.test(s)) return Number.parseFloat(s) % 360;
  let abbr = s.replace(/[\s-]+/g, '');
  for (const [word, letter] of Object.entries(WORDS)) abbr = abbr.replaceAll(word, letter);
  const i = COMPASS.indexOf(abbr);
  return i >= 0 ? i * 22.5 : null;
}

function parts(date: Date, timeZone: string): Record<string, string> {
  const fmt = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const out: Record<string, string> = {};
  for (const p of fmt.formatToParts(date)) out[p.type] = p.value;
  return out;
}

/** "07:30" on the same day as `now` in the timezone, else "Sat 31 Jan 07:30". */
export function formatTime(date: Date, timeZone: string, now: Date): string {
  const d = parts(date, timeZone);
  const n = parts(now, timeZone);
  const hm = `${d.hour}:${d.minute}`;
  if (d.day === n.day && d.month === n.month && Math.abs(date.getTime() - now.getTime()) < 86_400_000) return hm;
  return `${d.weekday} ${d.day} ${d.month} ${hm}`;
}

/** "2 h 5 min", "40 min", "3 d" */
export function formatAge(ms: number): string {
  const min = Math.max(0, Math.round(ms / 60_000));
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  return `${Math.floor(h / 24)} d`;
}
