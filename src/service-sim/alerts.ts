import type { Alert, Unit } from '../api/schemas.js';
import type { Conditions } from './conditions.js';
import { cToF, kmhToMph } from './units.js';

/**
 * Weather alerts for simulated conditions: usually none. The spec does not show the shape of an alert, so the
 * simulator deliberately varies it, the way real providers differ: a plain string, an object with
 * `event`/`severity`/`description`, or an object with `headline` (and `expires`).
 */

const STRONG_WIND_KMH = 65;
const HEAT_C = 35;
const EXTREME_COLD_FEELS_C = -30;

interface AlertFacts {
  event: string;
  severity: 'minor' | 'moderate' | 'severe' | 'extreme';
  text: string;
}

function facts(c: Conditions, unit: Unit): AlertFacts[] {
  const temp = (celsius: number): string => (unit === 'imperial' ? `${cToF(celsius)}°F` : `${celsius}°C`);
  const wind = (kmh: number): string => (unit === 'imperial' ? `${kmhToMph(kmh)} mph` : `${kmh} km/h`);
  const found: AlertFacts[] = [];
  if (c.description === 'Thunderstorm') {
    found.push({
      event: 'Thunderstorm Warning',
      severity: 'severe',
      text: 'Thunderstorms with lightning and heavy downpours; seek shelter indoors when thunder is heard.',
    });
  }
  if (c.windKmh >= STRONG_WIND_KMH) {
    found.push({
      event: 'Wind Advisory',
      severity: c.windKmh >= 90 ? 'severe' : 'moderate',
      text: `Strong wind from the ${c.windDir} at ${wind(c.windKmh)}, gusts up to ${wind(Math.round(c.windKmh * 1.4))}.`,
    });
  }
  if (c.tempC >= HEAT_C) {
    found.push({
      event: 'Excessive Heat Warning',
      severity: c.tempC >= 40 ? 'extreme' : 'severe',
      text: `Dangerous heat: ${temp(c.tempC)}, feels like ${temp(c.feelsLikeC)}. Drink water and avoid the midday sun.`,
    });
  }
  if (!c.isDay && c.tempC <= 0 && c.tempC >= -6 && c.cloudCoverPct < 40) {
    found.push({
      event: 'Frost Advisory',
      severity: 'minor',
      text: `Frost expected with ${temp(c.tempC)} under clear skies; icy surfaces are likely.`,
    });
  }
  if (c.feelsLikeC <= EXTREME_COLD_FEELS_C) {
    found.push({
      event: 'Extreme Cold Warning',
      severity: 'extreme',
      text: `Wind chill near ${temp(c.feelsLikeC)}; frostbite on exposed skin within minutes.`,
    });
  }
  return found;
}

export function alertsFor(c: Conditions, unit: Unit): Alert[] {
  const expires = new Date(c.observedAtMs + 6 * 60 * 60_000).toISOString();
  const firstShape = Math.floor(c.roll * 3);
  return facts(c, unit).map((f, i): Alert => {
    switch ((firstShape + i) % 3) {
      case 0:
        return `${f.event}: ${f.text}`;
      case 1:
        return { event: f.event, severity: f.severity, description: f.text };
      default:
        return { headline: `${f.event} in effect until ${expires.slice(11, 16)} UTC`, expires };
    }
  });
}
