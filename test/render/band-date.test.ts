import { describe, expect, it } from 'vitest';
import { layoutFrame } from '../../src/render/frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { localeFor } from '../../src/i18n/locale.js';
import { formatDate } from '../../src/render/layout/format.js';
import { LONG, sampleInput } from '../fixtures/samples.js';

/** The date on wall panels: in the band, in the display's language and zone. */
describe("the frame's date", () => {
  // 23:30 UTC on Friday is already Saturday in Berlin: the display's zone decides the day.
  const now = new Date('2026-11-27T23:30:00.000Z');
  // The sample's outfit made a quarter of an hour before: a current one (an outfit days old is withdrawn).
  const at = <T extends { rec: { fetched_at: string } | null }>(input: T): T => ({
    ...input,
    now,
    rec: input.rec && { ...input.rec, fetched_at: '2026-11-27T23:15:00.000Z' },
  });

  it("is written in the display's language and time zone", () => {
    expect(formatDate(now, 'Europe/Berlin')).toEqual({ long: 'Saturday 28 November', short: 'Sat 28 Nov' });
    expect(formatDate(now, 'America/New_York').long).toBe('Friday 27 November');
    expect(formatDate(now, 'Europe/Berlin', localeFor('de')).long).toBe('Samstag, 28. November');
    expect(formatDate(now, 'Europe/Berlin', localeFor('pl')).long).toMatch(/sobota, 28 listopada/);
  });

  it.each([
    ['waveshare-7in5-v2', 0],
    ['waveshare-7in5-v2', 90],
    ['inkplate-10', 0],
  ] as const)('%s at %i°: shows in the band, whole, beside the name and the time', (panel, rotation) => {
    const { report } = layoutFrame(at(sampleInput('normal', 'Hallway', localeFor('de'))), loadPanel(panel), {
      rotation,
    });
    expect(report.texts).toContain('Samstag, 28. November');
    expect(report.texts).toContain('Hallway');
  });

  it('takes no room from a 120-word outfit on the 7.5": it is drawn as it is without the date', () => {
    for (const rotation of [0, 90] as const) {
      const draw = (name: string) =>
        layoutFrame(at({ ...sampleInput('long', name), rec: LONG }), loadPanel('waveshare-7in5-v2'), { rotation })
          .report;
      const withDate = draw('Hallway');
      expect(
        withDate.texts.some((t) => t === 'Saturday 28 November' || t === 'Sat 28 Nov'),
        `${rotation}°`,
      ).toBe(true);
      // A name that leaves the date no room: the same outfit, line for line, at the same sizes.
      const without = draw('The downstairs hallway by the front door of the old house, '.repeat(3));
      expect(without.texts.join(' '), `${rotation}°`).not.toMatch(/Saturday|Sat 28/);
      expect(withDate.outfit, `${rotation}°`).toEqual(without.outfit);
      expect(withDate.outfitRest, `${rotation}°`).toEqual(without.outfitRest);
      expect(withDate.sizes.outfit).toBe(without.sizes.outfit);
    }
  });

  it('gives way to a long name: the short form, or none, never a cut name or date', () => {
    const name = 'The downstairs hallway by the front door';
    const { report } = layoutFrame(at(sampleInput('normal', name)), loadPanel('waveshare-7in5-v2'), { rotation: 90 });
    const drawn = report.texts.join(' | ');
    expect(drawn).not.toMatch(/Saturday 28 Nov(?!ember)|Sat 28 N(?!ov)/);
  });

  it('is not on small panels, which have no band for it', () => {
    const { report } = layoutFrame(at(sampleInput('normal')), loadPanel('waveshare-2in9'), { rotation: 0 });
    expect(report.texts.join(' ')).not.toMatch(/Saturday|Sat 28/);
  });
});
