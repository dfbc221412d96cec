import type { PanelProfile } from '../../panels/panels.js';
import { hexToRgb } from '../../panels/panels.js';
import { celsiusOf, WEATHER_THRESHOLDS as T } from '../../domain/weather-demands.js';

/**
 * Colour with meaning. A colour panel spends its colours on what matters, not on decoration:
 * - black/white/red: red only for what needs attention (freezing or heat, a high rain chance, a high UV index,
 *   alerts); everything else is black.
 * - 7 colours: blue for rain, snow and cold, red for heat and alerts, orange for UV, yellow for the sun, green for
 *   "nothing extra needed".
 * - black/white and grey panels: no colour; the marks say it in shape.
 * Colours are the panel's exact inks, so a mark maps to one palette entry and never dithers into fringes.
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

/** Per meaning: the CSS colour of the ink that says it on this panel, or null when the panel has none for it. */
export type MeaningInks = Readonly<Record<Meaning, string | null>>;

function inkOf(panel: PanelProfile, name: string): string | null {
  const e = panel.palette.find((p) => p.name === name);
  if (!e) return null;
  const [r, g, b] = hexToRgb(e.ink ?? e.rgb);
  return `rgb(${r},${g},${b})`;
}

export function meaningInks(panel: PanelProfile): MeaningInks {
  const red = inkOf(panel, 'red');
  const blue = inkOf(panel, 'blue');
  const green = inkOf(panel, 'green');
  const yellow = inkOf(panel, 'yellow');
  const orange = inkOf(panel, 'orange');
  if (blue || green || yellow || orange) {
    const warm = orange ?? red;
    return {
      cold: blue,
      freezing: blue,
      heat: red ?? warm,
      rain: blue,
      'rain-high': blue,
      snow: blue,
      sun: yellow ?? warm,
      uv: warm,
      'uv-high': warm,
      alert: red ?? warm,
      ok: green,
    };
  }
  // Red only: it marks what needs attention, and nothing else.
  return { cold: null, freezing: red, heat: red, rain: null, 'rain-high': red, snow: null, sun: null, uv: null, 'uv-high': red, alert: red, ok: null };
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
