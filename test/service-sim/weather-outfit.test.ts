import { describe, expect, it } from 'vitest';
import { composeOutfit, countWords, limitWords, MAX_OUTFIT_WORDS } from '../../src/service-sim/outfit.js';
import { COMPASS_16, simulateConditions, solarElevationDeg, toFullWeather } from '../../src/service-sim/weather.js';
import { DESCRIPTIONS, type Conditions } from '../../src/service-sim/conditions.js';

/** The simulated service's weather and outfits, computed in process (the endpoints over HTTP: weather-outfit.int.test.ts). */

const YEAR = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

/** Conditions over a grid of places and times through a year (about 10 000 samples). */
function sweep(): Array<{ lat: number; lon: number; t: number; c: Conditions }> {
  const out: Array<{ lat: number; lon: number; t: number; c: Conditions }> = [];
  for (let lat = -85; lat <= 85; lat += 17) {
    for (let lon = -175; lon < 180; lon += 35) {
      for (let d = 0; d < 365; d += 30) {
        for (let h = 0; h < 24; h += 3) {
          const t = YEAR + d * DAY + h * 3_600_000 + 17 * 60_000;
          out.push({ lat, lon, t, c: simulateConditions(lat, lon, t) });
        }
      }
    }
  }
  return out;
}
const SAMPLES = sweep();
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('simulated weather', () => {
  it('uses a fixed set of descriptions and a 16-point compass', () => {
    const seen = new Set(SAMPLES.map((s) => s.c.description));
    for (const d of seen) expect(DESCRIPTIONS).toContain(d);
    expect(seen.size).toBeGreaterThanOrEqual(10);
    const dirs = new Set(SAMPLES.map((s) => s.c.windDir));
    expect([...dirs].filter((d) => !(COMPASS_16 as readonly string[]).includes(d))).toEqual([]);
    expect(dirs.size).toBe(16);
  });

  it('keeps descriptions consistent with temperature and rain chance', () => {
    const problems = SAMPLES.flatMap(({ c }) => {
      const ctx = `${c.description} at ${c.tempC}°C, rain ${c.rainChancePct}%, humidity ${c.humidityPct}%`;
      const bad: string[] = [];
      if (['Snow', 'Light snow', 'Sleet'].includes(c.description) && c.tempC > 2) bad.push(`snow when warm: ${ctx}`);
      if (c.description === 'Thunderstorm' && c.tempC < 18) bad.push(`cold thunderstorm: ${ctx}`);
      if (['Heavy rain', 'Thunderstorm', 'Snow'].includes(c.description) && c.rainChancePct < 75)
        bad.push(`dry downpour: ${ctx}`);
      if (['Clear', 'Mostly clear', 'Partly cloudy'].includes(c.description) && c.rainChancePct >= 40)
        bad.push(`wet clear sky: ${ctx}`);
      if (c.humidityPct < 0 || c.humidityPct > 100 || c.rainChancePct < 0 || c.rainChancePct > 100)
        bad.push(`percent out of range: ${ctx}`);
      if (c.windKmh < 0 || c.tempC < -60 || c.tempC > 55) bad.push(`implausible: ${ctx}, wind ${c.windKmh}`);
      return bad;
    });
    expect(problems).toEqual([]);
  });

  it('has UV only by day, and day exactly when the sun is up', () => {
    const bad = SAMPLES.filter(({ lat, lon, t, c }) => {
      const bucketStart = Math.floor(t / 600_000) * 600_000;
      return c.isDay !== solarElevationDeg(lat, lon, bucketStart) > 0 || (!c.isDay && c.uvIndex !== 0);
    });
    expect(bad).toEqual([]);
    expect(SAMPLES.some((s) => s.c.isDay && s.c.uvIndex >= 6)).toBe(true);
  });

  it('is warmer at the equator than near the poles, in summer than in winter, in the afternoon than before dawn', () => {
    const band = (lo: number, hi: number) =>
      mean(SAMPLES.filter((s) => Math.abs(s.lat) >= lo && Math.abs(s.lat) <= hi).map((s) => s.c.tempC));
    expect(band(0, 10)).toBeGreaterThan(band(30, 40) + 5);
    expect(band(30, 40)).toBeGreaterThan(band(65, 90) + 10);
    const at = (lat: number, iso: string) =>
      mean([0, 1, 2, 3, 4, 5, 6].map((k) => simulateConditions(lat, 0, Date.parse(iso) + k * DAY).tempC));
    expect(at(50, '2026-07-10T12:00:00Z')).toBeGreaterThan(at(50, '2026-01-10T12:00:00Z') + 8);
    expect(at(-50, '2026-01-10T12:00:00Z')).toBeGreaterThan(at(-50, '2026-07-10T12:00:00Z') + 8); // southern summer
    // Diurnal cycle: 15:00 is warmer than 04:00 local solar time (lon 0: UTC is solar time).
    expect(at(45, '2026-04-10T15:00:00Z')).toBeGreaterThan(at(45, '2026-04-10T04:00:00Z') + 3);
  });

  it('takes local solar time from lon: noon UTC on an equinox is midday at lon 0, midnight at lon 180', () => {
    const t = Date.parse('2026-03-20T12:00:00Z');
    expect(solarElevationDeg(0, 0, t)).toBeGreaterThan(80);
    expect(solarElevationDeg(0, 180, t)).toBeLessThan(-80);
    expect(simulateConditions(0, 0, t).isDay).toBe(true);
    expect(simulateConditions(0, 180, t).isDay).toBe(false);
    expect(simulateConditions(0, 180, t).uvIndex).toBe(0);
  });

  it('is deterministic per 10-minute bucket and changes between buckets', () => {
    const t = Date.parse('2026-03-01T08:00:00Z');
    expect(simulateConditions(48.85, 2.35, t + 1_000)).toEqual(simulateConditions(48.85, 2.35, t + 599_999));
    const later = [1, 2, 3, 4, 5, 6].map((k) => simulateConditions(48.85, 2.35, t + k * 600_000));
    expect(later.some((c) => c.tempC !== simulateConditions(48.85, 2.35, t).tempC)).toBe(true);
  });

  it('usually has no alerts, and varies the shape of those it has', () => {
    const alerts = SAMPLES.flatMap((s) => toFullWeather(s.c, 'metric').alerts);
    const withAlerts = SAMPLES.filter((s) => toFullWeather(s.c, 'metric').alerts.length > 0).length;
    expect(withAlerts / SAMPLES.length).toBeLessThan(0.25);
    expect(alerts.some((a) => typeof a === 'string')).toBe(true);
    expect(alerts.some((a) => typeof a === 'object' && 'event' in a && 'severity' in a && 'description' in a)).toBe(
      true,
    );
    expect(alerts.some((a) => typeof a === 'object' && 'headline' in a)).toBe(true);
    const text = JSON.stringify(alerts);
    for (const kind of ['Wind', 'Heat', 'Frost', 'Thunderstorm']) expect(text).toContain(kind);
  });
});

