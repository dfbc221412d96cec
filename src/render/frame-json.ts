import type { LayoutSizes } from './layout/blocks.js';
import type { LaidOutFrame, PersonReport } from './frame.js';
import type { GarmentId } from '../domain/garments.js';
import { describeCodePoint } from './text/missing-glyphs.js';
import type { PanelProfile } from '../panels/panels.js';
import type { Rotation } from './encode/rotate.js';
import type { FittedText } from './text/text-fit.js';
import { arcMinutes, capArcMinutes, type Viewing } from './draw/type-scale.js';
import type { FrameElement } from './draw/drawn-log.js';
import { hexToRgb } from '../panels/panels.js';

/**
 * What a frame shows, as JSON (`render --out x.json`): for debugging a layout and for tests. The garments, the
 * texts as drawn (in drawing order), each text block's size and lines, and the sizes the layout chose with the
 * arc minutes their capitals subtend at the panel's viewing distance.
 */

export interface FrameJsonBlock {
  size: number;
  lines: string[];
  truncated: boolean;
}

export interface FrameJsonSize {
  px: number;
  /** Arc minutes of the capitals at `viewing.distance_mm` (for pictograms: of the whole square). */
  arc_minutes: number;
}

/** A symbol drawn: "thunder" for the condition, "coat" in the row, "cloud-drops" for the rain chance, "arrow"… */
export interface FrameJsonIcon {
  name: string;
  /** The element it belongs to; null: drawn outside any, which no layout should do. */
  element: FrameElement | null;
  /** The palette entry it was drawn in: the one that carries its meaning, else the ink ("black"). */
  colour: string;
}

/** One person on the frame (a household frame's, or a one-person frame's one): DESIGN.md's `people`. */
export interface FrameJsonPerson {
  id: string;
  name: string;
  /** What their outfit names (the answer's reading). */
  garments: readonly GarmentId[];
  /** Their pictogram row as drawn, in order ('nothing-extra': the tick). */
  pictograms: string[];
  /** Garments their row left off, counted as "+N" (0: none). */
  pictograms_more: number;
  /** The garments added at their own feels-like (offset), drawn after "+ for <name>". */
  additions: readonly GarmentId[];
  /** Of those, the pictograms drawn. */
  additions_drawn: string[];
  /** Their warmth offset, °C (negative: runs cold). */
  offset_c: number;
  /** Not at home: their last outfit is shown with "Out" beside their name. */
  away: boolean;
  /** Their outfit is marked as old (dashed), by their own answer's age or the display's. */
  stale: boolean;
  /** The outfit text shown, its lines joined; null: none (no answer yet). */
  outfit: string | null;
  /** Sentences of the outfit were left out (or, where a first sentence alone had no room, its end). */
  outfit_truncated: boolean;
  sizes: Partial<Record<'name' | 'pictogram' | 'additions' | 'outfit' | 'outfit_rest', FrameJsonSize>>;
}

export interface FrameJson {
  panel: string;
  width: number;
  height: number;
  rotation: Rotation;
  layout: LaidOutFrame['report']['layout'];
  viewing: { kind: Viewing; distance_mm: number; ppi: number };
  /** What the outfit names, in the vocabulary's order. */
  garments: readonly GarmentId[];
  /** What the pictogram row shows, in order ('nothing-extra': the tick, on a benign day when no garment answers to the weather). */
  pictograms: string[];
  /** Garments the row left off for want of room, counted on the frame as "+N" (0: none). */
  pictograms_more: number;
  outfit: FrameJsonBlock | null;
  outfit_rest: FrameJsonBlock | null;
  reasoning: FrameJsonBlock | null;
  alerts: FrameJsonBlock[];
  sizes: Partial<Record<keyof LayoutSizes, FrameJsonSize>>;
  texts: string[];
  /** Every symbol drawn, in drawing order. */
  icons: FrameJsonIcon[];
  /**
   * Each element drawn and the colour it was drawn in: the palette entry other than black and white it used (red
   * for a freezing temperature, blue for a likely rain), else black; white only for what is drawn in paper alone.
   */
  colours: Partial<Record<FrameElement, string>>;
  /** Characters drawn as a missing-glyph box because no bundled font has them: "U+96E8 (雨)". */
  missing_glyphs: string[];
  /**
   * Scripts no font here has, whose texts the frame says in words it cannot show ("This outfit is in a script this
   * display has no font for (Japanese)"): `{ script: "Japanese", code: "Jpan", elements: ["outfit", "reasoning"] }`.
   */
  missing_scripts: { script: string; code: string; elements: FrameElement[] }[];
  /** The people drawn: a household's, or a one-person frame's one; empty for a frame of the display's outfit. */
  people: FrameJsonPerson[];
  /** sha256 hex of the frame's PNG, as `render --out x.png` writes it. */
  png_sha256: string;
}

