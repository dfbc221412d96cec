import type { Meaning } from '../draw/colour-meaning.js';
import { parsePath, tracePath, type GridMap } from './picto-path.js';
import type { Surface } from '../draw/surface.js';

/**
 * Pictograms: line art on a 24x24 grid (picto-path.ts), drawn for the pixel grid. Strokes are whole pixels wide
 * and centred on pixel centres (odd widths) or pixel edges (even widths), and drawn without anti-aliasing, so
 * every pixel is exactly one ink: no grey to threshold, nothing to dither, no fringes on colour panels. They go
 * on the crisp layer, which the quantizer thresholds and never dithers.
 */

/** A colour by role: the panel's ink, its paper, or the ink of a meaning (colour-meaning.ts). */
export type Tint = Meaning | 'ink' | 'paper';

export interface PictoPart {
  /** Path data on the 24x24 grid. */
  d: string;
  /** Stroke colour; default ink. A meaning the panel has no colour for is stroked in ink. */
  stroke?: Tint | 'none';
  /** Fill colour, under the stroke; default none. A meaning the panel has no colour for is filled with paper. */
  fill?: Tint;
  /** Stroke width as a multiple of the pen; default 1. */
  weight?: number;
  /** Where the part sits: grid x becomes x * k + dx (and y likewise), for pictograms composed of others. */
  at?: readonly [dx: number, dy: number, k: number];
}

export type Pictogram = readonly PictoPart[];

/** Moves and scales every part of `p` (see PictoPart.at). */
export function placed(p: Pictogram, dx: number, dy: number, k: number): Pictogram {
  return p.map((part) => {
    const [ox, oy, ok] = part.at ?? [0, 0, 1];
    return { ...part, at: [ox * k + dx, oy * k + dy, ok * k] as const };
  });
}

/** The pen of a pictogram `size` px square: 1/14 of it, at least 1 px (5 px at 64, 2 px at 24 and 32). */
function penWidth(size: number): number {
  return Math.max(1, Math.round(size / 14));
}

/** A part's stroke width, px, at the pen `pen`: drawPictogram's. */
const strokeWidth = (part: PictoPart, pen: number): number =>
  Math.max(1, Math.round(pen * (part.weight ?? 1) * Math.min(1, (part.at?.[2] ?? 1) + 0.25)));

/**
 * How far the ink of `picto` drawn `size` px square may reach below its square, px (0: not at all): half a stroke
 * past a point near the grid's foot (the thunder icon's bolt, at 23.5 of 24). From the paths' points and control
 * points, a pixel more for the snapping, so at most: what a layout keeps clear below the square for a rule.
 */
export function inkBelow(picto: Pictogram, size: number): number {
  const scale = size / 24;
  const pen = penWidth(size);
  let bottom = 0;
  for (const part of picto) {
    const [, dy, k] = part.at ?? [0, 0, 1];
    const half = part.stroke === 'none' ? 0 : strokeWidth(part, pen) / 2;
    for (const op of parsePath(part.d)) {
      const ys =
        op.op === 'O' || op.op === 'A'
          ? [op.cy + op.r]
          : op.op === 'Q'
            ? [op.y1, op.y]
            : op.op === 'C'
              ? [op.y1, op.y2, op.y]
              : op.op === 'Z'
                ? []
                : [op.y];
      for (const y of ys) bottom = Math.max(bottom, (y * k + dy) * scale + half + 1);
    }
  }
  return Math.max(0, Math.ceil(bottom - size));
}

function strokeColour(sf: Surface, t: Tint): string {
  if (t === 'ink') return sf.theme.ink;
  if (t === 'paper') return sf.theme.paper;
  return sf.theme.meaning[t].stroke ?? sf.theme.ink;
}

function fillColour(sf: Surface, t: Tint): string {
  if (t === 'ink') return sf.theme.ink;
  if (t === 'paper') return sf.theme.paper;
  return sf.theme.meaning[t].fill ?? sf.theme.paper;
}

