import { describe, expect, it } from 'vitest';
import { conditionOf } from '../../src/domain/condition.js';
import { conditionParts } from '../../src/domain/condition-parts.js';
import { BUILT_IN_LOCALES, localeFor } from '../../src/i18n/locale.js';
import { conditionWords } from '../../src/render/layout/condition-words.js';

/** The service's English descriptions of wet weather, as weather services word them. */
const DESCRIPTIONS = [
  'Light rain',
  'Moderate rain',
  'Heavy rain',
  'Patchy light drizzle',
  'Heavy freezing drizzle',
  'Light rain shower',
  'Moderate or heavy rain shower',
  'Torrential rain shower',
  'Light snow',
  'Heavy snow',
  'Light snow showers',
  'Moderate or heavy snow showers',
  'Light sleet',
  'Moderate or heavy sleet',
  'Thundery outbreaks possible',
  'Heavy rain and thunderstorms',
  'Patchy light rain with thunder',
  'Moderate or heavy rain with thunder',
  'Severe thunderstorms',
];

const words = (description: string, code: string, weather: { temp?: number; temp_unit?: string } = {}) =>
  conditionWords({ condition: conditionOf({ description, ...weather }), description, locale: localeFor(code) });

describe('the parts of a weather description', () => {
  it('reads intensity, showers and both halves of a compound, in the order the description names them', () => {
    expect(conditionParts('Heavy rain and thunderstorms', true)).toEqual([
      { condition: 'rain', intensity: 'heavy', showers: false },
      { condition: 'thunder', intensity: null, showers: false },
    ]);
    expect(conditionParts('Moderate or heavy rain shower', true)).toEqual([
      { condition: 'rain', intensity: 'heavy', showers: true },
    ]);
    expect(conditionParts('Moderate rain', true)).toEqual([{ condition: 'rain', intensity: null, showers: false }]);
    // A sky gives way to the weather under it; "lightning" says nothing of how light.
    expect(conditionParts('Partly cloudy with light rain', true)).toEqual([
      { condition: 'rain', intensity: 'light', showers: false },
    ]);
    expect(conditionParts('Lightning', true)).toEqual([{ condition: 'thunder', intensity: null, showers: false }]);
    // Rain and snow named together are sleet.
    expect(conditionParts('Słaby deszcz ze śniegiem', true)).toEqual([
      { condition: 'sleet', intensity: 'light', showers: false },
    ]);
    expect(conditionParts('Partly cloudy', true)).toEqual([
      { condition: 'partly-day', intensity: null, showers: false },
    ]);
    expect(conditionParts('', true)).toEqual([]);
  });
});

describe('a translated condition keeps its detail', () => {
  it('says the intensity and both parts of a compound in the display language', () => {
    expect(words('Heavy rain and thunderstorms', 'de')).toBe('Starker Regen und Gewitter');
    expect(words('Heavy rain and thunderstorms', 'it')).toBe('Pioggia forte e temporali');
    expect(words('Heavy rain and thunderstorms', 'pl')).toBe('Ulewny deszcz i burze');
    expect(words('Light rain', 'de')).toBe('Leichter Regen');
    expect(words('Light rain shower', 'fr')).toBe('Faibles averses');
    expect(words('Severe thunderstorms', 'sv')).toBe('Kraftiga åskväder');
    // An adjective after "und" is lower case in German; a noun keeps its capital.
    expect(words('Thunderstorms with heavy rain', 'de')).toBe('Gewitter und starker Regen');
    expect(words('Light rain and thunder', 'nl')).toBe('Lichte regen en onweer');
  });

  it('says what the readings corrected, not the text, where they disagree', () => {
    // Rain at −3 °C is sleet on the frame's icon; the words follow the icon, not the text.
    expect(words('Light rain', 'de', { temp: -3, temp_unit: 'C' })).toBe('Schneeregen');
  });

  it.each(BUILT_IN_LOCALES.filter((c) => !c.startsWith('en')))(
    'in %s, says as much as the English: the words read back to the same parts',
    (code) => {
      for (const description of DESCRIPTIONS) {
        const said = words(description, code);
        expect(said, description).not.toBeNull();
        expect(conditionParts(said!, true), `${description} → ${said}`).toEqual(conditionParts(description, true));
      }
    },
  );

  it('keeps the English as the service sent it', () => {
    expect(words('Light rain showers', 'en')).toBe('Light rain showers');
  });
});
