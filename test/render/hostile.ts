import type { StoredRecommendation } from '../../src/api/schemas.js';
import type { LayoutReport } from '../../src/render/layout/blocks.js';
import type { FrameInput } from '../../src/render/layout/content.js';
import type { InkBox } from '../../src/render/text/ink-box.js';
import { NORMAL, SAMPLE_NOW, SAMPLE_TIMEZONE } from '../fixtures/samples.js';

/** Distance between two boxes, px: negative when they overlap. */
function inkGap(a: InkBox, b: InkBox): number {
  return Math.max(a.x - b.right, b.x - a.right, a.top - b.bottom, b.top - a.bottom);
}

/**
 * Hostile answers (a URL in the outfit, a description without spaces, five alerts, empty and emoji outfits, extreme
 * readings), and weather that fills every reading's cell, for the layout checks.
 */

/** 63 characters, with / . ? & = to break at. */
export const HOSTILE_URL = 'https://weather.example.com/outfits/berlin?units=metric&lang=en';

const weather = NORMAL.weather;
export const HOSTILE: Readonly<Record<string, StoredRecommendation>> = {
  url: { ...NORMAL, outfit: `Wear a warm wool coat and boots; the full list is at ${HOSTILE_URL} today.` },
  'long-description': {
    ...NORMAL,
    weather: { ...weather, description: 'Thunderstormswithheavyhailandsquallsthroughouttheday' },
  },
  'five-alerts': {
    ...NORMAL,
    weather: {
      ...weather,
      alerts: ['Severe thunderstorm warning for the whole district', 'Ice', 'Gale', 'Flood watch', 'Heat'],
    },
  },
  'empty-outfit': { ...NORMAL, outfit: '' },
  'emoji-outfit': { ...NORMAL, outfit: ' 🧥 🧣 ' },
  'emoji-signs-outfit': { ...NORMAL, outfit: '👕 + 👖 + ☂ = 👍' },
  'full-readings': {
    ...NORMAL,
    weather: {
      ...weather,
      temp: -12.5,
      feels_like: -19.5,
      description: 'Light snow showers',
      wind_speed: 118,
      wind_dir: 'NNW',
      rain_chance_pct: 100,
      humidity_pct: 100,
      uv_index: 0.4,
    },
  },
  fahrenheit: {
    ...NORMAL,
    weather: {
      ...weather,
      temp: 101.3,
      feels_like: 108.2,
      temp_unit: '°F',
      description: 'Light snow showers',
      wind_speed: 48.2,
      wind_speed_unit: 'mph',
      rain_chance_pct: 100,
    },
  },
};

export function hostileInput(rec: StoredRecommendation): FrameInput {
  return { rec, displayName: 'Hallway', timezone: SAMPLE_TIMEZONE, now: SAMPLE_NOW, status: { kind: 'ok' } };
}

/** Texts of different items whose ink is closer than 0.15 em of the smaller text (and never within 2 px): "a | b | gap < need". */
export function crowded(report: LayoutReport): string[] {
  const out: string[] = [];
  const inks = report.inks;
  for (let i = 0; i < inks.length; i++) {
    for (let j = i + 1; j < inks.length; j++) {
      const a = inks[i]!;
      const b = inks[j]!;
      if (a.item === b.item) continue;
      const gap = inkGap(a, b);
      const need = Math.max(2, 0.15 * Math.min(a.size, b.size));
      if (gap < need) out.push(`${a.text} | ${b.text} | ${gap.toFixed(1)} < ${need.toFixed(1)}`);
    }
  }
  return out;
}