const isMeaning = (t: Tint | undefined): t is Meaning => t !== undefined && t !== 'ink' && t !== 'paper';

/** What a tint turns a pictogram's ink into: its lines, its solid parts, and its place for a fill (null: as drawn). */
interface Tinted {
  line: string;
  solid: string;
  place: string | null;
}

/**
 * How `tint` colours `picto` (colour-meaning.ts). Where the drawing has a place for a fill (a part filled with a
 * meaning: the umbrella's canopy, the sun's disc) and the panel a fill ink for the tint, the colour goes there,
 * inside lines that stay ink: the 7.3" F's blue and yellow, in which no line may be drawn; solid parts take the
 * tint's stroke ink. Else the parts in ink, lines and solids, take the tint's stroke ink (red or green,
 * where it stands apart from black and paper). A panel with neither, a drawing with no place for a panel's fill
 * ink, or no tint, draws the pictogram as it is.
 */
function tinted(sf: Surface, picto: Pictogram, tint: Meaning | undefined): Tinted | null {
  if (!tint) return null;
  const { stroke, fill } = sf.theme.meaning[tint];
  const ink = sf.theme.ink;
  if (fill && picto.some((p) => isMeaning(p.fill))) return { line: ink, solid: stroke ?? ink, place: fill };
  if (stroke) return { line: stroke, solid: stroke, place: null };
  // A fill ink alone (the F's blue and yellow) only where the drawing has its place: a solid part filled with it would
  // meet the paper at its edge, a line in an ink that cannot draw one.
  return null;
}

/**
 * Draws `picto` in the square (x, y, size). `tint` colours it as tinted() says (an action's meaning). Returns the
 * colour that carries its meaning: the first it was drawn in other than the panel's ink and paper, else the ink.
 */
export function drawPictogram(
  sf: Surface,
  picto: Pictogram,
  x: number,
  y: number,
  size: number,
  tint?: Meaning,
): string {
  const used: string[] = [];
  const ctx = sf.crisp;
  const before = ctx.antialias;
  ctx.save();
  ctx.antialias = 'none';
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  const scale = size / 24;
  const pen = penWidth(size);
  const t = tinted(sf, picto, tint);
  const x0 = Math.round(x);
  const y0 = Math.round(y);
  for (const part of picto) {
    const [dx, dy, k] = part.at ?? [0, 0, 1];
    const lw = Math.max(1, Math.round(pen * (part.weight ?? 1) * Math.min(1, k + 0.25)));
    const snap = (v: number): number => (lw % 2 === 1 ? Math.floor(v) + 0.5 : Math.round(v));
    const map: GridMap = {
      x: (gx) => snap(x0 + (gx * k + dx) * scale),
      y: (gy) => snap(y0 + (gy * k + dy) * scale),
      len: (g) => Math.max(0.5, Math.round(g * k * scale * 2) / 2),
    };
    const ops = parsePath(part.d);
    ctx.beginPath();
    tracePath(ctx, ops, map);
    if (part.fill) {
      const fill =
        part.fill === 'ink' && t ? t.solid : isMeaning(part.fill) && t?.place ? t.place : fillColour(sf, part.fill);
      ctx.fillStyle = fill;
      used.push(fill);
      ctx.fill('nonzero');
    }
    const stroke = part.stroke ?? 'ink';
    if (stroke !== 'none') {
      // A solid part's edge is stroked in its own colour, so it stays one shape.
      const line = stroke === 'ink' && t ? (part.fill === 'ink' ? t.solid : t.line) : strokeColour(sf, stroke);
      ctx.strokeStyle = line;
      used.push(line);
      ctx.lineWidth = lw;
      ctx.stroke();
    }
  }
  ctx.restore();
  ctx.antialias = before;
  return used.find((c) => c !== sf.theme.ink && c !== sf.theme.paper) ?? sf.theme.ink;
}
