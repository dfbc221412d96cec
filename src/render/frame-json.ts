import type { LayoutSizes } from './layout/blocks.js';
import type { DetailedFrame } from './frame.js';
import type { GarmentId } from '../domain/garments.js';
import { describeCodePoint } from './text/missing-glyphs.js';
import type { PanelProfile } from '../panels/panels.js';
import type { Rotation } from './encode/rotate.js';
import type { FittedText } from './text/text-fit.js';
import { arcMinutes, capArcMinutes, type Viewing } from './draw/type-scale.js';

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

export interface FrameJson {
  panel: string;
  width: number;
  height: number;
  rotation: Rotation;
  layout: DetailedFrame['report']['layout'];
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
  /** Characters drawn as a missing-glyph box because no bundled font has them: "U+96E8 (雨)". */
  missing_glyphs: string[];
  /** sha256 hex of the frame's PNG, as `render --out x.png` writes it. */
  png_sha256: string;
}

function block(f: FittedText | null): FrameJsonBlock | null {
  return f ? { size: f.size, lines: f.lines.map((l) => l.text), truncated: f.truncated } : null;
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

export function frameJson(d: DetailedFrame, panel: PanelProfile, rotation: Rotation, pngSha256: string): FrameJson {
  const { report, scale } = d;
  const sizes: FrameJson['sizes'] = {};
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
    missing_glyphs: report.missingGlyphs.map(describeCodePoint),
    png_sha256: pngSha256,
  };
}
