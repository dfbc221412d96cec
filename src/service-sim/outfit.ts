import type { Unit } from '../api/schemas.js';
import { cToF, kmhToMph } from './units.js';
import type { Conditions } from './conditions.js';

/**
 * The simulated "AI": an outfit composed from the weather (layers, rain gear, shoes, accessories) and a reasoning
 * that links the conditions to the choices. Deterministic for the same conditions and gender.
 */

export const OUTFIT_MODEL = 'outfit-sim-1';
export const MAX_OUTFIT_WORDS = 120;

type Style = 'neutral' | 'feminine' | 'masculine';

export function countWords(text: string): number {
  const words = text.trim().split(/\s+/);
  return words[0] === '' ? 0 : words.length;
}

function styleOf(gender: string | undefined): Style {
  const g = (gender ?? '').trim().toLowerCase();
  if (/^(f|female|woman|women|girl|lady|feminine|she|her)$/.test(g)) return 'feminine';
  if (/^(m|male|man|men|boy|gentleman|masculine|he|him)$/.test(g)) return 'masculine';
  return 'neutral';
}

const SNOWY = new Set(['Snow', 'Light snow', 'Sleet']);

/** Main layers by apparent temperature (°C), worded for the style where it matters. */
function layers(feels: number, style: Style): { text: string; why: string } {
  const pick = (neutral: string, feminine: string, masculine: string): string =>
    style === 'feminine' ? feminine : style === 'masculine' ? masculine : neutral;
  if (feels <= -15)
    return {
      text: 'Dress for severe cold: a thermal base layer, a fleece mid-layer, an insulated down parka and lined trousers.',
      why: 'severe cold needs three insulating layers',
    };
  if (feels <= -5)
    return {
      text: 'Wear a thermal base layer, a warm wool sweater and an insulated winter coat.',
      why: 'freezing air calls for a base layer under a winter coat',
    };
  if (feels <= 3)
    return {
      text: 'Wear a long-sleeve top, a warm sweater and a padded winter jacket.',
      why: 'near-freezing air calls for a padded jacket over a sweater',
    };
  if (feels <= 9)
    return {
      text: `Wear a sweater under a wool coat or lined jacket, with ${pick('long trousers', 'thick tights and a skirt or trousers', 'heavy chinos or jeans')}.`,
      why: 'cold air calls for a coat over a sweater',
    };
  if (feels <= 14)
    return {
      text: 'Wear a long-sleeve shirt with a light jacket or fleece, and jeans.',
      why: 'cool air suits a light jacket',
    };
  if (feels <= 19)
    return {
      text: `Wear ${pick('a long-sleeve shirt or light knit', 'a light blouse or knit top', 'a long-sleeve shirt or light knit')} with chinos or jeans.`,
      why: 'mild air needs only one light layer',
    };
  if (feels <= 25)
    return {
      text: `Wear a t-shirt with ${pick('light trousers', 'light trousers or a midi skirt', 'light chinos')}.`,
      why: 'warm air suits short sleeves',
    };
  if (feels <= 30)
    return {
      text: `Wear a breathable t-shirt with ${pick('shorts', 'shorts or a light summer dress', 'shorts')}.`,
      why: 'hot air calls for breathable, short clothes',
    };
  return {
    text: `Wear loose, light-coloured ${pick('linen or cotton clothes', 'linen clothes or a loose sundress', 'linen shirt and shorts')}.`,
    why: 'very hot air calls for loose, light-coloured fabrics that reflect the sun',
  };
}