function block(f: FittedText | null): FrameJsonBlock | null {
  return f ? { size: f.size, lines: f.lines.map((l) => l.text), truncated: f.truncated } : null;
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

/** The palette entry's name of a CSS colour the surface drew with (its measured ink, else its rgb). */
function paletteNames(panel: PanelProfile): (css: string) => string {
  const names = new Map<string, string>(
    panel.palette.map((e) => {
      const [r, g, b] = hexToRgb(e.ink ?? e.rgb);
      return [`rgb(${r},${g},${b})`, e.name] as const;
    }),
  );
  return (css) => names.get(css.replace(/\s+/g, '')) ?? css;
}

function elementColours(d: LaidOutFrame, nameOf: (css: string) => string): FrameJson['colours'] {
  const out: FrameJson['colours'] = {};
  for (const [element, css] of d.drawn.colours) {
    if (element === null) continue;
    const names = css.map(nameOf);
    out[element] =
      names.find((n) => n !== 'black' && n !== 'white') ?? (names.includes('black') ? 'black' : (names[0] ?? 'black'));
  }
  return out;
}

function personJson(
  p: PersonReport,
  sized: (px: number | null, whole: boolean) => FrameJsonSize | undefined,
): FrameJsonPerson {
  const sizes: FrameJsonPerson['sizes'] = {};
  const put = (key: keyof FrameJsonPerson['sizes'], px: number | null, whole = false): void => {
    const s = sized(px, whole);
    if (s) sizes[key] = s;
  };
  put('name', p.sizes.name);
  put('pictogram', p.sizes.pictogram, true);
  put('additions', p.sizes.additions, true);
  put('outfit', p.sizes.outfit);
  put('outfit_rest', p.sizes.outfitRest);
  return {
    id: p.id,
    name: p.name,
    garments: p.garments,
    pictograms: p.pictograms,
    pictograms_more: p.pictogramsMore,
    additions: p.additions,
    additions_drawn: p.additionsDrawn,
    offset_c: p.offsetC,
    away: p.away,
    stale: p.old,
    outfit: p.outfit,
    outfit_truncated: p.outfitTruncated,
    sizes,
  };
}

export function frameJson(d: LaidOutFrame, panel: PanelProfile, rotation: Rotation, pngSha256: string): FrameJson {
  const { report, scale } = d;
  const nameOf = paletteNames(panel);
  const sizes: FrameJson['sizes'] = {};
  // A pictogram is seen whole: its arc is of its full height, not of a capital's.
  const sized = (px: number | null, whole: boolean): FrameJsonSize | undefined =>
    px === null
      ? undefined
      : {
          px: Math.round(px),
          arc_minutes: round1(
            whole ? arcMinutes(px, scale.ppi, scale.distanceMm) : capArcMinutes(px, scale.ppi, scale.distanceMm),
          ),
        };
  for (const [key, px] of Object.entries(report.sizes) as [keyof LayoutSizes, number | null][]) {
    if (px === null) continue;
    // A pictogram is seen whole: its arc is of its full height, not of a capital's.
    const arc =
      key === 'pictogram' || key === 'weatherIcon'
        ? arcMinutes(px, scale.ppi, scale.distanceMm)
        : capArcMinutes(px, scale.ppi, scale.distanceMm);
    sizes[key] = { px: Math.round(px), arc_minutes: round1(arc) };
  }
  return {
    panel: panel.id,
    width: d.width,
    height: d.height,
    rotation,
    layout: report.layout,
    viewing: { kind: scale.viewing, distance_mm: scale.distanceMm, ppi: round1(scale.ppi) },
    garments: d.garments,
    pictograms: report.pictograms,
    pictograms_more: report.pictogramsMore,
    outfit: block(report.outfit),
    outfit_rest: block(report.outfitRest),
    reasoning: block(report.reasoning),
    alerts: report.alerts.map((a) => block(a)!),
    sizes,
    texts: report.texts,
    icons: d.drawn.icons.map((i) => ({ name: i.name, element: i.element, colour: nameOf(i.colour) })),
    colours: elementColours(d, nameOf),
    missing_glyphs: report.missingGlyphs.map(describeCodePoint),
    missing_scripts: report.missingScripts.map((m) => ({ script: m.name, code: m.code, elements: m.elements })),
    people: report.people.map((p) => personJson(p, sized)),
    png_sha256: pngSha256,
  };
}
