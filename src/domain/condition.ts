import { numberOrNull } from '../shared/number-or-null.js';

/**
 * The weather condition an answer shows (its icon on the frame): `conditionOf` reads the service's free-text
 * `description` in any of the frame's languages (the service may answer in the owner's), then corrects and completes
 * it with the readings: rain at or below freezing is sleet, night is told by `is_day` (or a UV index of 0), and a
 * description it cannot read falls back to the wind, the rain chance, the humidity and the UV index. It never fails:
 * with nothing to go on the condition is `unknown` (a neutral thermometer). Pure; the drawings are in
 * src/render/pictograms/ (weather-pictograms.ts, icons.ts).
 */

export type Condition =
  | 'clear-day'
  | 'clear-night'
  | 'partly-day'
  | 'partly-night'
  | 'cloudy'
  | 'fog'
  | 'drizzle'
  | 'rain'
  | 'thunder'
  | 'snow'
  | 'sleet'
  | 'wind'
  /** Tornado, hurricane, tropical storm: a funnel, not the thermometer. */
  | 'storm'
  | 'unknown';

type Rule = readonly [RegExp, Condition | ((day: boolean) => Condition)];

/**
 * Keywords in English, German, French, Spanish, Italian, Dutch, Polish and Swedish, matched against the description
 * lower-cased and without accents ("Schneeregen", "averses de pluie", "deszcz ze śniegiem"). First match wins, so
 * the specific comes before the general: sleet before snow and rain, "wolkenlos" before "wolkig".
 */
const RULES: readonly Rule[] = [
  [
    /tornado|tornade|hurricane|ouragan|huracan|uragano|orkaan|huragan|typhoon|taifun|typhon|tifon|cyclone|zyklon|ciclon|cyklon|tropical storm|tropischer sturm|tempete tropicale|tormenta tropical|tempesta tropicale|tropische storm|burza tropikalna|tropisk storm|wirbelsturm|windhose/,
    'storm',
  ],
  [
    /thunder|lightning|t-?storm|gewitter|blitz|orage|tonnerre|tormenta|electrica|temporal[ei]|fulmin|tuon|onweer|donder|bliksem|burz|wyladowan|\baska|askvad/,
    'thunder',
  ],
  [
    /sleet|freezing (rain|drizzle)|ice pellet|hail|wintry|schneeregen|graupel|hagel|glatteis|gefrierender (regen|spruhregen)|gresil|neige fondue|grele|verglac|aguanieve|granizo|lluvia helada|nevischio|grandine|pioggia gelat|natte sneeuw|ijzel|\bgrad\b|deszcz ze sniegiem|marzna|snoblandat|underkyl/,
    'sleet',
  ],
  [/snow|blizzard|flurr|schnee|neige|niev|nevad|nevos|\bneve\b|nevica|sneeuw|snieg|sniez|zamiec|\bsno/, 'snow'],
  [/drizzle|sprinkle|niesel|spruhregen|bruine|crachin|llovizna|pioviggin|motregen|mzawk|duggregn/, 'drizzle'],
  [
    /rain|shower|storm|downpour|regen|schauer|pluie|pluvi|averse|lluvi|chubasco|chaparr|piogg|piovos|rovesci|buien|\bbui\b|deszcz|ulew|opad|regn|\bskur/,
    'rain',
  ],
  [
    /fog|mist|haze|hazy|smoke|dust|sand|ash|nebel|dunst|brouillard|brume|niebla|neblina|bruma|nebbia|foschia|nevel|\bdis\b|dimma|mgla|mglis|zamglen/,
    'fog',
  ],
  [
    /wolkenlos|sans nuage|despejado|sereno|onbewolkt|bezchmurn|molnfri|klar himmel/,
    (d) => (d ? 'clear-day' : 'clear-night'),
  ],
  [
    /partly|partial|mostly (sunny|clear)|scattered|few cloud|broken|intervals|some cloud|sunny spells|teilweise|heiter|leicht bewolkt|wolkig|aufgelockert|partiel|peu nuageux|eclaircie|parcial|intervalos|poco nubos|nubes y claros|parzial|poco nuvolos|schiarit|half bewolkt|licht bewolkt|opklaring|zonnige perioden|czesciow|male zachmurz|umiarkowane zachmurz|przejasn|delvis|halvklart|vaxlande/,
    (d) => (d ? 'partly-day' : 'partly-night'),
  ],
  [
    /overcast|cloud|grey|gray|dull|bewolkt|bedeckt|trub|nuage|couvert|nublado|nubos|cubierto|nuvolos|coperto|betrokken|pochmurn|zachmurz|molnig|mulet/,
    'cloudy',
  ],
  [
    /clear|sunny|sun|fair|fine|bright|klar|sonnig|sonne|ensoleill|degage|soleil|serein|soleado|\bsol\b|soleggiat|\bsole\b|zonnig|helder|\bzon\b|slonecz|pogodn|soligt/,
    (d) => (d ? 'clear-day' : 'clear-night'),
  ],
  [
    /wind|breez|gust|gale|sturm|boig|\bvent|rafale|viento|ventos|racha|raffic|winderig|wiatr|wietrz|porywist|blasig|\bvind|kuling|squall/,
    'wind',
  ],
];

