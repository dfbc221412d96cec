/**
 * How severe a weather alert is, read from whatever the service sends (the spec does not show an alert's shape): a
 * severity field in CAP's words (Extreme, Severe, Moderate, Minor) or a MeteoAlarm colour or level, on the item or
 * under `properties` (GeoJSON); else the words of its text, as the US National Weather Service uses them (a warning:
 * the hazard is happening or close; a watch: it may come; an advisory or statement: a lesser one). Pure.
 */

export type AlertSeverity = 'extreme' | 'severe' | 'moderate' | 'minor' | 'unknown';

/**
 * Most severe first; an alert of unknown severity before a minor one, since it may be anything: the wall shows the
 * alerts in this order, and when it has room for fewer than there are, the ones it leaves off are the least severe.
 */
export const SEVERITY_ORDER: readonly AlertSeverity[] = ['extreme', 'severe', 'moderate', 'unknown', 'minor'];

const WORDS: ReadonlyArray<[RegExp, AlertSeverity]> = [
  [/\b(extreme|emergency|red)\b/i, 'extreme'],
  [/\b(severe|orange)\b/i, 'severe'],
  [/\b(moderate|yellow)\b/i, 'moderate'],
  [/\b(minor|green)\b/i, 'minor'],
];

/** MeteoAlarm's awareness levels, 1 (green) to 4 (red). */
const LEVELS: Readonly<Record<number, AlertSeverity>> = { 1: 'minor', 2: 'moderate', 3: 'severe', 4: 'extreme' };

/** The severity a field says: "Severe", "orange", "3", 3, "4; red; Extreme"; null where it says none we know. */
function fromField(v: unknown): AlertSeverity | null {
  if (typeof v === 'number') return LEVELS[v] ?? null;
  if (typeof v !== 'string') return null;
  const level = /^\s*([1-4])\b/.exec(v);
  if (level) return LEVELS[Number(level[1])]!;
  return WORDS.find(([re]) => re.test(v))?.[1] ?? null;
}

const FIELDS = ['severity', 'level', 'awareness_level', 'awarenessLevel'] as const;

function fromObject(o: Record<string, unknown>): AlertSeverity | null {
  for (const f of FIELDS) {
    const s = fromField(o[f]);
    if (s !== null) return s;
  }
  const p = o.properties;
  return p && typeof p === 'object' && !Array.isArray(p) ? fromObject(p as Record<string, unknown>) : null;
}

/** The severity the words of an alert's text say: "Extreme heat warning", "Flood watch", "Wind advisory". */
function fromText(text: string): AlertSeverity {
  if (/\b(extreme|emergency)\b/i.test(text)) return 'extreme';
  if (/\b(severe|warning)\b/i.test(text)) return 'severe';
  if (/\bwatch\b/i.test(text)) return 'moderate';
  if (/\b(advisory|statement|outlook)\b/i.test(text)) return 'minor';
  return 'unknown';
}

/** The severity of an alert item (`text`: the text the frame shows for it). */
export function alertSeverity(alert: unknown, text: string): AlertSeverity {
  const field =
    alert && typeof alert === 'object' && !Array.isArray(alert) ? fromObject(alert as Record<string, unknown>) : null;
  return field ?? fromText(text);
}
