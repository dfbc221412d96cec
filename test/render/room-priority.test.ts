import { describe, expect, it } from 'vitest';
import { layoutFrame, renderIndices, type FrameInput, type LaidOutFrame } from '../../src/render/frame.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { fitOutfit, type OutfitFit } from '../../src/render/layout/outfit-fit.js';
import { ELLIPSIS } from '../../src/render/text/text-fit.js';
import { badgeInput, isSmallView, ROTATIONS } from './frame-cases.js';
import { ALERT, FIVE_ALERTS, sampleInput, type SampleCase } from '../fixtures/samples.js';
import { ENGLISH } from '../../src/i18n/locale.js';

/**
 * Room by priority on the wall panels (layout-wide.ts, wide-room.ts): every state keeps the outfit whole where the
 * fresh frame does; alerts, most severe first, before the reasoning; a sentence that refuses a garment is the last
 * to be set smaller or cut (outfit-fit.ts); an outfit is cut at a sentence end, never inside one but the first; two
 * severe alert bands never merge.
 */

/** Every view that gets a wall layout: the wall panels, the Kindle, each both ways round. */
const WALL_VIEWS = listPanelIds().flatMap((id) => {
  const panel = loadPanel(id);
  return ROTATIONS.filter((rotation) => !isSmallView(panel, rotation)).map((rotation) => ({ id, panel, rotation }));
});

/** The states a wall shows the normal day's outfit in: a 502, yesterday's, offline, a refused key, and "3 h old". */
const STATES: Readonly<Record<string, () => FrameInput>> = {
  error: () => sampleInput('error'),
  old: () => sampleInput('old'),
  offline: () => sampleInput('offline'),
  key: () => sampleInput('key'),
  stale: () => badgeInput('badge', ENGLISH),
  'stale-error': () => badgeInput('badge-error', ENGLISH),
};

const laid = new Map<string, LaidOutFrame>();
function frame(input: FrameInput, id: string, rotation: 0 | 90): LaidOutFrame {
  const key = `${id}|${rotation}|${JSON.stringify(input)}`;
  let f = laid.get(key);
  if (f === undefined) laid.set(key, (f = layoutFrame(input, loadPanel(id), { rotation })));
  return f;
}

const whole = (f: LaidOutFrame): boolean =>
  f.report.outfit !== null && !f.report.outfit.truncated && !(f.report.outfitRest?.truncated ?? false);

/** The outfit's words as shown, lead and rest. */
const shownText = (f: Pick<OutfitFit, 'lead' | 'rest'>): string =>
  [...f.lead.lines, ...(f.rest?.lines ?? [])].map((l) => l.text).join(' ');

/** The outfit's words as a frame shows them. */
const frameText = (f: LaidOutFrame): string => shownText({ lead: f.report.outfit!, rest: f.report.outfitRest });

/** The input of a sample case with another answer. */
const withRec = (c: SampleCase, rec: FrameInput['rec']): FrameInput => ({ ...sampleInput(c), rec });

describe('every state keeps the outfit whole where the fresh frame does', () => {
  it('on every wall panel and the Kindle, both ways round, at the type scale’s outfit size at least', () => {
    const lost: string[] = [];
    let compared = 0;
    for (const { id, rotation } of WALL_VIEWS) {
      const fresh = frame(sampleInput('normal'), id, rotation);
      if (!whole(fresh)) continue;
      for (const [state, input] of Object.entries(STATES)) {
        const f = frame(input(), id, rotation);
        compared++;
        if (!whole(f)) lost.push(`${id} at ${rotation}° ${state}: "${frameText(f).slice(-40)}"`);
        else if (f.report.sizes.outfit! < f.scale.outfit) lost.push(`${id} at ${rotation}° ${state}: smaller`);
      }
    }
    // The Kindle both ways round and the 7.5", 7.3", TRMNL and Inkplate panels.
    expect(compared).toBeGreaterThanOrEqual(6 * 16);
    expect(lost).toEqual([]);
  }, 120_000);

  it('cuts an outfit only at a sentence end, unless its first sentence alone is too long for the frame', () => {
    const found: string[] = [];
    for (const { id, rotation } of WALL_VIEWS)
      for (const c of ['long', 'normal', 'alert', 'error', 'old', 'key'] as const) {
        const f = frame(sampleInput(c), id, rotation);
        if (whole(f)) continue;
        const text = frameText(f);
        const first = f.report.outfit!.lines.map((l) => l.text).join(' ');
        const inFirst = f.report.outfitRest === null && !/[.!?;]\s/.test(first);
        if (!/[.!?;]$/.test(text) && !inFirst) found.push(`${id} at ${rotation}° ${c}: "…${text.slice(-30)}"`);
      }
    expect(found).toEqual([]);
  }, 120_000);
});

