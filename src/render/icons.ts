import type { CanvasRenderingContext2D } from 'canvas';
import { withCut, type Surface } from './surface.js';

/**
 * Weather condition icons, drawn with canvas paths: outlines on the crisp layer, fills on the tone layer.
 * `conditionOf` maps the service's free-text `description` to an icon and never fails: an unknown text gets
 * a neutral thermometer.
 */

export type Condition =
  | 'clear-day'
  | 'clear-night'
  | 'partly-day'
  | 'partly-night'
  | 'cloudy'
  | 'fog'
  | 'drizzle'
  | 'rain'
  | 'thunder'
  | 'snow'
  | 'sleet'
  | 'wind'
  | 'unknown';

const RULES: readonly (readonly [RegExp, Condition | ((day: boolean) => Condition)])[] = [
  [/thunder|lightning|t-?storm/, 'thunder'],
  [/sleet|freezing rain|ice pellet|hail|wintry/, 'sleet'],
  [/snow|blizzard|flurr/, 'snow'],
  [/drizzle|sprinkle/, 'drizzle'],
  [/rain|shower|storm|downpour/, 'rain'],
  [/fog|mist|haze|hazy|smoke|dust|sand|ash/, 'fog'],
  [/partly|partial|mostly (sunny|clear)|scattered|few cloud|broken|intervals|some cloud|sunny spells/, (d) => (d ? 'partly-day' : 'partly-night')],
  [/overcast|cloud|grey|gray|dull/, 'cloudy'],
  [/clear|sunny|sun|fair|fine|bright/, (d) => (d ? 'clear-day' : 'clear-night')],
  [/wind|breez|gust|gale/, 'wind'],
];

export function conditionOf(description: string, isDay: boolean): Condition {
  const s = description.toLowerCase();
  for (const [re, c] of RULES) {
    if (re.test(s)) return typeof c === 'function' ? c(isDay) : c;
  }
  return 'unknown';
}

type Ctx = CanvasRenderingContext2D;

function cloudPath(ctx: Ctx, cx: number, cy: number, s: number, inset: number): void {
  ctx.beginPath();
  const circle = (x: number, y: number, r: number): void => {
    ctx.moveTo(x + r - inset, y);
    ctx.arc(x, y, Math.max(0, r - inset), 0, Math.PI * 2);
  };
  circle(cx + 0.04 * s, cy - 0.06 * s, 0.25 * s);
  circle(cx - 0.22 * s, cy + 0.06 * s, 0.17 * s);
  circle(cx + 0.3 * s, cy + 0.07 * s, 0.16 * s);
  const x0 = cx - 0.22 * s;
  const x1 = cx + 0.3 * s;
  ctx.rect(x0, cy + 0.06 * s + inset, x1 - x0, 0.17 * s - 2 * inset);
}

/** A cloud: hides what the crisp layer has under it, fills on tone, outline on crisp. */
function cloud(sf: Surface, cx: number, cy: number, s: number, lw: number, fill: string): void {
  withCut(sf.crisp, () => {
    cloudPath(sf.crisp, cx, cy, s, -lw / 2);
    sf.crisp.fill('nonzero');
  });
  sf.tone.fillStyle = fill;
  cloudPath(sf.tone, cx, cy, s, 0);
  sf.tone.fill('nonzero');
  sf.crisp.fillStyle = sf.theme.ink;
  cloudPath(sf.crisp, cx, cy, s, -lw / 2);
  sf.crisp.fill('nonzero');
  withCut(sf.crisp, () => {
    cloudPath(sf.crisp, cx, cy, s, lw / 2);
    sf.crisp.fill('nonzero');
  });
}

