import { createHash } from 'node:crypto';
import type { LayoutReport } from './layout/blocks.js';
import { frameContent, type FrameContent, type FrameInput } from './layout/content.js';
import { householdContent, onePersonContent } from './layout/household-content.js';
import { layoutHousehold } from './layout/layout-household.js';
import type { PersonReport } from './layout/person-report.js';
import { encodeBmp1 } from './encode/bmp.js';
import { layoutError } from './layout/layout-error.js';
import { collectMissingGlyphs } from './text/missing-glyphs.js';
import { withUnshownScripts, type UnshownScript } from './layout/unshown-text.js';
import { layoutSmall } from './layout/layout-small.js';
import { layoutWide } from './layout/layout-wide.js';
import { hexToRgb, ppiOf, type PanelProfile } from '../panels/panels.js';
import { encodePng } from './encode/png.js';
import { quantize, type Dither, type Rgb } from './encode/quantize.js';
import { encodeRaw } from './encode/raw.js';
import type { Rotation } from './encode/rotate.js';
import { createSurface, releaseSurface, type SurfaceCanvases } from './draw/surface.js';
import type { DrawnLog } from './draw/drawn-log.js';
import type { Rect } from './text/text-layer.js';
import { typeScale, type TypeScale } from './draw/type-scale.js';
import type { GarmentId } from '../domain/garments.js';

export type { FrameInput, FramePerson } from './layout/content.js';
export type { Dither } from './encode/quantize.js';
export type { UnshownScript } from './layout/unshown-text.js';
export type { PersonReport } from './layout/person-report.js';

export interface RenderOptions {
  /** How the panel is mounted: 90 = turned a quarter clockwise, so the picture is portrait. */
  rotation: Rotation;
  /** For icons and grey fills only; text and lines are never dithered. Default Floyd–Steinberg. */
  dither?: Dither;
}

export interface Frame {
  /** The picture as seen, after rotation (800x480 at 0, 480x800 at 90 for a 7.5" panel). */
  width: number;
  height: number;
  /** At the panel's native depth: 1-bit grey, 2/4/8-bit grey, or indexed for colour panels. */
  png: Buffer;
  /** 1-bit BMP, black/white panels only. */
  bmp: Buffer | null;
  /** The framebuffer in the controller's native order and packing. */
  raw: Buffer;
  /** sha256 hex of `png`. */
  hash: string;
  /** Code points drawn as a missing-glyph box (renderFrame fills it; absent: none known). */
  missingGlyphs?: number[];
  /** Scripts no font has, whose texts the frame said in words it cannot show (renderFrame fills it; absent: none known). */
  missingScripts?: UnshownScript[];
}

export type LayoutKind = LayoutReport['layout'];

/** Which layout a frame of this size gets (and whether there is an outfit at all). */
export function chooseLayout(width: number, height: number, hasOutfit: boolean): LayoutKind {
  if (!hasOutfit) return 'error';
  // Below about 0.75 of the large layouts' size their labels would be too small to read: the small layout scales up.
  if (Math.min(width, height) < 200) return 'small';
  if (height > width) return Math.min(width / 480, height / 800) < 0.75 ? 'small' : 'portrait';
  return Math.min(width / 800, height / 480) < 0.75 ? 'small' : 'landscape';
}

/** Layout units to px: 1 unit is 1 px on 800x480 (landscape), 480x800 (portrait) or 128 px high (small). */
function unitFor(kind: LayoutKind, width: number, height: number): number {
  if (kind === 'small')
    return height > width ? Math.min(width / 128, height / 296) : Math.min(height / 128, width / 250);
  if (kind === 'portrait') return Math.min(width / 480, height / 800);
  return Math.min(width / 800, height / 480);
}

export function viewSize(panel: PanelProfile, rotation: Rotation): { width: number; height: number } {
  return rotation === 90 || rotation === 270
    ? { width: panel.height, height: panel.width }
    : { width: panel.width, height: panel.height };
}

/** The colours the quantizer matches against: measured inks where the profile has them. */
export function matchPalette(panel: PanelProfile): Rgb[] {
  return panel.palette.map((e) => hexToRgb(e.ink ?? e.rgb));
}