describe('composed outfit', () => {
  it('stays within 120 words everywhere, in both units, with and without gender', () => {
    const bad: string[] = [];
    for (const { c } of SAMPLES) {
      for (const [unit, gender] of [
        ['metric', undefined],
        ['imperial', 'female'],
        ['metric', 'male'],
      ] as const) {
        const { outfit, reasoning } = composeOutfit(c, unit, gender);
        const words = countWords(outfit);
        if (words > MAX_OUTFIT_WORDS || words < 6 || reasoning.length < 20) bad.push(`${words} words: ${outfit}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('counts words and cuts at whole sentences', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('  Wear a coat.\n Add gloves. ')).toBe(5);
    const sentence = 'one two three four five six seven eight nine ten.';
    expect(countWords(limitWords(Array(20).fill(sentence), 120))).toBe(120);
    expect(limitWords([sentence, sentence], 15)).toBe(sentence);
    expect(countWords(limitWords(['word '.repeat(200).trim()], 120))).toBe(120);
  });

  it('varies with temperature, rain, wind, UV and daylight', () => {
    const outfits = new Set(SAMPLES.map((s) => composeOutfit(s.c, 'metric').outfit));
    expect(outfits.size).toBeGreaterThan(30);
    const find = (pred: (c: Conditions) => boolean) => {
      const s = SAMPLES.find((x) => pred(x.c));
      if (!s) throw new Error('no sample matches');
      return composeOutfit(s.c, 'metric').outfit;
    };
    expect(find((c) => c.feelsLikeC <= -15)).toMatch(/parka/);
    expect(find((c) => c.feelsLikeC > 30)).toMatch(/linen/);
    expect(find((c) => c.rainChancePct >= 60 && c.tempC > 2 && c.windKmh < 30)).toMatch(/umbrella/);
    expect(find((c) => c.windKmh >= 30 && c.rainChancePct < 60)).toMatch(/windproof/);
    expect(find((c) => c.isDay && c.uvIndex >= 6)).toMatch(/sunscreen/);
    expect(find((c) => !c.isDay)).toMatch(/reflective/);
    expect(find((c) => ['Snow', 'Light snow'].includes(c.description))).toMatch(/insulated, waterproof boots/);
  });

  it('adapts wording to gender where it matters', () => {
    const hot = SAMPLES.find((s) => s.c.feelsLikeC > 25 && s.c.feelsLikeC <= 30);
    if (!hot) throw new Error('no hot sample');
    expect(composeOutfit(hot.c, 'metric', 'female').outfit).toMatch(/dress/);
    expect(composeOutfit(hot.c, 'metric').outfit).not.toMatch(/dress/);
    expect(composeOutfit(hot.c, 'metric', 'nonbinary').outfit).toBe(composeOutfit(hot.c, 'metric').outfit);
  });
});
