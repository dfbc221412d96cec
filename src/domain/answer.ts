import { conditionOf, type Condition, type ConditionFields } from './condition.js';
import { garmentView, type GarmentId, type GarmentView } from './garments.js';
import { garmentRow, weatherDemands, type DemandFields, type RowItem, type WeatherDemands } from './weather-demands.js';

/**
 * What an answer says beyond its words, read once per answer: the garments its outfit names and the weather condition
 * its icon shows. The frame, `<id>.json`, state.json and the MQTT state all take them from here, so they show the
 * same, and an answer published to four places and drawn again on every refresh is read once (the garment reader
 * runs a dozen regular expressions over each clause).
 */

/** What is read: a Recommendation has both (declared here so that the domain does not import the api layer). */
export interface AnswerText {
  readonly outfit: string;
  readonly weather: ConditionFields & DemandFields;
}

/** The reading of one answer; frozen, shared by everything that shows the answer. */
export interface AnswerReading {
  /** What the outfit names to wear or take, in the vocabulary's order. */
  readonly garments: readonly GarmentId[];
  /** The garments as every published JSON gives them (the same `garments` array, one line of text, yes/no each). */
  readonly garmentView: GarmentView;
  /** The weather condition the frame's icon shows. */
  readonly condition: Condition;
  /** What the weather asks for (rain, cold or sun gear; a benign day), from the readings, not the words. */
  readonly demands: WeatherDemands;
  /** The garment row: the garments in the order the weather asks for them, the tick on a benign day. */
  readonly row: readonly RowItem[];
}

interface Cached {
  readonly outfit: string;
  readonly weather: ConditionFields & DemandFields;
  readonly reading: AnswerReading;
}

/** Per answer object: an answer lives as long as something shows it, and its reading no longer. */
const readings = new WeakMap<AnswerText, Cached>();

/** The answer's reading, worked out at the first call for this answer object and returned as is after. */
export function readAnswer(answer: AnswerText): AnswerReading {
  const hit = readings.get(answer);
  // Answers are not changed once made; one that was anyway (another outfit or weather object) is read again.
  if (hit !== undefined && hit.outfit === answer.outfit && hit.weather === answer.weather) return hit.reading;
  const view = garmentView(answer.outfit);
  const garments = Object.freeze(view.garments);
  const condition = conditionOf(answer.weather);
  const demands = Object.freeze(weatherDemands(answer.weather, condition));
  const reading: AnswerReading = Object.freeze({
    garments,
    garmentView: Object.freeze({ garments, garments_text: view.garments_text, wear: Object.freeze(view.wear) }),
    condition,
    demands,
    row: Object.freeze(garmentRow(garments, demands)),
  });
  readings.set(answer, { outfit: answer.outfit, weather: answer.weather, reading });
  return reading;
}
