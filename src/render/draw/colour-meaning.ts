import type { PanelProfile } from '../../panels/panels.js';
import { celsiusOf, WEATHER_THRESHOLDS as T } from '../../domain/weather-demands.js';
import { contrastRatio, glassRgb, inkContrasts } from './ink-contrast.js';
import { inkDistance, MEANING_MIN_DELTA_E } from './colour-difference.js';

/**
 * Colour for meaning, one meaning per colour, on every colour panel alike (black/white/red, 7-colour, Spectra). A
 * colour says something about a reading or an alert; nothing else is coloured:
 *
 * | meaning | ink | on |
 * |---|---|---|
 * | danger | red | alerts (a severe one's band, a lesser one's mark); the temperature at or below 0 °C and from 30 °C |
 * | wet | blue | the rain chance's drops from 50 %; only where blue can be told from the panel's black |
 * | strong sun | yellow, as a fill | the UV reading's sun from a UV index of 6 |
 *
 * Everything else is ink: the garment pictograms and the tick (their meaning is the garment, and a red coat read as
 * "a red coat" or "forbidden"), a 0 % rain chance, UV 1, a mild day, and the service's own state (errors, an old
 * outfit, the status bands), which is news about the display, not a danger, and never takes a warning colour.
 * Thresholds are domain/weather-demands.ts's, the ones the garment row uses.
 *
 * An ink goes on strokes and text only where it stands apart from both black and paper on the real glass
 * (ink-contrast.ts); else it may fill an area inside a black outline, where it stands apart from black and differs
 * from paper: on the 7.3" F no ink says wet, its blue being 1.2:1 from its black. And two meanings never share a
 * look: two meanings' stroke inks (and two fill inks) must be at least MEANING_MIN_DELTA_E (ΔE00,
 * colour-difference.ts) apart, else the lesser meaning (the order of MEANING_RANK) is drawn in ink. Orange and green
 * are never used. Red and blue are 28 apart in the measured inks; where blue strokes (the Inky Impression, whose
 * black is darker than the F's), that rule leaves wet its blue fill inside a black outline, told apart from
 * danger's red lines by shape as well as hue. Colours are the panel's exact inks, so a mark maps to one palette entry
 * and never dithers into fringes.
 */

/**
 * What a mark is about. Action meanings ('freezing', 'heat', 'rain-high', 'uv-high', 'alert') may have a colour;
 * the others ('cold', 'rain', 'snow', 'sun', 'uv', and 'ok', the tick's) name what a mark shows or where a pictogram
 * has room for a fill (a sun's disc, a rain drop), and are drawn in ink and paper.
 */
export type Meaning =
  'cold' | 'freezing' | 'heat' | 'rain' | 'rain-high' | 'snow' | 'sun' | 'uv' | 'uv-high' | 'alert' | 'ok';

/** How a meaning is painted on a panel: CSS colours of exact inks, null where it is drawn in ink (or paper). */
export interface Paint {
  /** Lines and text: only an ink that stands apart from black and paper. */
  stroke: string | null;
  /** Areas inside a black outline: only an ink that stands apart from black and differs from paper. */
  fill: string | null;
}

export type MeaningInks = Readonly<Record<Meaning, Paint>>;

/** The meanings that have inks of their own: danger (alerts; freezing and heat take its paint), wet, strong sun. */
type Painted = 'alert' | 'rain-high' | 'uv-high';

/** Per meaning, the one ink that may say it, in lines and text, and as a fill inside a black outline. */
const STROKE_CHOICE: Readonly<Record<Painted, string | null>> = {
  alert: 'red',
  'rain-high': 'blue',
  'uv-high': null,
};
const FILL_CHOICE: Readonly<Record<Painted, string | null>> = {
  alert: null,
  'rain-high': 'blue',
  'uv-high': 'yellow',
};

/** Which meaning keeps its colour where two would look alike: danger first, then wet, strong sun. */
const MEANING_RANK: readonly Painted[] = ['alert', 'rain-high', 'uv-high'];

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
    // The tick is a pictogram of the garment row: ink, as the garments are.
    ok: NONE,
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

/** Least contrast of faded text against paper: WCAG 2's 4.5:1 for text (SC 1.4.3), so faded is still read. */
export const FADED_MIN_VS_PAPER = 4.5;

/**
 * The ink of what is as old as the outfit on a grey panel (the weather of an outfit out of date: readings.ts): the
 * lightest of its greys that text is still read in, FADED_MIN_VS_PAPER against paper (#666 on the Kindle, the
 * Inkplate and the TRMNL X, #555 on the 4-grey TRMNL). Null on a panel without greys (1-bit and colour panels),
 * where old weather is struck through instead. A CSS colour of the exact ink.
 */
export function fadedInk(panel: PanelProfile): string | null {
  const paper = glassRgb(panel, 'white') ?? [255, 255, 255];
  const greys = panel.palette
    .filter((e) => e.name !== 'black' && e.name !== 'white')
    .map((e) => glassRgb(panel, e.name)!)
    .filter(([r, g, b]) => r === g && g === b && contrastRatio([r, g, b], paper) >= FADED_MIN_VS_PAPER);
  const lightest = greys.sort((a, b) => b[0] - a[0])[0];
  return lightest ? `rgb(${lightest[0]},${lightest[1]},${lightest[2]})` : null;
}
