import { describe, expect, it } from 'vitest';
import { layoutFrame } from '../../src/render/frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { localeFor } from '../../src/i18n/locale.js';
import { sampleInput } from '../fixtures/samples.js';

/**
 * The condition's words beside the temperature (wide-weather.ts): a long language's words may take more lines or a
 * smaller size, never vanish while the number's height has room for them ("Słabe przelotne opady śniegu").
 */

describe('the condition in words beside the number', () => {
  it.each(['trmnl', 'waveshare-7in5-b', 'waveshare-7in5-v2', 'inkplate-10'])(
    '%s in Polish shows "Słabe przelotne opady śniegu" whole where Swedish shows "Lätta snöbyar"',
    (panel) => {
      const texts = (code: string): string =>
        layoutFrame(sampleInput('long', 'Hallway', localeFor(code)), loadPanel(panel), {
          rotation: 0,
        }).report.texts.join(' ');
      expect(texts('sv')).toContain('Lätta snöbyar');
      expect(texts('pl').replace(/\s+/gu, ' ')).toContain('Słabe przelotne opady śniegu');
    },
  );
});
