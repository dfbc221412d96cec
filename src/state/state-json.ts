import { RECOMMENDATION_OPTIONAL, WEATHER_READINGS, type StoredRecommendation } from '../api/schemas.js';
import { readAnswer } from '../domain/answer.js';
import type { FrameStatus } from '../domain/frame-status.js';
import type { GarmentId, GarmentView } from '../domain/garments.js';
import type { RowItem } from '../domain/weather-demands.js';
import type { FramePerson } from '../render/frame.js';
import { timeOrNull } from '../time/zoned-time.js';

/**
 * A display's state as JSON, built here once for the three places it leaves the daemon: `<output_dir>/<id>.json`
 * (the answer's part, which changes only with the answer), `/displays/<id>/state.json` and the MQTT state topic (the
 * whole state; state.json adds its own fields after it). Times carry the configured zone's offset
 * ("2026-01-31T08:00:00.000+01:00"), which Home Assistant's timestamp sensors require.
 */

/** The answer's part: the Recommendation with every listed field present, its garments and `fetched_at`. */
export type AnswerState = Omit<StoredRecommendation, 'weather'> &
  GarmentView & {
    weather: Record<string, unknown>;
    reasoning: unknown;
    model: unknown;
    generated_at: unknown;
  };

/** One person of a household display (docs/guides/household.md), in its `people` order. */
export interface PersonStateJson {
  id: string;
  name: string;
  /** What their outfit names (as the display's `garments`); [] before their first answer. */
  garments: readonly GarmentId[];
  /** The garment row their pictograms show, in the order the weather asks for them ("nothing-extra": the tick). */
  pictograms: readonly RowItem[];
  /** Garments added for them at their own feels-like (domain/warmth.ts), drawn as "+ for <name>". */
  additions: readonly GarmentId[];
  /** Their warmth offset, °C (negative: runs cold). */
  offset_c: number;
  /** Not at home: nothing is bought for them, their last answer stays. */
  away: boolean;
  /** Their outfit text, or null before their first answer. */
  outfit: string | null;
  /** When their answer was bought (the configured zone's offset), or null. */
  fetched_at: string | null;
  /** Their answer is out of date by the schedule (or of no known age). */
  stale: boolean;
}

/** The whole state: the answer's part (when there is an answer), then the schedule's and the staleness's. */
export type DisplayStateJson = Partial<AnswerState> & {
  next_update_at: string | null;
  stale: boolean;
  stale_since: string | null;
  /** A household display's people; absent for a display of one outfit. */
  people?: PersonStateJson[];
  /** Why no purchase is made now: "quiet_hours", "away" (everyone the display dresses), or null. */
  held: 'quiet_hours' | 'away' | null;
};

export interface DisplayStateInput {
  /** The answer on show, or null before the first. */
  readonly rec: StoredRecommendation | null;
  /** The frame's status; absent while no frame is shown (then the state counts as stale). */
  readonly status?: FrameStatus;
  readonly nextUpdateAt: Date | null;
  /** Since when the answer on show is stale by its schedule (DisplayView.staleSince), or null. */
  readonly staleSince?: Date | null;
  /** A household display's people (DisplayView.people); absent for a display of one outfit. */
  readonly people?: readonly FramePerson[];
  /** Why the display buys nothing now (DisplayView.held), or null. */
  readonly held?: 'quiet_hours' | 'away' | null;
}

/** `<id>.json`: the answer, as every state JSON starts. */
export function answerState(rec: StoredRecommendation, timeZone: string): AnswerState {
  // A field the service left out is sent as null, not left out: Home Assistant's templates render null as None,
  // which its MQTT sensors take as "unknown", where a missing key would be a template error.
  const weather: Record<string, unknown> = { ...rec.weather };
  for (const k of WEATHER_READINGS) weather[k] ??= null;
  const optional: Record<(typeof RECOMMENDATION_OPTIONAL)[number], unknown> = {
    reasoning: null,
    model: null,
    generated_at: null,
  };
  for (const k of RECOMMENDATION_OPTIONAL) optional[k] = rec[k] ?? null;
  return {
    ...rec,
    ...optional,
    // The answer's one reading (domain/answer.ts): the frame shows the same garments.
    ...readAnswer(rec).garmentView,
    weather,
    fetched_at: timeOrNull(rec.fetched_at, timeZone) ?? rec.fetched_at,
  };
}

/** state.json and the MQTT state: the answer's part, then when the next update comes and whether it is stale. */
export function displayState(s: DisplayStateInput, timeZone: string): DisplayStateJson {
  const staleSince = s.staleSince ?? null;
  return {
    ...(s.rec !== null && answerState(s.rec, timeZone)),
    next_update_at: timeOrNull(s.nextUpdateAt, timeZone),
    // Old data: no frame yet, anything but a fresh, working cycle, or a slot passed without a new answer.
    stale: s.status === undefined || s.status.kind !== 'ok' || staleSince !== null,
    stale_since: timeOrNull(staleSince, timeZone),
    held: s.held ?? null,
    ...(s.people !== undefined && { people: s.people.map((p) => personState(p, timeZone)) }),
  };
}

/** One person of `people`: their answer read as the display's is (domain/answer.ts), their warmth and presence. */
export function personState(p: FramePerson, timeZone: string): PersonStateJson {
  const reading = p.rec === null ? null : readAnswer(p.rec);
  return {
    id: p.id,
    name: p.name,
    garments: reading?.garments ?? [],
    pictograms: reading?.row ?? [],
    additions: p.additions,
    offset_c: p.offsetC,
    away: p.away,
    outfit: p.rec?.outfit ?? null,
    fetched_at: p.rec === null ? null : (timeOrNull(p.rec.fetched_at, timeZone) ?? p.rec.fetched_at),
    stale: p.stale ?? false,
  };
}