function sun(sf: Surface, cx: number, cy: number, r: number, lw: number): void {
  sf.tone.fillStyle = sf.theme.sun;
  sf.tone.beginPath();
  sf.tone.arc(cx, cy, r, 0, Math.PI * 2);
  sf.tone.fill();
  const c = sf.crisp;
  c.strokeStyle = sf.theme.ink;
  c.lineWidth = lw;
  c.beginPath();
  c.arc(cx, cy, r, 0, Math.PI * 2);
  for (let i = 0; i < 8; i++) {
    const a = (i * Math.PI) / 4;
    c.moveTo(cx + Math.cos(a) * (r + lw * 2), cy + Math.sin(a) * (r + lw * 2));
    c.lineTo(cx + Math.cos(a) * (r + lw * 2 + r * 0.55), cy + Math.sin(a) * (r + lw * 2 + r * 0.55));
  }
  c.stroke();
}

function moon(sf: Surface, cx: number, cy: number, r: number, lw: number): void {
  const path = (ctx: Ctx): void => {
    ctx.beginPath();
    ctx.arc(cx, cy, r, Math.PI * 0.25, Math.PI * 1.75, false);
    ctx.arc(cx + r * 0.55, cy - r * 0.2, r * 0.78, Math.PI * 1.62, Math.PI * 0.55, true);
    ctx.closePath();
  };
  sf.tone.fillStyle = sf.theme.light;
  path(sf.tone);
  sf.tone.fill();
  sf.crisp.strokeStyle = sf.theme.ink;
  sf.crisp.lineWidth = lw;
  path(sf.crisp);
  sf.crisp.stroke();
}

function strokes(sf: Surface, colour: string, lw: number, segments: readonly (readonly [number, number, number, number])[]): void {
  const c = sf.crisp;
  c.strokeStyle = colour;
  c.lineWidth = lw;
  c.beginPath();
  for (const [x0, y0, x1, y1] of segments) {
    c.moveTo(x0, y0);
    c.lineTo(x1, y1);
  }
  c.stroke();
}

function flakes(sf: Surface, points: readonly (readonly [number, number])[], r: number, lw: number): void {
  const segs: [number, number, number, number][] = [];
  for (const [x, y] of points) {
    for (let i = 0; i < 3; i++) {
      const a = (i * Math.PI) / 3 + Math.PI / 2;
      segs.push([x - Math.cos(a) * r, y - Math.sin(a) * r, x + Math.cos(a) * r, y + Math.sin(a) * r]);
    }
  }
  strokes(sf, sf.theme.ink, lw, segs);
}

function bolt(sf: Surface, x: number, y: number, s: number, lw: number): void {
  const pts: [number, number][] = [
    [0.02, 0], [0.16, 0], [0.08, 0.13], [0.17, 0.13], [-0.04, 0.38], [0.02, 0.19], [-0.07, 0.19],
  ];
  const path = (ctx: Ctx): void => {
    ctx.beginPath();
    pts.forEach(([px, py], i) => (i ? ctx.lineTo(x + px * s, y + py * s) : ctx.moveTo(x + px * s, y + py * s)));
    ctx.closePath();
  };
  withCut(sf.crisp, () => {
    path(sf.crisp);
    sf.crisp.fill();
  });
  sf.tone.fillStyle = sf.theme.bolt;
  path(sf.tone);
  sf.tone.fill();
  sf.crisp.strokeStyle = sf.theme.ink;
  sf.crisp.lineWidth = lw * 0.8;
  path(sf.crisp);
  sf.crisp.stroke();
}

function thermometer(sf: Surface, cx: number, cy: number, s: number, lw: number): void {
  const w = s * 0.16;
  const top = cy - s * 0.36;
  const bulbY = cy + s * 0.22;
  const r = s * 0.14;
  sf.tone.fillStyle = sf.theme.accent === sf.theme.ink ? sf.theme.light : sf.theme.accent;
  sf.tone.beginPath();
  sf.tone.arc(cx, bulbY, r, 0, Math.PI * 2);
  sf.tone.rect(cx - w / 4, cy - s * 0.1, w / 2, bulbY - (cy - s * 0.1));
  sf.tone.fill();
  const c = sf.crisp;
  c.strokeStyle = sf.theme.ink;
  c.lineWidth = lw;
  c.beginPath();
  c.moveTo(cx - w / 2, bulbY - r * 0.85);
  c.lineTo(cx - w / 2, top + w / 2);
  c.arc(cx, top + w / 2, w / 2, Math.PI, 0);
  c.lineTo(cx + w / 2, bulbY - r * 0.85);
  c.arc(cx, bulbY, r, -Math.PI / 2 + 0.6, Math.PI * 1.5 - 0.6);
  c.stroke();
}

