import { describe, expect, it } from 'vitest';
import { layoutFrame } from '../../src/render/frame.js';
import { ENGLISH } from '../../src/i18n/locale.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { ELLIPSIS } from '../../src/render/text/text-fit.js';
import { crowded, HOSTILE, HOSTILE_URL, hostileInput } from './hostile.js';
import { NORMAL } from '../fixtures/samples.js';

/** Hostile inputs (hostile.ts) on every panel, upright and turned: no lone "…", no crowding, nothing lost that counts. */

const panels = listPanelIds();
const ROTATIONS = [0, 90] as const;
/** Each frame is drawn once for the file's checks (a frame depends only on its input, panel and rotation). */
const drawn = new Map<string, ReturnType<typeof layoutFrame>>();
const render = (rec: (typeof HOSTILE)[string], id: string, rotation: 0 | 90): ReturnType<typeof layoutFrame> => {
  const key = `${JSON.stringify(rec)}|${id}|${rotation}`;
  let d = drawn.get(key);
  if (d === undefined) drawn.set(key, (d = layoutFrame(hostileInput(rec), loadPanel(id), { rotation })));
  return d;
};

describe('hostile inputs', () => {
  it('never draws a lone ellipsis, and keeps texts apart', () => {
    const found: string[] = [];
    for (const id of panels) {
      for (const rotation of ROTATIONS) {
        for (const [name, rec] of Object.entries(HOSTILE)) {
          const { report } = render(rec, id, rotation);
          for (const t of report.texts)
            if (t.trim() === ELLIPSIS) found.push(`${id} ${rotation} ${name}: lone ellipsis`);
          for (const c of crowded(report)) found.push(`${id} ${rotation} ${name}: ${c}`);
        }
      }
    }
    expect(found).toEqual([]);
  }, 300_000);

  it('breaks a 63-character URL rather than shrinking the outfit for it', () => {
    // The same outfit with the URL as words (split where it may break) is the fair measure of its size.
    const spaced = {
      ...HOSTILE.url!,
      outfit: HOSTILE.url!.outfit.replace(HOSTILE_URL, HOSTILE_URL.replace(/([/.?&=])(?=[^/.?&=])/g, '$1 ')),
    };
    for (const id of panels) {
      for (const rotation of ROTATIONS) {
        const url = render(HOSTILE.url!, id, rotation);
        const words = render(spaced, id, rotation);
        const size = url.report.sizes.outfit!;
        // Against the words' smallest size: where they are split into a first sentence and a smaller rest (their
        // spaces make "berlin?" a sentence's end), the rest's size is what the whole would take.
        const fair = Math.min(words.report.sizes.outfit!, words.report.outfitRest?.size ?? Infinity);
        expect(size, `${id} ${rotation}`).toBeGreaterThanOrEqual(Math.floor(fair * 0.9));
        if (fair > url.scale.outfit) expect(size, `${id} ${rotation}`).toBeGreaterThan(url.scale.outfit);
        const shown = [...url.report.outfit!.lines, ...(url.report.outfitRest?.lines ?? [])]
          .map((l) => l.text)
          .join('');
        if (!url.report.outfit!.truncated && !url.report.outfitRest?.truncated)
          expect(shown.replaceAll(' ', '')).toContain(HOSTILE_URL);
      }
    }
  }, 300_000);

  it('cuts a one-word description that does not fit mid-word, never to "…" alone', () => {
    for (const id of panels) {
      const { report } = render(HOSTILE['long-description']!, id, 0);
      const desc = report.texts.filter((t) => t.includes('Thunder'));
      // The small layouts show no description; the others show it cut, after the feels-like temperature or on a
      // line of its own (the feels-like then beside the number).
      if (report.layout !== 'small') expect(desc, id).toHaveLength(1);
      for (const t of desc) expect(t).toMatch(new RegExp(`(^|· )Thunder[a-z]+${ELLIPSIS}$`));
    }
  });

  it('always shows how many alerts are not shown', () => {
    for (const id of panels) {
      for (const rotation of ROTATIONS) {
        const { report } = render(HOSTILE['five-alerts']!, id, rotation);
        const text = report.alerts.flatMap((a) => a.lines.map((l) => l.text)).join(' ');
        // A small panel shows as many as leave its outfit whole (small-alerts.ts), one at least.
        const shown = report.layout === 'small' ? report.alerts.length : report.layout === 'portrait' ? 3 : 2;
        expect(shown, `${id} ${rotation}`).toBeGreaterThanOrEqual(1);
        // All five where they fit (nothing to count), else the count of the others.
        if (shown < 5) expect(text, `${id} ${rotation}`).toContain(`+${5 - shown}`);
        else expect(text, `${id} ${rotation}`).not.toMatch(/\+\d/u);
      }
    }
  });

  it('shows the weather and a note, not a blank panel, for an outfit with nothing to draw', () => {
    for (const name of ['empty-outfit', 'emoji-outfit', 'emoji-signs-outfit']) {
      for (const id of panels) {
        const { report } = render(HOSTILE[name]!, id, 0);
        expect(report.layout, `${id} ${name}`).not.toBe('error');
        expect(report.texts, `${id} ${name}`).toContain('71%');
        expect(report.outfit!.lines.map((l) => l.text).join(' '), `${id} ${name}`).toBe(ENGLISH.labels.no_outfit);
      }
    }
  });

  it('shows a UV index below 1 with its decimal', () => {
    for (const id of ['waveshare-2in9', 'waveshare-2in13', 'waveshare-4in2', 'waveshare-7in5-v2']) {
      const { report } = render(HOSTILE['full-readings']!, id, 0);
      expect(report.texts.join(' | '), id).toMatch(/UV 0[.,]4/);
    }
  });

  it('keeps words of the reasoning whole where a smaller reasoning size holds them', () => {
    // 65 letters: wider than the line at the larger reasoning size on 800x480, not at the scale's.
    const long = 'Rindfleischetikettierungsueberwachungsaufgabenuebertragungsgesetz';
    const rec = { ...NORMAL, outfit: 'A coat.', reasoning: `Mild today; see the ${long} for details.` };
    const { report } = render(rec, 'waveshare-7in5-v2', 0);
    const lines = report.reasoning?.lines.map((l) => l.text) ?? [];
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.some((l) => l.split(' ').includes(long))).toBe(true);
  });
});
