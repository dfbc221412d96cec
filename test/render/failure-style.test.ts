import { describe, expect, it } from 'vitest';
import { layoutFrame, renderIndices, type FrameInput } from '../../src/render/frame.js';
import { frameJson } from '../../src/render/frame-json.js';
import { frameContent } from '../../src/render/layout/content.js';
import type { Box } from '../../src/render/draw/box.js';
import type { TextBox } from '../../src/render/draw/text-box.js';
import { listPanelIds, loadPanel, type PanelProfile } from '../../src/panels/panels.js';
import { localeFor } from '../../src/i18n/locale.js';
import { caseInput, ROTATIONS, type FrameCase } from './frame-cases.js';
import { sampleInput } from '../fixtures/samples.js';

/**
 * Failure looks unlike danger: the service's state (the status band of an error, a lost connection, a refused key;
 * the age badge; "Yesterday's outfit") is outlined on paper, never a filled block as a severe alert's band is, and
 * an error frame never stacks two filled blocks. The weather of an outfit out of date is drawn as old: faded on a
 * grey panel, its temperature hollow on the others.
 */

const en = localeFor('en');
const PANELS = listPanelIds();
/** Panels with greys between black and white: the old weather is faded there. */
const GREY = PANELS.filter((id) => loadPanel(id).palette.some((e) => /^grey/.test(e.name)));

interface Drawn {
  panel: PanelProfile;
  width: number;
  height: number;
  indices: Uint8Array;
  textBoxes: TextBox[];
}

function draw(id: string, input: FrameInput, rotation: 0 | 90 = 0): Drawn {
  const panel = loadPanel(id);
  const d = renderIndices(input, panel, { rotation });
  return { panel, width: d.width, height: d.height, indices: d.indices, textBoxes: d.report.textBoxes };
}

/** Whole pixels of `b` inside the frame. */
function pixels(d: Drawn, b: Box): number[] {
  const out: number[] = [];
  for (let y = Math.max(0, Math.ceil(b.y)); y < Math.min(d.height, Math.floor(b.y + b.h)); y++)
    for (let x = Math.max(0, Math.ceil(b.x)); x < Math.min(d.width, Math.floor(b.x + b.w)); x++)
      out.push(d.indices[y * d.width + x]!);
  return out;
}

const white = (d: Drawn): number => d.panel.palette.findIndex((e) => e.name === 'white');

/** The share of `b`'s pixels that are not paper. */
function inkShare(d: Drawn, b: Box): number {
  const px = pixels(d, b);
  return px.filter((v) => v !== white(d)).length / Math.max(1, px.length);
}

/** The share of the one-pixel ring just outside `b` that is not paper: 1 where `b` is the inside of an outline. */
function ringShare(d: Drawn, b: Box): number {
  const x0 = Math.ceil(b.x) - 1;
  const y0 = Math.ceil(b.y) - 1;
  const x1 = Math.floor(b.x + b.w);
  const y1 = Math.floor(b.y + b.h);
  const ring = [
    ...pixels(d, { x: x0, y: y0, w: x1 - x0 + 1, h: 1 }),
    ...pixels(d, { x: x0, y: y1, w: x1 - x0 + 1, h: 1 }),
    ...pixels(d, { x: x0, y: y0 + 1, w: 1, h: y1 - y0 - 1 }),
    ...pixels(d, { x: x1, y: y0 + 1, w: 1, h: y1 - y0 - 1 }),
  ];
  return ring.filter((v) => v !== white(d)).length / Math.max(1, ring.length);
}

/** The room of the first text drawn that is one of `texts`, or a line that starts with one of them and a space. */
function roomOf(d: Drawn, texts: readonly string[]): Box | undefined {
  return d.textBoxes.find((t) => texts.some((w) => t.text === w || t.text.startsWith(`${w} `)))?.box;
}

/** The words that open the status band: its title on a wall panel, its short form's first word on a small one. */
function statusWords(input: FrameInput): string[] {
  const st = frameContent(input).status!;
  return [st.title, st.title.split(' ')[0]!, st.short.split(' ')[0]!];
}

const FAILED: FrameCase[] = ['error', 'offline', 'key', 'badge-error'];