/** Draws the icon for `condition` centred in the square (x, y, size). */
export function drawConditionIcon(sf: Surface, condition: Condition, x: number, y: number, size: number): void {
  const s = size;
  const cx = x + s / 2;
  const cy = y + s / 2;
  const lw = Math.max(2, s * 0.035);
  const wet = (cyCloud: number): number => cyCloud + 0.27 * s;
  switch (condition) {
    case 'clear-day':
      sun(sf, cx, cy, s * 0.22, lw);
      return;
    case 'clear-night':
      moon(sf, cx, cy, s * 0.3, lw);
      return;
    case 'partly-day':
      sun(sf, cx - s * 0.14, cy - s * 0.14, s * 0.16, lw);
      cloud(sf, cx + s * 0.04, cy + s * 0.1, s * 0.8, lw, sf.theme.cloud);
      return;
    case 'partly-night':
      moon(sf, cx - s * 0.12, cy - s * 0.14, s * 0.2, lw);
      cloud(sf, cx + s * 0.04, cy + s * 0.1, s * 0.8, lw, sf.theme.cloud);
      return;
    case 'cloudy':
      cloud(sf, cx, cy - s * 0.02, s * 0.95, lw, sf.theme.cloud);
      return;
    case 'wind':
    case 'fog': {
      const top = condition === 'fog' ? cy - s * 0.12 : cy - s * 0.2;
      if (condition === 'fog') cloud(sf, cx, cy - s * 0.2, s * 0.8, lw, sf.theme.cloud);
      const rows = condition === 'fog' ? [0.18, 0.29, 0.4] : [0, 0.2, 0.4];
      strokes(sf, sf.theme.ink, lw, rows.map((r, i) => [cx - s * (0.38 - i * 0.06), top + r * s, cx + s * (0.38 - (i % 2) * 0.1), top + r * s] as const));
      return;
    }
    case 'drizzle':
    case 'rain':
    case 'thunder':
    case 'snow':
    case 'sleet': {
      const cyc = cy - s * 0.12;
      cloud(sf, cx, cyc, s * 0.85, lw, sf.theme.cloud);
      const y0 = wet(cyc);
      const len = condition === 'drizzle' ? 0.07 * s : 0.15 * s;
      const drops = condition === 'thunder' ? [-0.26, 0.22] : [-0.24, -0.08, 0.08, 0.24];
      if (condition === 'snow') {
        flakes(sf, [[cx - 0.2 * s, y0 + 0.08 * s], [cx, y0 + 0.16 * s], [cx + 0.2 * s, y0 + 0.08 * s]], 0.06 * s, lw * 0.9);
        return;
      }
      if (condition === 'sleet') {
        strokes(sf, sf.theme.rain, lw, [[cx - 0.18 * s, y0, cx - 0.23 * s, y0 + len], [cx + 0.14 * s, y0, cx + 0.09 * s, y0 + len]]);
        flakes(sf, [[cx - 0.02 * s, y0 + 0.12 * s], [cx + 0.28 * s, y0 + 0.1 * s]], 0.05 * s, lw * 0.9);
        return;
      }
      strokes(sf, sf.theme.rain, lw, drops.map((d) => [cx + d * s + 0.02 * s, y0, cx + d * s - 0.04 * s, y0 + len] as const));
      if (condition === 'thunder') bolt(sf, cx - 0.03 * s, y0 - 0.05 * s, s * 0.9, lw);
      return;
    }
    case 'unknown':
      thermometer(sf, cx, cy, s, lw);
      return;
  }
}
