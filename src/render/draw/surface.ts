import { createCanvas, type Canvas, type CanvasRenderingContext2D } from 'canvas';
import { fadedInk, meaningInks, type MeaningInks } from './colour-meaning.js';
import { hexToRgb, type PanelProfile } from '../../panels/panels.js';
import type { Rgb } from '../encode/quantize.js';
import { TextLayer } from '../text/text-layer.js';
import { DrawnLog } from './drawn-log.js';
import type { TypeScale } from './type-scale.js';

/**
 * What layouts draw on, all of the frame's size:
 * - `text`: glyphs at 1 bit (text-layer.ts), over everything else.
 * - `crisp`: lines, marks and pictograms, transparent ground, drawn without anti-aliasing; never dithered.
 * - `tone`: grey areas and pictures, white ground; dithered (the layouts' marks are line art on `crisp`).
 * `theme` names colours that are exact palette inks where the panel has them, so solid fills do not dither.
 */

export interface Theme {
  ink: string;
  paper: string;
  /** Danger (alerts): its stroke ink (red where it stands apart from black and paper), else black. */
  danger: string;
  /**
   * The service's and the display's own state (error bands, the old outfit's badge and headline, the status marks):
   * black. It is news about the display, not a danger, and never takes a warning colour (colour-meaning.ts).
   */
  status: string;
  /** How each meaning is painted, stroke and fill (colour-meaning.ts); null where the panel has no colour for it. */
  meaning: MeaningInks;
  /** What is as old as the outfit, on a grey panel: a lighter grey (colour-meaning.ts fadedInk); null elsewhere. */
  faded: string | null;
}

export interface Surface {
  width: number;
  height: number;
  text: TextLayer;
  crisp: CanvasRenderingContext2D;
  tone: CanvasRenderingContext2D;
  theme: Theme;
  /** Layout units to px: 1 unit is 1 px on a 800x480 (or 480x800) frame. */
  unit: number;
  /** Text sizes for how far away this panel is read (type-scale.ts). */
  scale: TypeScale;
  /** The weather on the frame is as old as its outfit (content.ts `old`): readings.ts draws it as old. */
  old: boolean;
  /** What was drawn, by element (drawn-log.ts): symbols and colours, for the frame's JSON. */
  drawn: DrawnLog;
}

function inkOf(panel: PanelProfile, name: string): string | undefined {
  const e = panel.palette.find((p) => p.name === name);
  if (!e) return undefined;
  const [r, g, b] = hexToRgb(e.ink ?? e.rgb);
  return `rgb(${r},${g},${b})`;
}

function themeFor(panel: PanelProfile): Theme {
  const ink = inkOf(panel, 'black') ?? 'rgb(0,0,0)';
  const meaning = meaningInks(panel);
  return {
    ink,
    paper: inkOf(panel, 'white') ?? 'rgb(255,255,255)',
    danger: meaning.alert.stroke ?? ink,
    status: ink,
    meaning,
    faded: fadedInk(panel),
  };
}

export interface SurfaceCanvases {
  surface: Surface;
  crispCanvas: Canvas;
  toneCanvas: Canvas;
}

/**
 * Canvases are kept per size and reused: a new canvas's pixels live in native memory that V8 does not see, so a
 * daemon making fresh ones every frame grows by hundreds of MB before a GC frees them. Setting `width` again
 * reallocates the surface at once and resets the context's state, so a reused canvas is as good as a new one.
 * Between frames they are one pixel wide (releaseSurface), so an idle daemon does not hold two frames of pixels
 * (four bytes a pixel) for hours. Rendering is synchronous, so two frames never share a canvas at the same time.
 */
const pool = new Map<string, [Canvas, Canvas]>();

function canvasesFor(width: number, height: number): [Canvas, Canvas] {
  const key = `${width}x${height}`;
  const pair = pool.get(key);
  if (pair === undefined) {
    const fresh: [Canvas, Canvas] = [createCanvas(width, height), createCanvas(width, height)];
    pool.set(key, fresh);
    return fresh;
  }
  for (const c of pair) c.width = width;
  return pair;
}

export function createSurface(
  width: number,
  height: number,
  panel: PanelProfile,
  palette: readonly Rgb[],
  unit: number,
  scale: TypeScale,
  old = false,
): SurfaceCanvases {
  const [crispCanvas, toneCanvas] = canvasesFor(width, height);
  const crisp = crispCanvas.getContext('2d');
  const tone = toneCanvas.getContext('2d');
  const theme = themeFor(panel);
  tone.fillStyle = theme.paper;
  tone.fillRect(0, 0, width, height);
  for (const ctx of [crisp, tone]) {
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
  }
  // Marks and lines without anti-aliasing: each pixel is one exact ink, so a red mark on a colour panel has no
  // orange or yellow fringe (a grey edge pixel would match another palette colour). The quantizer thresholds
  // at half coverage anyway, which is what an aliased edge is.
  crisp.antialias = 'none';
  tone.antialias = 'gray';
  return {
    surface: {
      width,
      height,
      text: new TextLayer(width, height, palette),
      crisp,
      tone,
      theme,
      unit,
      scale,
      old,
      drawn: new DrawnLog(),
    },
    crispCanvas,
    toneCanvas,
  };
}

/**
 * Frees the canvases' pixels once the frame has been read from them: each shrinks to one pixel wide, its pixel
 * memory going back to the system at once, and takes the frame's width again at the next frame.
 */
export function releaseSurface(s: Pick<SurfaceCanvases, 'crispCanvas' | 'toneCanvas'>): void {
  s.crispCanvas.width = 1;
  s.toneCanvas.width = 1;
}

/** Clears a region of the crisp layer (so a shape drawn over it hides what is beneath). */
export function withCut(ctx: CanvasRenderingContext2D, draw: () => void): void {
  ctx.save();
  ctx.globalCompositeOperation = 'destination-out';
  draw();
  ctx.restore();
}