export interface DetailedFrame {
  width: number;
  height: number;
  /** One palette index a pixel, as seen. */
  indices: Uint8Array;
  report: LayoutReport;
  /** What was drawn, element by element: the symbols and each element's colours, as CSS colours (drawn-log.ts). */
  drawn: DrawnLog;
  /** What the outfit names (the pictogram row may show fewer where they do not fit). */
  garments: readonly GarmentId[];
  /** The type scale the layout used. */
  scale: TypeScale;
  /** The first line of the frame's smallest text, as seen (for zoomed crops, zoom-crop.ts); null: no text. */
  smallestText: { size: number; box: Rect } | null;
}

/** A frame laid out and drawn, before its pixels are read: what it placed and drew, all its JSON says. */
export type LaidOutFrame = Omit<DetailedFrame, 'indices'>;

/**
 * The frame's words and its layout. Texts in a script no font has are said to be so in words, never drawn as boxes
 * (unshown-text.ts). A household (`input.people`) is drawn whole on a wall panel, one person or four; where the panel
 * is too small for columns, the frame is one person's own: `input.onePerson`'s, else the first's (the daemon chooses
 * whom: src/household/person-turn.ts).
 */
function prepareContent(
  input: FrameInput,
  width: number,
  height: number,
): { content: FrameContent; unshown: UnshownScript[]; kind: LayoutKind } {
  const has = (c: FrameContent): boolean => c.outfit !== null && c.weather !== null;
  const people = input.people ?? [];
  if (people.length > 0) {
    const all = householdContent(input, people);
    const kind = chooseLayout(width, height, has(all.content));
    if (kind !== 'small') return { ...all, kind };
  }
  const one = people.find((p) => p.id === input.onePerson) ?? people[0];
  const prepared = one !== undefined ? onePersonContent(input, one) : withUnshownScripts(frameContent(input));
  return { ...prepared, kind: chooseLayout(width, height, has(prepared.content)) };
}

/** What a one-person frame drew of its person: the layout's row and outfit, and their additions. */
function onePersonReport(c: FrameContent, report: LayoutReport, box: PersonReport['box']): PersonReport {
  const p = c.people![0]!;
  const lines = [report.outfit, report.outfitRest].flatMap((t) => t?.lines.map((l) => l.text) ?? []);
  return {
    id: p.id,
    name: p.name,
    garments: c.garments,
    pictograms: report.pictograms,
    pictogramsMore: report.pictogramsMore,
    additions: p.additions,
    additionsDrawn: report.additionsDrawn,
    offsetC: p.offsetC,
    away: p.away,
    old: c.old,
    outfit: lines.length > 0 ? lines.join(' ') : null,
    outfitTruncated: (report.outfit?.truncated ?? false) || (report.outfitRest?.truncated ?? false),
    sizes: {
      name: null,
      pictogram: report.sizes.pictogram,
      additions: report.additionsDrawn.length > 0 ? report.sizes.pictogram : null,
      outfit: report.sizes.outfit,
      outfitRest: report.sizes.outfitRest,
    },
    box,
  };
}

/** The frame drawn on its surface; the caller reads the pixels (or not) and releases the canvases. */
function drawFrame(
  input: FrameInput,
  panel: PanelProfile,
  opts: RenderOptions,
): { laid: LaidOutFrame; canvases: SurfaceCanvases; palette: Rgb[] } {
  const { width, height } = viewSize(panel, opts.rotation);
  const { content, unshown, kind } = prepareContent(input, width, height);
  const palette = matchPalette(panel);
  // Small panels are read at arm's length, the others on a wall from 2 m (type-scale.ts).
  const scale = typeScale(
    kind === 'small' || (kind === 'error' && Math.min(width, height) < 200) ? 'hand' : 'wall',
    ppiOf(panel),
  );
  const canvases = createSurface(width, height, panel, palette, unitFor(kind, width, height), scale, content.old);
  const { surface } = canvases;
  // Characters drawn as boxes are collected here, not logged: the caller logs them (glyph-warnings.ts).
  const { result: report, missing } = collectMissingGlyphs(() =>
    kind === 'error'
      ? layoutError(surface, content)
      : kind === 'small'
        ? layoutSmall(surface, content)
        : content.people && content.people.length > 0
          ? layoutHousehold(surface, content, kind)
          : layoutWide(surface, content, kind),
  );
  // A small panel's one-person frame draws that person's outfit as the display's, with their additions.
  if (report.people.length === 0 && content.people?.length === 1 && kind !== 'error')
    report.people.push(onePersonReport(content, report, { x: 0, y: 0, w: width, h: height }));
  report.missingGlyphs = missing;
  report.missingScripts = unshown;
  const laid: LaidOutFrame = {
    width,
    height,
    report,
    drawn: surface.drawn,
    garments: content.garments,
    scale,
    smallestText: surface.text.smallestText(),
  };
  return { laid, canvases, palette };
}

