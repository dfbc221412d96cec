import type { Weather } from '../api/schemas.js';
import type { ChangeAwareConfig, Config, DisplayConfig } from '../config/schema.js';

/** Credits a recommendation costs: the service charges 3 for /recweather and 2 for /recommend. */
export const ENDPOINT_CREDITS = { recweather: 3, recommend: 2 } as const;

export function recCost(display: DisplayConfig): number {
  return ENDPOINT_CREDITS[display.endpoint];
}

function toCelsius(temp: number, unit: string): number {
  return /F/i.test(unit) ? ((temp - 32) * 5) / 9 : temp;
}

/** `next`'s temperature in `prev`'s unit (the service may answer GET /weather in another unit); a missing unit is taken as the other's. */
function sameUnit(value: number, fromUnit: string | undefined, toUnit: string | undefined): number {
  if (fromUnit === undefined || toUnit === undefined || fromUnit === toUnit) return value;
  const c = toCelsius(value, fromUnit);
  return /F/i.test(toUnit) ? (c * 9) / 5 + 32 : c;
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

/**
 * Why the weather changed enough to change what one wears, or null when it did not.
 * `prev` is the weather the shown outfit was made for; `next` is the weather now. A reading missing on either side
 * (the service may leave one out) is not compared: not knowing is no reason to buy, and `max_age_minutes` still
 * bounds how long an outfit is kept.
 */
export function weatherChange(prev: Weather, next: Weather, cfg: ChangeAwareConfig): string | null {
  const unit = prev.temp_unit ?? next.temp_unit ?? '';
  if (prev.temp !== undefined && next.temp !== undefined) {
    const temp = sameUnit(next.temp, next.temp_unit, prev.temp_unit);
    if (Math.abs(temp - prev.temp) >= cfg.temp_delta) {
      return `temperature ${round1(prev.temp)}${unit} → ${round1(temp)}${unit} (change of ${cfg.temp_delta} or more)`;
    }
  }
  if (prev.feels_like !== undefined && next.feels_like !== undefined) {
    const feels = sameUnit(next.feels_like, next.temp_unit, prev.temp_unit);
    if (Math.abs(feels - prev.feels_like) >= cfg.temp_delta) {
      return `feels like ${round1(prev.feels_like)}${unit} → ${round1(feels)}${unit} (change of ${cfg.temp_delta} or more)`;
    }
  }
  const thr = cfg.rain_threshold_pct;
  if (
    prev.rain_chance_pct !== undefined &&
    next.rain_chance_pct !== undefined &&
    prev.rain_chance_pct < thr !== next.rain_chance_pct < thr
  ) {
    return `rain chance ${prev.rain_chance_pct}% → ${next.rain_chance_pct}% crosses ${thr}%`;
  }
  const [was, now] = [prev.description?.trim().toLowerCase(), next.description?.trim().toLowerCase()];
  if (cfg.conditions && was !== undefined && now !== undefined && was !== now) {
    return `conditions "${prev.description}" → "${next.description}"`;
  }
  if (cfg.day_night && prev.is_day !== undefined && next.is_day !== undefined && prev.is_day !== next.is_day) {
    return next.is_day ? 'night turned to day' : 'day turned to night';
  }
  return null;
}

/** What one scheduled tick of a display costs: requests and credits, worst case and expected. */
export interface TickCost {
  callsWorst: number;
  creditsWorst: number;
  callsExpected: number;
  creditsExpected: number;
  /** Credits a tick would cost without change-aware mode (a recommendation every tick). */
  creditsPlain: number;
}

/**
 * Cost of one tick. Without change-aware mode: one recommendation. With it, worst case a GET /weather and a
 * recommendation every tick. Expected: with a change found at a poll with chance p, and a purchase forced once the
 * outfit is k ticks old (k = ceil(max_age / gap)), a cycle between purchases is L ticks with
 * E[L] = Σ_{i=1..k} (1-p)^(i-1), of which the first min(L, k-1) poll: E[polls] = Σ_{i=1..k-1} (1-p)^(i-1).
 */
export function tickCost(display: DisplayConfig, config: Config, gapMs: number): TickCost {
  const rec = recCost(display);
  const ca = display.change_aware;
  if (ca === undefined) {
    return { callsWorst: 1, creditsWorst: rec, callsExpected: 1, creditsExpected: rec, creditsPlain: rec };
  }
  const w = config.budget.weather_credit_cost;
  const p = ca.expected_change_pct / 100;
  const k = Math.max(1, Math.ceil((ca.max_age_minutes * 60_000) / Math.max(1000, gapMs)));
  let cycle = 0;
  let polls = 0;
  for (let i = 1; i <= k; i++) {
    const reach = (1 - p) ** (i - 1);
    cycle += reach;
    if (i < k) polls += reach;
  }
  return {
    callsWorst: k > 1 ? 2 : 1,
    creditsWorst: k > 1 ? rec + w : rec,
    callsExpected: (1 + polls) / cycle,
    creditsExpected: (rec + polls * w) / cycle,
    creditsPlain: rec,
  };
}
