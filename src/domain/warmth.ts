import type { GarmentId } from './garment-ids.js';
import { readAnswer, type AnswerText } from './answer.js';
import { celsiusOf, WEATHER_THRESHOLDS } from './weather-demands.js';

/**
 * A person's own warmth (docs/guides/household.md, "Their own warmth"): one offset in °C, negative for someone who
 * runs cold, moved a fixed step by each "too cold" / "too warm" vote, clamped, and fading back toward 0. It never
 * changes what the service said: it adds, as the person's own, the garments the weather demands at their own
 * feels-like (the feels-like plus the offset) that it does not demand at the real one.
 */
export const WARMTH = {
  /** °C a vote moves the offset: a third of the "runs cold / runs warm" −3 / +3 °C of hobby tools, so three votes say as much. */
  stepC: 1,
  /** °C the offset stays within: twice the 1.9–2.9 °C measured between groups, room for one person's extremes. */
  maxC: 6,
  /** Days in which an offset halves with no vote: a season changes what people feel, so an old vote wears off. */
  halfLifeDays: 45,
} as const;

/** The two votes, as the buttons send them. */
export const FEEDBACK = ['too_cold', 'too_warm'] as const;
export type Feedback = (typeof FEEDBACK)[number];

/** One garment added at a feels-like below `belowC`, unless the outfit already has one of `covered`. */
export interface AdditionRule {
  garment: GarmentId;
  /** °C of the person's own feels-like below which the weather demands it. */
  belowC: number;
  /** Garments that already do its work. */
  covered: readonly GarmentId[];
}

/**
 * Warmest first. The thresholds follow the clothing-insulation tables (docs/guides/household.md gives the reasons):
 * a layer is worth about 0.25–0.35 clo, a degree about 0.05–0.06 clo, so each layer comes in some 5 °C after the last;
 * hat, gloves and scarf come at the frame's own "cold" (WEATHER_THRESHOLDS.coldC), so that the addition and the row's
 * order agree about what cold means.
 */
export const ADDITION_RULES: readonly AdditionRule[] = [
  { garment: 'sweater', belowC: 16, covered: ['sweater', 'coat'] },
  { garment: 'jacket', belowC: 13, covered: ['jacket', 'coat', 'raincoat'] },
  { garment: 'scarf', belowC: WEATHER_THRESHOLDS.coldC, covered: ['scarf'] },
  { garment: 'warm-hat', belowC: WEATHER_THRESHOLDS.coldC, covered: ['warm-hat'] },
  { garment: 'gloves', belowC: WEATHER_THRESHOLDS.coldC - 4, covered: ['gloves'] },
  { garment: 'coat', belowC: WEATHER_THRESHOLDS.freezingC + 2, covered: ['coat'] },
];

function demandedAt(feelsC: number, outfit: readonly GarmentId[]): GarmentId[] {
  return ADDITION_RULES.filter((r) => feelsC < r.belowC && !r.covered.some((g) => outfit.includes(g))).map(
    (r) => r.garment,
  );
}

/**
 * What the person adds to the outfit: the garments demanded at `feelsLikeC + offsetC` and not at `feelsLikeC`, that
 * the outfit lacks. Empty for an offset of 0 or above (the frame never takes from the service's outfit), and when the
 * feels-like is unknown.
 */
export function additionsFor(feelsLikeC: number | null, offsetC: number, outfit: readonly GarmentId[]): GarmentId[] {
  if (feelsLikeC === null || !Number.isFinite(feelsLikeC) || !(offsetC < 0)) return [];
  const already = new Set(demandedAt(feelsLikeC, outfit));
  return demandedAt(feelsLikeC + offsetC, outfit).filter((g) => !already.has(g));
}

/**
 * additionsFor an answer: its feels-like in °C (the temperature where it has none, as the garment row reads it,
 * weather-demands.ts) and the garments its outfit names (answer.ts).
 */
export function additionsForAnswer(answer: AnswerText, offsetC: number): GarmentId[] {
  const w = answer.weather;
  const feels = celsiusOf(w.feels_like, w.temp_unit) ?? celsiusOf(w.temp, w.temp_unit);
  return additionsFor(feels, offsetC, readAnswer(answer).garments);
}

/** The offset clamped to ±WARMTH.maxC and rounded to tenths (what is stored and shown). */
export function clampOffset(offsetC: number): number {
  const c = Math.max(-WARMTH.maxC, Math.min(WARMTH.maxC, offsetC));
  return Math.round(c * 10) / 10 || 0;
}

/** The offset after a vote: "too cold" means they need more warmth, so their own feels-like goes down. */
export function voted(offsetC: number, vote: Feedback): number {
  return clampOffset(offsetC + (vote === 'too_cold' ? -WARMTH.stepC : WARMTH.stepC));
}

/** The offset `elapsedMs` after it was last set, faded toward 0 (exponentially, WARMTH.halfLifeDays). */
export function faded(offsetC: number, elapsedMs: number): number {
  if (!(elapsedMs > 0)) return clampOffset(offsetC);
  return clampOffset(offsetC * 0.5 ** (elapsedMs / (WARMTH.halfLifeDays * 86_400_000)));
}
