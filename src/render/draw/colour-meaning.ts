import type { PanelProfile } from '../../panels/panels.js';
import { hexToRgb } from '../../panels/panels.js';

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

/** Rain chance from which rain is likely enough to act on (take an umbrella). */
const RAIN_HIGH_PCT = 50;
/** UV index from which protection is advised (WHO: 6 and above is "high"). */
const UV_HIGH = 6;

/** Celsius of a temperature in the unit the response gave ("°F", "F", "K"; anything else is taken as Celsius). */
function celsius(value: number, unit: string | undefined): number {
  const u = (unit ?? '').replace('°', '').trim().toUpperCase();
  if (u === 'F') return ((value - 32) * 5) / 9;
  if (u === 'K') return value - 273.15;
  return value;
}

/** What a temperature means: freezing at or below 0 °C, cold below 10 °C, heat from 30 °C; null between. */
export function temperatureMeaning(value: number | undefined, unit: string | undefined): Meaning | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const c = celsius(value, unit);
  if (c <= 0) return 'freezing';
  if (c < 10) return 'cold';
  if (c >= 30) return 'heat';
  return null;
}

export function rainMeaning(pct: number | undefined): Meaning {
  return typeof pct === 'number' && pct >= RAIN_HIGH_PCT ? 'rain-high' : 'rain';
}

export function uvMeaning(index: number | undefined): Meaning {
  return typeof index === 'number' && index >= UV_HIGH ? 'uv-high' : 'uv';
}
