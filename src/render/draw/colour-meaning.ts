import type { PanelProfile } from '../../panels/panels.js';
import { celsiusOf, WEATHER_THRESHOLDS as T, type DemandFields } from '../../domain/weather-demands.js';
import { glassRgb, inkContrasts } from './ink-contrast.js';
import { inkDistance, MEANING_MIN_DELTA_E } from './colour-difference.js';

/**
 * Colour for meaning, one meaning per colour, on every colour panel alike (black/white/red, 7-colour, Spectra):
 *
 * | meaning | ink | on |
 * |---|---|---|
 * | danger | red | alerts; freezing (at or below 0 °C) and heat (from 30 °C): the number and the gear that answers |
 * | wet | blue | rain likely (from 50 %): the rain reading's drops, rain gear with a place for it; never red |
 * | strong sun | yellow, as a fill | a high UV index (from 6): the UV mark's sun, sun gear with a place for it |
 * | all is well | green | the tick of a day that asks nothing |
 *
 * Everything else is ink: a 0 % rain chance, UV 1, a mild day, and the service's own state (errors, an old outfit,
 * the status bands), which is news about the display, not a danger, and never takes a warning colour. Thresholds
 * are domain/weather-demands.ts's, the ones the garment row and the tick use.
 *
 * An ink goes on strokes and text only where it stands apart from both black and paper on the real glass
 * (ink-contrast.ts); else it may fill an area inside a black outline. And two meanings never share a look: two
 * meanings' stroke inks (and two fill inks) must be at least MEANING_MIN_DELTA_E (ΔE00, colour-difference.ts) apart,
 * else the lesser meaning (the order of MEANING_RANK) is drawn in ink. Orange is never used: on the measured 7.3" F it
 * is 16 from red, brick beside tan. Red and blue are 28 apart in the measured inks; where blue strokes (a panel whose
 * black is darker than the F's), that rule leaves wet gear its blue fill inside a black outline, told apart from
 * danger's red lines by shape as well as hue. Colours are the panel's exact inks, so a mark maps to one palette entry
 * and never dithers into fringes.
 */

/**
 * What a mark is about. Action meanings ('freezing', 'heat', 'rain-high', 'uv-high', 'alert', 'ok') may have a
 * colour; the others ('cold', 'rain', 'snow', 'sun', 'uv') name what a garment answers to or where a pictogram
 * has room for a fill (a sun's disc, an umbrella's canopy), and are drawn in ink and paper.
 */
export type Meaning =
  'cold' | 'freezing' | 'heat' | 'rain' | 'rain-high' | 'snow' | 'sun' | 'uv' | 'uv-high' | 'alert' | 'ok';

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

/** The meanings that have inks of their own: danger (alerts; freezing and heat take its paint), wet, strong sun, all is well. */
type Painted = 'alert' | 'rain-high' | 'uv-high' | 'ok';

/** Per meaning, the one ink that may say it, in lines and text, and as a fill inside a black outline. */
const STROKE_CHOICE: Readonly<Record<Painted, string | null>> = {
  alert: 'red',
  'rain-high': 'blue',
  'uv-high': null,
  ok: 'green',
};
const FILL_CHOICE: Readonly<Record<Painted, string | null>> = {
  alert: null,
  'rain-high': 'blue',
  'uv-high': 'yellow',
  ok: null,
};

/** Which meaning keeps its colour where two would look alike: danger first, then wet, strong sun, all is well. */
const MEANING_RANK: readonly Painted[] = ['alert', 'rain-high', 'uv-high', 'ok'];

const NONE: Paint = { stroke: null, fill: null };

export function meaningInks(panel: PanelProfile): MeaningInks {
  const inks = inkContrasts(panel);
  const css = (name: string | null): string | null => {
    const rgb = name === null ? null : glassRgb(panel, name);
    return rgb ? `rgb(${rgb[0]},${rgb[1]},${rgb[2]})` : null;
  };
  const pick = (name: string | null, ok: keyof Paint): string | null =>
    inks.some((i) => i.name === name && i[ok]) ? name : null;
  const given: Record<keyof Paint, string[]> = { stroke: [], fill: [] };
  // Ranked meanings first: an ink too like one already given to another meaning (in the same role) is not used.
  const apart = (name: string | null, kind: keyof Paint): string | null => {
    const rgb = name === null ? null : glassRgb(panel, name);
    if (name === null || rgb === null) return null;
    if (given[kind].some((other) => inkDistance(glassRgb(panel, other) ?? rgb, rgb) < MEANING_MIN_DELTA_E)) return null;
    given[kind].push(name);
    return name;
  };
  const paints = new Map<Painted, Paint>();
  for (const a of MEANING_RANK)
    paints.set(a, {
      stroke: css(apart(pick(STROKE_CHOICE[a], 'stroke'), 'stroke')),
      fill: css(apart(pick(FILL_CHOICE[a], 'fill'), 'fill')),
    });
  const danger = paints.get('alert') ?? NONE;
  return {
    cold: NONE,
    // Freezing and heat are dangers: danger's paint.
    freezing: danger,
    heat: danger,
    rain: NONE,
    'rain-high': paints.get('rain-high') ?? NONE,
    snow: NONE,
    sun: NONE,
    uv: NONE,
    'uv-high': paints.get('uv-high') ?? NONE,
    alert: danger,
    ok: paints.get('ok') ?? NONE,
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
  const temps = [celsiusOf(w.temp, w.temp_unit), celsiusOf(w.feels_like, w.temp_unit)].filter(
    (c): c is number => c !== null,
  );
  if (temps.some((c) => c <= T.freezingC)) acts.add('freezing');
  if (temps.some((c) => c >= T.heatC)) acts.add('heat');
  if (rainMeaning(w.rain_chance_pct) === 'rain-high') acts.add('rain-high');
  if (uvMeaning(w.uv_index) === 'uv-high') acts.add('uv-high');
  if (Array.isArray(w.alerts) && w.alerts.length > 0) acts.add('alert');
  return acts;
}

/** The action a garment answering to `m` serves (garment-pictograms.ts's meanings). */
const GARMENT_ACTION: Partial<Record<Meaning, Action>> = {
  cold: 'freezing',
  freezing: 'freezing',
  rain: 'rain-high',
  'rain-high': 'rain-high',
  uv: 'uv-high',
  'uv-high': 'uv-high',
};

/**
 * The tint a garment is drawn with: its action's, on a day that asks for that action; else none (ink). Rain gear
 * on a 10 % day is a plain drawing. The tick is only ever shown on a day that asks nothing, so it keeps 'ok'.
 */
export function garmentTint(m: Meaning | null, actions: ReadonlySet<Action>): Meaning | undefined {
  if (m === 'ok') return 'ok';
  const a = m === null ? undefined : GARMENT_ACTION[m];
  return a !== undefined && actions.has(a) ? a : undefined;
}