describe('a sentence that refuses a garment', () => {
  const opts = { font: 'condensed' as const, width: 300, maxSize: 200, minSize: 24, restMin: 14, lineHeight: 1.1 };
  const refusals = [
    'Leave the umbrella at home, the gusts will break it.',
    'An umbrella is not needed today.',
    "Don't bother with sunglasses.",
  ];

  it.each(refusals)('"%s" is set smaller only with every sentence after the first, last', (no) => {
    const first = 'Wear a warm wool coat over a thick sweater and boots.';
    const text = `${first} ${no} Gloves keep your hands warm on the long walk to the station and back home again tonight.`;
    const tail = no.split(' ').slice(-2).join(' ');
    let inLead = 0;
    for (let height = 80; height <= 600; height += 10) {
      const fit = fitOutfit({ ...opts, text, height, gap: 6 });
      if (fit.rest === null || fit.truncated) continue;
      const lead = fit.lead.lines.map((l) => l.text).join(' ');
      // Set apart, it is in the larger lead with the first sentence, and only the sentence after it is smaller...
      if (lead.includes(tail)) inLead++;
      // ...or, where that does not fit whole, it is smaller with all that follows the first sentence.
      else expect(lead, `${height} px`).toBe(first);
    }
    expect(inLead).toBeGreaterThan(0);
  });

  it.each(refusals)('"%s" is kept while the sentences that refuse nothing are left out', (no) => {
    const text = `Wear a warm wool coat over a thick sweater and boots. Gloves keep your hands warm on the walk. ${no}`;
    let cut = 0;
    for (let height = 60; height <= 400; height += 10) {
      const fit = fitOutfit({ ...opts, text, height, gap: 6 });
      if (!fit.truncated) continue;
      const shown = shownText(fit);
      if (shown.length <= 'Wear a warm wool coat over a thick sweater and boots.'.length) continue;
      cut++;
      expect(shown, `${height} px`).toContain(no);
      // Whole sentences, but for a first sentence cut after a whole word where it alone leaves the refusal no room.
      const cutFirst = fit.inSentence ? shown.indexOf(ELLIPSIS) : -1;
      if (cutFirst >= 0) expect(fit.lead.lines.at(-1)!.text.endsWith(ELLIPSIS), `${height} px`).toBe(true);
      expect(shown.slice(cutFirst + 1), `${height} px`).not.toContain(ELLIPSIS);
    }
    expect(cut).toBeGreaterThan(0);
  });

  it.each(refusals)('"%s" is never given up before the first sentence is cut', (no) => {
    const first = 'Stay dry: a hooded waterproof shell over a fleece, quick-drying trousers, and rubber boots.';
    let kept = 0;
    for (let height = 60; height <= 400; height += 10) {
      const fit = fitOutfit({ ...opts, text: `${first} ${no}`, height, gap: 6 });
      const shown = shownText(fit);
      if (!fit.truncated || fit.rest === null) continue;
      kept++;
      // The first sentence cut after a whole word, the refusal whole below it.
      expect(fit.inSentence, `${height} px`).toBe(true);
      expect(fit.lead.lines.at(-1)!.text, `${height} px`).toMatch(new RegExp(`${ELLIPSIS}$`, 'u'));
      expect(shown, `${height} px`).toContain(no.slice(1));
    }
    expect(kept).toBeGreaterThan(0);
  });

  it('keeps "Leave the umbrella at home" on a 2.13" hung sideways, the first sentence cut', () => {
    const f = frame(sampleInput('alert'), 'waveshare-2in13', 90);
    expect(frameText(f)).toContain('Leave the umbrella at home, the gusts will break it.');
  });

  it('keeps "Leave the umbrella at home" at the outfit’s size on the 7.3" panels, where it was set apart smaller', () => {
    for (const id of ['waveshare-7in3-f', 'inky-impression-7in3']) {
      const f = frame(sampleInput('alert'), id, 0);
      expect(whole(f), id).toBe(true);
      expect(f.report.outfit!.lines.map((l) => l.text).join(' '), id).toContain('gusts will break it.');
      expect(f.report.outfitRest, id).toBeNull();
    }
  });
});