function joinList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`;
}

/** Keeps whole sentences while the total stays within `maxWords`; cuts the last one short only if it must. */
export function limitWords(sentences: string[], maxWords: number): string {
  const kept: string[] = [];
  let words = 0;
  for (const s of sentences) {
    const n = countWords(s);
    if (words + n > maxWords) {
      if (kept.length === 0) kept.push(s.split(/\s+/).slice(0, maxWords).join(' '));
      break;
    }
    kept.push(s);
    words += n;
  }
  return kept.join(' ');
}

export interface Composed {
  outfit: string;
  reasoning: string;
}

export function composeOutfit(c: Conditions, unit: Unit, gender?: string): Composed {
  const style = styleOf(gender);
  const imperial = unit === 'imperial';
  const t = (celsius: number): string => (imperial ? `${cToF(celsius)}°F` : `${celsius}°C`);
  const w = (kmh: number): string => (imperial ? `${kmhToMph(kmh)} mph` : `${kmh} km/h`);
  const snowy = SNOWY.has(c.description);
  const wet = c.rainChancePct >= 60;
  const windy = c.windKmh >= 30;

  const main = layers(c.feelsLikeC, style);
  const outfit: string[] = [main.text];
  const why: string[] = [
    `It is ${t(c.tempC)} and ${c.description.toLowerCase()}, feeling like ${t(c.feelsLikeC)}, so ${main.why}.`,
  ];

  if (wet && snowy) {
    outfit.push('Put a waterproof shell over your layers for the snow.');
    why.push(
      `With a ${c.rainChancePct}% chance of precipitation at freezing point, a waterproof shell keeps layers dry.`,
    );
  } else if (wet && windy) {
    outfit.push('Choose a hooded waterproof jacket; an umbrella will not survive this wind.');
    why.push(`A ${c.rainChancePct}% chance of rain with wind at ${w(c.windKmh)} makes a hood better than an umbrella.`);
  } else if (wet) {
    outfit.push('Take a waterproof rain jacket and an umbrella.');
    why.push(`A ${c.rainChancePct}% chance of rain calls for rain gear.`);
  } else if (c.rainChancePct >= 30) {
    outfit.push('Pack a compact umbrella just in case.');
    why.push(`A ${c.rainChancePct}% chance of rain is worth a small umbrella.`);
  }
  if (windy && !wet) {
    outfit.push('A windproof outer layer will keep the gusts out.');
    why.push(`Wind at ${w(c.windKmh)} from the ${c.windDir} cuts through loose knits.`);
  }

  if (snowy) outfit.push('On your feet: insulated, waterproof boots with good grip.');
  else if (wet) outfit.push('On your feet: waterproof shoes or boots.');
  else if (c.feelsLikeC <= 3) outfit.push('On your feet: warm, water-resistant boots.');
  else if (c.feelsLikeC >= 25)
    outfit.push(`On your feet: breathable ${style === 'masculine' ? 'sneakers' : 'sneakers or sandals'}.`);
  else outfit.push('On your feet: comfortable closed shoes or sneakers.');

  const extras: string[] = [];
  if (c.feelsLikeC <= 5) extras.push('a warm hat, scarf and gloves');
  else if (c.feelsLikeC <= 10) extras.push('a light scarf');
  if (c.isDay && c.uvIndex >= 6) {
    extras.push('sunglasses, SPF 30+ sunscreen and a wide-brimmed hat');
    why.push(`The UV index is ${c.uvIndex}, high enough to burn, so protect skin and eyes.`);
  } else if (c.isDay && c.uvIndex >= 3) {
    extras.push('sunglasses and sunscreen');
    why.push(`A UV index of ${c.uvIndex} still calls for sunscreen.`);
  }
  if (c.feelsLikeC >= 28 && c.humidityPct >= 60) extras.push('a bottle of water');
  if (!c.isDay || c.description === 'Fog') {
    extras.push('something reflective to stay visible');
    why.push(
      c.description === 'Fog' ? 'Fog cuts visibility, so wear something reflective.' : 'It is dark out, so be visible.',
    );
  }
  if (extras.length > 0) outfit.push(`Add ${joinList(extras)}.`);
  if (c.description === 'Thunderstorm') outfit.push('Stay indoors during lightning if you can.');

  return { outfit: limitWords(outfit, MAX_OUTFIT_WORDS), reasoning: why.join(' ') };
}