/**
 * The layout alone: what a frame places and draws, without reading or quantizing its pixels (a third of a frame's
 * time). What `render --out x.json` describes, and all the layout checks read.
 */
export function layoutFrame(input: FrameInput, panel: PanelProfile, opts: RenderOptions): LaidOutFrame {
  const { laid, canvases } = drawFrame(input, panel, opts);
  releaseSurface(canvases);
  return laid;
}

/** Layout and quantization: palette indices of the picture as seen, with what the layout placed. */
export function renderIndices(input: FrameInput, panel: PanelProfile, opts: RenderOptions): DetailedFrame {
  const { laid, canvases, palette } = drawFrame(input, panel, opts);
  const { surface, crispCanvas, toneCanvas } = canvases;
  const { width, height } = laid;
  const crisp = crispCanvas.getContext('2d').getImageData(0, 0, width, height).data;
  const tone = toneCanvas.getContext('2d').getImageData(0, 0, width, height).data;
  releaseSurface({ crispCanvas, toneCanvas });
  const indices = quantize({
    width,
    height,
    text: surface.text.index,
    textCover: surface.text.cover,
    crisp,
    tone,
    palette,
    dither: opts.dither ?? 'floyd-steinberg',
  });
  return { ...laid, indices };
}

/** PNG samples for each palette index: grey levels at the PNG's depth, or the index itself. */
function pngSamples(panel: PanelProfile, indices: Uint8Array): Uint8Array {
  if (panel.png.colour_type === 'indexed') return indices;
  const max = 2 ** panel.png.bit_depth - 1;
  const lut = Uint8Array.from(panel.palette.map((e) => (hexToRgb(e.rgb)[0] * max) / 255));
  const out = new Uint8Array(indices.length);
  for (let i = 0; i < indices.length; i++) out[i] = lut[indices[i]!]!;
  return out;
}

export function encodeFramePng(panel: PanelProfile, width: number, height: number, indices: Uint8Array): Buffer {
  return encodePng({
    width,
    height,
    colourType: panel.png.colour_type,
    bitDepth: panel.png.bit_depth,
    samples: pngSamples(panel, indices),
    palette: panel.png.colour_type === 'indexed' ? panel.palette.map((e) => hexToRgb(e.rgb)) : undefined,
  });
}

export function encodeFrame(
  panel: PanelProfile,
  rotation: Rotation,
  d: Pick<DetailedFrame, 'width' | 'height' | 'indices'>,
): Frame {
  const png = encodeFramePng(panel, d.width, d.height, d.indices);
  const white = panel.palette.findIndex((e) => e.rgb === '#ffffff');
  const bmp = panel.bmp
    ? encodeBmp1({
        width: d.width,
        height: d.height,
        bits: d.indices,
        white,
        pixelsPerMetre: (Math.hypot(panel.width, panel.height) / panel.diagonal_in) * (1000 / 25.4),
      })
    : null;
  const raw = encodeRaw(d.indices, d.width, d.height, panel, rotation);
  return { width: d.width, height: d.height, png, bmp, raw, hash: createHash('sha256').update(png).digest('hex') };
}

/** Renders one frame, exact for the panel. Deterministic: the same input gives the same bytes. */
export async function renderFrame(input: FrameInput, panel: PanelProfile, opts: RenderOptions): Promise<Frame> {
  await Promise.resolve();
  const detailed = renderIndices(input, panel, opts);
  return {
    ...encodeFrame(panel, opts.rotation, detailed),
    missingGlyphs: detailed.report.missingGlyphs,
    missingScripts: detailed.report.missingScripts,
  };
}