describe('the service’s state is outlined, never filled like a severe alert', () => {
  it.each(PANELS)(
    '%s: status band, headline and age badge are outlines on paper; a severe alert is a filled band',
    (id) => {
      for (const rotation of ROTATIONS) {
        const alert = draw(id, sampleInput('alert'), rotation);
        const alertRoom = roomOf(
          alert,
          alert.textBoxes.map((t) => t.text).filter((t) => t.startsWith('Severe')),
        );
        expect(alertRoom, `${id} at ${rotation}°: the severe alert`).toBeDefined();
        const alertShare = inkShare(alert, alertRoom!);
        expect(alertShare, `${id} at ${rotation}°: a severe alert's band is filled`).toBeGreaterThan(0.5);
        for (const c of FAILED) {
          const input = caseInput(c, en);
          const d = draw(id, input, rotation);
          const where = `${id} at ${rotation}°, ${c}`;
          const band = roomOf(d, statusWords(input));
          expect(band, `${where}: the status band`).toBeDefined();
          // Inside the outline, the words in ink on paper: a fraction of the ink of a filled band.
          expect(inkShare(d, band!), `${where}: the status band's ink`).toBeLessThan(0.3);
          expect(ringShare(d, band!), `${where}: the status band's outline`).toBeGreaterThan(0.9);
          expect(inkShare(d, band!), where).toBeLessThan(alertShare - 0.3);
          // The error frame's second block: the headline of an outfit of an earlier day, or the age badge.
          const old = roomOf(d, ["Yesterday's"]);
          if (c !== 'badge-error') {
            expect(old, `${where}: the headline`).toBeDefined();
            expect(inkShare(d, old!), `${where}: the headline's ink`).toBeLessThan(0.3);
            expect(ringShare(d, old!), `${where}: the headline's outline`).toBeGreaterThan(0.9);
          }
        }
        // The age badge of an outfit out of date on its own day, without an error: outlined too.
        const badge = draw(id, caseInput('badge', en), rotation);
        const room = roomOf(badge, [frameContent(caseInput('badge', en)).ageBadge!]);
        expect(room, `${id} at ${rotation}°: the badge`).toBeDefined();
        expect(inkShare(badge, room!), `${id} at ${rotation}°: the badge's ink`).toBeLessThan(0.35);
        expect(ringShare(badge, room!), `${id} at ${rotation}°: the badge's outline`).toBeGreaterThan(0.9);
      }
    },
  );
});

/** The temperature's digits as drawn: the box of the bold number "4" (the samples' 4.2 °C), without its unit. */
function digits(d: Drawn): Box {
  const t = d.textBoxes.find((b) => b.font === 'bold' && b.text === '4');
  expect(t, 'the temperature').toBeDefined();
  const { size, x, baseline, box } = t!;
  return { x, y: baseline - 0.73 * size, w: box.w - 0.5 * size, h: 0.73 * size };
}

describe('old weather is drawn as old', () => {
  it.each(PANELS)('%s: an old outfit’s temperature is faded or hollow beside the fresh one', (id) => {
    const fresh = draw(id, sampleInput('normal'));
    const freshBox = digits(fresh);
    const blackIndex = fresh.panel.palette.findIndex((e) => e.name === 'black');
    const freshBlack = pixels(fresh, freshBox).filter((v) => v === blackIndex).length;
    expect(freshBlack, `${id}: the fresh temperature is black`).toBeGreaterThan(50);
    for (const c of ['old', 'error', 'badge'] as const) {
      const input = caseInput(c, en);
      const old = draw(id, input);
      const box = digits(old);
      const json = frameJson(layoutFrame(input, old.panel, { rotation: 0 }), old.panel, 0, '');
      if (GREY.includes(id)) {
        // Faded: a grey lighter than black, and not one pixel of black in the digits.
        const px = pixels(old, box);
        expect(px.filter((v) => v === blackIndex).length, `${id}, ${c}: black in the old temperature`).toBe(0);
        expect(px.filter((v) => v !== white(old)).length, `${id}, ${c}: the old temperature drawn`).toBeGreaterThan(50);
        expect(json.colours.temperature, `${id}, ${c}`).toMatch(/^grey/);
        expect(json.colours.rain_chance, `${id}, ${c}`).toBe(json.colours.temperature);
      } else {
        // Hollow: an outline of the digits, under 65 % of the fresh one's ink in the same room.
        expect(inkShare(old, box), `${id}, ${c}: the old temperature's ink`).toBeLessThan(
          0.65 * inkShare(fresh, freshBox),
        );
        expect(json.icons, `${id}, ${c}`).toContainEqual(
          expect.objectContaining({ name: 'hollow', element: 'temperature' }),
        );
      }
    }
  });
});
