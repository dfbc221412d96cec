import type { CanvasRenderingContext2D } from 'canvas';

/**
 * The path language of the pictograms: a small absolute subset of SVG path data on a 24x24 grid, plus circles
 * and arcs by centre, which SVG spells awkwardly.
 *   M x y   L x y   H x   V y   Q x1 y1 x y   C x1 y1 x2 y2 x y   Z
 *   O cx cy r            a whole circle (a subpath of its own)
 *   A cx cy r a0 a1      an arc clockwise from a0 to a1 degrees (0 = east, 90 = south), joined to the current point
 * A command letter may be followed by several argument groups (M 1 2 3 4 = M 1 2 L 3 4, as in SVG).
 */

export type PathOp =
  | { op: 'M' | 'L'; x: number; y: number }
  | { op: 'Q'; x1: number; y1: number; x: number; y: number }
  | { op: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
  | { op: 'O'; cx: number; cy: number; r: number }
  | { op: 'A'; cx: number; cy: number; r: number; a0: number; a1: number }
  | { op: 'Z' };

const ARITY: Record<string, number> = { M: 2, L: 2, H: 1, V: 1, Q: 4, C: 6, O: 3, A: 5, Z: 0 };

const cache = new Map<string, PathOp[]>();

/** Parses path data; throws naming the path and the position of what it cannot read. */
export function parsePath(d: string): PathOp[] {
  const hit = cache.get(d);
  if (hit) return hit;
  const tokens = d.match(/[A-Za-z]|-?(?:\d+\.?\d*|\.\d+)/g) ?? [];
  const ops: PathOp[] = [];
  let x = 0;
  let y = 0;
  let i = 0;
  while (i < tokens.length) {
    const cmd = tokens[i++]!;
    const n = ARITY[cmd];
    if (n === undefined) throw new Error(`pictogram path "${d}": unknown command "${cmd}" at token ${i - 1}`);
    let first = true;
    do {
      const a = tokens.slice(i, i + n).map(Number);
      if (a.length < n || a.some((v) => Number.isNaN(v)))
        throw new Error(`pictogram path "${d}": "${cmd}" needs ${n} numbers at token ${i}`);
      i += n;
      switch (cmd) {
        case 'M':
        case 'L':
          [x, y] = [a[0]!, a[1]!];
          ops.push({ op: cmd === 'M' && first ? 'M' : 'L', x, y });
          break;
        case 'H':
          x = a[0]!;
          ops.push({ op: 'L', x, y });
          break;
        case 'V':
          y = a[0]!;
          ops.push({ op: 'L', x, y });
          break;
        case 'Q':
          [x, y] = [a[2]!, a[3]!];
          ops.push({ op: 'Q', x1: a[0]!, y1: a[1]!, x, y });
          break;
        case 'C':
          [x, y] = [a[4]!, a[5]!];
          ops.push({ op: 'C', x1: a[0]!, y1: a[1]!, x2: a[2]!, y2: a[3]!, x, y });
          break;
        case 'O':
          ops.push({ op: 'O', cx: a[0]!, cy: a[1]!, r: a[2]! });
          break;
        case 'A': {
          const [cx, cy, r, a0, a1] = a as [number, number, number, number, number];
          ops.push({ op: 'A', cx, cy, r, a0, a1 });
          x = cx + r * Math.cos((a1 * Math.PI) / 180);
          y = cy + r * Math.sin((a1 * Math.PI) / 180);
          break;
        }
        case 'Z':
          ops.push({ op: 'Z' });
          break;
      }
      first = false;
    } while (n > 0 && i < tokens.length && !/[A-Za-z]/.test(tokens[i]!));
  }
  cache.set(d, ops);
  return ops;
}

/** Grid point to px, and grid length to px. */
export interface GridMap {
  x(gx: number): number;
  y(gy: number): number;
  len(g: number): number;
}

/** Traces `ops` as the context's current path (after beginPath). */
export function tracePath(ctx: CanvasRenderingContext2D, ops: readonly PathOp[], m: GridMap): void {
  for (const o of ops) {
    switch (o.op) {
      case 'M':
        ctx.moveTo(m.x(o.x), m.y(o.y));
        break;
      case 'L':
        ctx.lineTo(m.x(o.x), m.y(o.y));
        break;
      case 'Q':
        ctx.quadraticCurveTo(m.x(o.x1), m.y(o.y1), m.x(o.x), m.y(o.y));
        break;
      case 'C':
        ctx.bezierCurveTo(m.x(o.x1), m.y(o.y1), m.x(o.x2), m.y(o.y2), m.x(o.x), m.y(o.y));
        break;
      case 'O':
        ctx.moveTo(m.x(o.cx) + m.len(o.r), m.y(o.cy));
        ctx.arc(m.x(o.cx), m.y(o.cy), m.len(o.r), 0, Math.PI * 2);
        break;
      case 'A':
        ctx.arc(m.x(o.cx), m.y(o.cy), m.len(o.r), (o.a0 * Math.PI) / 180, (o.a1 * Math.PI) / 180, false);
        break;
      case 'Z':
        ctx.closePath();
        break;
    }
  }
}
