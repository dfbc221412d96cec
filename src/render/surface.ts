import { createCanvas, type Canvas, type CanvasRenderingContext2D } from 'canvas';
import { hexToRgb, type PanelProfile } from './panels.js';
import type { Rgb } from './quantize.js';
import { TextLayer } from './text-layer.js';

/**
 * What layouts draw on, all of the frame's size:
 * - `text`: glyphs at 1 bit (text-layer.ts), over everything else.
 * - `crisp`: text and lines, transparent ground; thresholded by the quantizer, never dithered.
 * - `tone`: icon fills and grey areas, white ground; dithered.
 * `theme` names colours that are exact palette inks where the panel has them, so solid fills do not dither.
 */

export interface Theme {
  ink: string;
  paper: string;
  /** Alerts and error bands: red where the panel has it, else black. */
  accent: string;
  sun: string;
  cloud: string;
  rain: string;
  bolt: string;
  /** A light grey fill. */
  light: string;
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
}

function inkOf(panel: PanelProfile, name: string): string | undefined {
  const e = panel.palette.find((p) => p.name === name);
  if (!e) return undefined;
  const [r, g, b] = hexToRgb(e.ink ?? e.rgb);
  return `rgb(${r},${g},${b})`;
}

export function themeFor(panel: PanelProfile): Theme {
  const ink = inkOf(panel, 'black') ?? 'rgb(0,0,0)';
  const paper = inkOf(panel, 'white') ?? 'rgb(255,255,255)';
  const red = inkOf(panel, 'red');
  const yellow = inkOf(panel, 'yellow');
  const orange = inkOf(panel, 'orange');
  const blue = inkOf(panel, 'blue');
  const greys = panel.colour === 'grey';
  return {
    ink,
    paper,
    accent: red ?? ink,
    sun: yellow ?? red ?? (greys ? 'rgb(150,150,150)' : 'rgb(170,170,170)'),
    cloud: greys ? 'rgb(215,215,215)' : 'rgb(230,230,230)',
    rain: blue ?? ink,
    bolt: yellow ?? orange ?? red ?? 'rgb(120,120,120)',
    light: 'rgb(200,200,200)',
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
 * Rendering is synchronous, so two frames never share a canvas at the same time.
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

export function createSurface(width: number, height: number, panel: PanelProfile, palette: readonly Rgb[], unit: number): SurfaceCanvases {
  const [crispCanvas, toneCanvas] = canvasesFor(width, height);
  const crisp = crispCanvas.getContext('2d');
  const tone = toneCanvas.getContext('2d');
  const theme = themeFor(panel);
  tone.fillStyle = theme.paper;
  tone.fillRect(0, 0, width, height);
  for (const ctx of [crisp, tone]) {
    ctx.antialias = 'gray';
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
  }
  return { surface: { width, height, text: new TextLayer(width, height, palette), crisp, tone, theme, unit }, crispCanvas, toneCanvas };
}

/** Clears a region of the crisp layer (so a shape drawn over it hides what is beneath). */
export function withCut(ctx: CanvasRenderingContext2D, draw: () => void): void {
  ctx.save();
  ctx.globalCompositeOperation = 'destination-out';
  draw();
  ctx.restore();
}