describe('alerts before the reasoning', () => {
  const inputs: Readonly<Record<string, FrameInput>> = {
    alert: sampleInput('alert'),
    five: withRec('alert', FIVE_ALERTS),
    'alert-short-outfit': withRec('alert', { ...ALERT, outfit: 'A rain jacket and boots.' }),
  };

  it('never cuts an alert while the reasoning is shown, on any wall panel', () => {
    const found: string[] = [];
    let shown = 0;
    for (const { id, rotation } of WALL_VIEWS)
      for (const [name, input] of Object.entries(inputs)) {
        const { report } = frame(input, id, rotation);
        if (report.reasoning === null) continue;
        shown++;
        const cut = report.alerts.filter((a) => a.truncated).map((a) => a.lines.map((l) => l.text).join(' '));
        if (cut.length > 0) found.push(`${id} at ${rotation}° ${name}: ${cut.join(' | ')}`);
      }
    expect(shown).toBeGreaterThan(10);
    expect(found).toEqual([]);
  }, 120_000);

  it('keeps the most severe of five alerts whole on the 7.5" and 7.3" panels, and cuts the least severe first', () => {
    // An alert is cut only after every alert below it is.
    for (const { id, rotation } of WALL_VIEWS) {
      const cut = frame(inputs.five!, id, rotation).report.alerts.map((a) => a.truncated);
      if (cut.includes(true)) expect(cut.slice(cut.indexOf(true)), `${id} at ${rotation}°`).not.toContain(false);
    }
    for (const id of ['waveshare-7in5-v2', 'waveshare-7in3-f', 'inky-impression-7in3', 'trmnl'])
      for (const rotation of ROTATIONS) {
        const { report } = frame(inputs.five!, id, rotation);
        const first = report.alerts[0]!;
        expect(first.truncated, `${id} at ${rotation}°`).toBe(false);
        expect(first.lines.map((l) => l.text).join(' '), `${id} at ${rotation}°`).toBe(
          'Extreme wind warning: gusts up to 120 km/h along the coast',
        );
        expect(whole(frame(inputs.five!, id, rotation)), `${id} at ${rotation}°`).toBe(true);
      }
  });

  it('keeps two severe bands apart: a row of paper between them across the band (7.5", 1-bit)', () => {
    const panel = loadPanel('waveshare-7in5-v2');
    const paper = panel.palette.findIndex((e) => e.rgb === '#ffffff');
    for (const rotation of ROTATIONS) {
      const d = renderIndices(inputs.five!, panel, { rotation });
      const [a, b] = d.report.alerts;
      const ink = (t: string) => d.report.inks.find((i) => i.text === t)!;
      const above = ink(a!.lines[a!.lines.length - 1]!.text);
      const below = ink(b!.lines[0]!.text);
      // Between the first band's last line and the second's first: some row where the band's width is all paper.
      let gap = 0;
      for (let y = Math.ceil(above.bottom); y < Math.floor(below.top); y++) {
        let blank = true;
        for (let x = 20; x < d.width - 20 && blank; x++) blank = d.indices[y * d.width + x] === paper;
        if (blank) gap++;
      }
      expect(gap, `at ${rotation}°`).toBeGreaterThanOrEqual(2);
    }
  });
});
