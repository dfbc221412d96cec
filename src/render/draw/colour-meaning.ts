import type { PanelProfile } from '../../panels/panels.js';
import { celsiusOf, WEATHER_THRESHOLDS as T, type DemandFields } from '../../domain/weather-demands.js';
import { glassRgb, inkContrasts } from './ink-contrast.js';

/**
 * Colour only where it asks for action, on every colour panel alike (black/white/red and 7-colour): freezing
 * (at or below 0 °C), heat (from 30 °C), rain likely (from 50 %), a high UV index (from 6), alerts; and the tick
 * of a day that asks nothing. Everything else is ink: a 0 % rain chance, UV 1, a sunny sky, a mild day. Thresholds
 * are domain/weather-demands.ts's, the ones the garment row and the tick use.
 *
 * An action's colour goes on strokes and text only in an ink that stands apart from both black and paper on the
 * real glass (ink-contrast.ts): red on the 7.5" B; red, orange and green on the 7.3" F, whose blue looks black and
 * whose yellow vanishes on paper. Those two fill areas inside a black outline instead: blue for water and cold,
 * yellow for the sun. Which ink says which action is chosen by name (red alarm, WHO's orange for high UV, green
 * for all is well), but an ink is used only where the contrasts allow it; with none, the action is drawn in ink.
 * Colours are the panel's exact inks, so a mark maps to one palette entry and never dithers into fringes.
 */

/**
 * What a mark is about. Action meanings ('freezing', 'heat', 'rain-high', 'uv-high', 'alert', 'ok') may have a
 * colour; the others ('cold', 'rain', 'snow', 'sun', 'uv') name what a garment answers to or where a pictogram
 * has room for a fill (a sun's disc, an umbrella's canopy), and are drawn in ink and paper.
 */
export type Meaning =
  | 'cold'
  | 'freezing'
  | 'heat'
  | 'rain'
  | 'rain-high'
  | 'snow'
  | 'sun'
  | 'uv'
  | 'uv-high'
  | 'alert'
  | 'ok';

/** The actions the weather can ask for (and 'ok', the tick's). */
export type Action = 'freezing' | 'heat' | 'rain-high' | 'uv-high' | 'alert' | 'ok';

/** How a meaning is painted on a panel: CSS colours of exact inks, null where it is drawn in ink (or paper). */
export interface Paint {
  /** Lines and text: only an ink that stands apart from black and paper. */
  stroke: string | null;
  /** Areas inside a black outline. */
  fill: string | null;
}

export type MeaningInks = Readonly<Record<Meaning, Paint>>;

/**
 * Per action, the inks that may say it, best first. Freezing and rain prefer blue, but only a panel on which blue
 * stands apart strokes in it; elsewhere they are red like every other alarm, and blue fills.
 */
const STROKE_CHOICES: Readonly<Record<Action, readonly string[]>> = {
  freezing: ['blue', 'red'],
  heat: ['red', 'orange'],
  'rain-high': ['blue', 'red'],
  'uv-high': ['orange', 'red'],
  alert: ['red', 'orange'],
  ok: ['green'],
};
const FILL_CHOICES: Readonly<Record<Action, readonly string[]>> = {
  freezing: ['blue'],
  heat: [],
  'rain-high': ['blue'],
  'uv-high': ['yellow', 'orange'],
  alert: [],
  ok: [],
};

const NONE: Paint = { stroke: null, fill: null };

export function meaningInks(panel: PanelProfile): MeaningInks {
  const inks = inkContrasts(panel);
  const css = (name: string | undefined): string | null => {
    const rgb = name === undefined ? null : glassRgb(panel, name);
    return rgb ? `rgb(${rgb[0]},${rgb[1]},${rgb[2]})` : null;
  };
  const pick = (names: readonly string[], ok: 'stroke' | 'fill'): string | null => css(names.find((n) => inks.some((i) => i.name === n && i[ok])));
  const paint = (a: Action): Paint => ({ stroke: pick(STROKE_CHOICES[a], 'stroke'), fill: pick(FILL_CHOICES[a], 'fill') });
  return {
    cold: NONE,
    freezing: paint('freezing'),
    heat: paint('heat'),
    rain: NONE,
    'rain-high': paint('rain-high'),
    snow: NONE,
    sun: NONE,
    uv: NONE,
    'uv-high': paint('uv-high'),
    alert: paint('alert'),
    ok: paint('ok'),
  };
}

/** Freezing at or below 0 °C, cold below 10 °C, heat from 30 °C; null between (domain/weather-demands.ts's thresholds). */
export function temperatureMeaning(value: number | undefined, unit: string | undefined): Meaning | null {
  const c = celsiusOf(value, unit);
  if (c === null) return null;
  if (c <= T.freezingC) return 'freezing';
  if (c < T.coldC) return 'cold';
  if (c >= T.heatC) return 'heat';
  return null;
}

export function rainMeaning(pct: number | undefined): Meaning {
  return typeof pct === 'number' && pct >= T.rainLikelyPct ? 'rain-high' : 'rain';
}

export function uvMeaning(index: number | undefined): Meaning {
  return typeof index === 'number' && index >= T.uvHigh ? 'uv-high' : 'uv';
}

/**
 * The actions this weather asks for. Freezing counts the feels-like as well as the temperature: it is what the
 * body meets at the door, so the warm hat and gloves are coloured at 2 °C that feels like −2 °C (the number, which
 * shows the temperature, is coloured by the temperature alone: temperatureMeaning).
 */
export function weatherActions(w: DemandFields | null): ReadonlySet<Action> {
  const acts = new Set<Action>();
  if (w === null) return acts;
  const temps = [celsiusOf(w.temp, w.temp_unit), celsiusOf(w.feels_like, w.temp_unit)].filter((c): c is number => c !== null);
  if (temps.some((c) => c <= T.freezingC)) acts.add('freezing');
  if (temps.some((c) => c >= T.heatC)) acts.add('heat');
  if (rainMeaning(w.rain_chance_pct) === 'rain-high') acts.add('rain-high');
  if (uvMeaning(w.uv_index) === 'uv-high') acts.add('uv-high');
  if (Array.isArray(w.alerts) && w.alerts.length > 0) acts.add('alert');
  return acts;
}

/** The action a garment answering to `m` serves (garment-pictograms.ts's meanings). */
const GARMENT_ACTION: Partial<Record<Meaning, Action>> = { cold: 'freezing', freezing: 'freezing', rain: 'rain-high', 'rain-high': 'rain-high', uv: 'uv-high', 'uv-high': 'uv-high' };

/**
 * The tint a garment is drawn with: its action's, on a day that asks for that action; else none (ink). Rain gear
 * on a 10 % day is a plain drawing. The tick is only ever shown on a day that asks nothing, so it keeps 'ok'.
 */
export function garmentTint(m: Meaning | null, actions: ReadonlySet<Action>): Meaning | undefined {
  if (m === 'ok') return 'ok';
  const a = m === null ? undefined : GARMENT_ACTION[m];
  return a !== undefined && actions.has(a) ? a : undefined;
}