/** Lower case, accents and strokes removed ("Śnieg" → "snieg", "mgła" → "mgla"), so one keyword serves every spelling. */
export function folded(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/ł/g, 'l')
    .replace(/ø/g, 'o')
    .replace(/ß/g, 'ss');
}

/** The condition a description names, or null when no keyword matches. */
export function conditionOfText(description: string, isDay: boolean): Condition | null {
  const s = folded(description);
  for (const [re, c] of RULES) {
    if (re.test(s)) return typeof c === 'function' ? c(isDay) : c;
  }
  return null;
}

/** The readings the condition is told from (all optional, as in a response; the api's Weather has them all). */
export interface ConditionFields {
  description?: string;
  is_day?: boolean;
  temp?: number;
  temp_unit?: string;
  rain_chance_pct?: number;
  humidity_pct?: number;
  uv_index?: number;
  wind_speed?: number;
  wind_speed_unit?: string;
}

/** °C from a temperature in the response's unit (°C, °F, K); null when it cannot be told. */
function celsius(w: ConditionFields): number | null {
  if (typeof w.temp !== 'number' || !Number.isFinite(w.temp)) return null;
  const unit = (w.temp_unit ?? '').replace(/[°\s]/g, '').toUpperCase();
  if (unit === 'C' || unit === 'CELSIUS') return w.temp;
  if (unit === 'F' || unit === 'FAHRENHEIT') return ((w.temp - 32) * 5) / 9;
  if (unit === 'K' || unit === 'KELVIN') return w.temp - 273.15;
  return null;
}

const KMH_PER: Readonly<Record<string, number>> = {
  'km/h': 1,
  kmh: 1,
  kph: 1,
  mph: 1.609344,
  'm/s': 3.6,
  mps: 3.6,
  kn: 1.852,
  kt: 1.852,
  kts: 1.852,
  knots: 1.852,
};

/** km/h from a wind speed in the response's unit; null for a unit it does not know. */
function kmh(w: ConditionFields): number | null {
  if (typeof w.wind_speed !== 'number' || !Number.isFinite(w.wind_speed)) return null;
  const factor = KMH_PER[(w.wind_speed_unit ?? '').trim().toLowerCase()];
  return factor === undefined ? null : w.wind_speed * factor;
}

/** Wind from which the condition is a windsock rather than the sky: Beaufort 7 (near gale), 50 km/h. */
const WINDY_KMH = 50;
/** A rain chance from which, without a description we can read, the condition is rain (or snow below freezing). */
const RAINY_PCT = 50;
/** Humidity from which, with no rain, the air is misty. */
const FOGGY_PCT = 97;

/** Conditions that only say how much sky is clear. */
const SKY: ReadonlySet<Condition> = new Set(['clear-day', 'clear-night', 'partly-day', 'partly-night', 'cloudy']);

/** The condition of the current weather: the description, corrected and completed by the readings (see above). */
export function conditionOf(w: ConditionFields): Condition {
  const uv = numberOrNull(w.uv_index);
  // Without is_day, a UV index above 0 says the sun is up; without either, day.
  const day = w.is_day ?? (uv === null ? true : uv > 0);
  const c = celsius(w);
  const freezing = c !== null && c <= 0;
  const fromText = conditionOfText(w.description ?? '', day);
  if ((fromText === 'rain' || fromText === 'drizzle') && freezing) return 'sleet';
  const wind = kmh(w);
  // A gale matters more for what to wear than the sky it blows under; rain, snow or fog it does not hide.
  if (wind !== null && wind >= WINDY_KMH && (fromText === null || SKY.has(fromText))) return 'wind';
  if (fromText) return fromText;
  const rain = numberOrNull(w.rain_chance_pct);
  if (rain !== null && rain >= RAINY_PCT) return freezing ? 'snow' : 'rain';
  const humidity = numberOrNull(w.humidity_pct);
  if (humidity !== null && humidity >= FOGGY_PCT) return 'fog';
  if (day && uv !== null && uv >= 3 && rain !== null && rain < 20) return 'clear-day';
  return 'unknown';
}
