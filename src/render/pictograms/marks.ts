import type { CanvasRenderingContext2D } from 'canvas';
import { withCut } from '../draw/surface.js';

/** Small line marks on the crisp layer: wind arrow, warning triangle, status symbols. */

type Ctx = CanvasRenderingContext2D;

/**
 * An arrow in a circle of radius r, pointing where the wind blows to (the wind comes from `fromDegrees`);
 * a plain ring when the direction is unknown.
 */
export function windArrow(
  ctx: Ctx,
  cx: number,
  cy: number,
  r: number,
  fromDegrees: number | null,
  colour: string,
): void {
  const lw = Math.max(1.5, r * 0.16);
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineWidth = lw;
  if (fromDegrees === null) {
    ctx.beginPath();
    ctx.arc(cx, cy, r * 0.7, 0, Math.PI * 2);
    ctx.stroke();
    return;
  }
  const a = ((fromDegrees + 180) * Math.PI) / 180; // towards
  const dx = Math.sin(a);
  const dy = -Math.cos(a);
  const tipX = cx + dx * r;
  const tipY = cy + dy * r;
  ctx.beginPath();
  ctx.moveTo(cx - dx * r, cy - dy * r);
  ctx.lineTo(cx + dx * r * 0.3, cy + dy * r * 0.3);
  ctx.stroke();
  const hw = r * 0.55;
  ctx.beginPath();
  ctx.moveTo(tipX, tipY);
  ctx.lineTo(tipX - dx * r * 0.85 + -dy * hw, tipY - dy * r * 0.85 + dx * hw);
  ctx.lineTo(tipX - dx * r * 0.85 - -dy * hw, tipY - dy * r * 0.85 - dx * hw);
  ctx.closePath();
  ctx.fill();
}

/** A filled warning triangle with the "!" cut out, in the square (x, y, s). */
export function warningTriangle(ctx: Ctx, x: number, y: number, s: number, colour: string): void {
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.moveTo(x + s / 2, y + s * 0.04);
  ctx.lineTo(x + s * 0.98, y + s * 0.92);
  ctx.lineTo(x + s * 0.02, y + s * 0.92);
  ctx.closePath();
  ctx.fill();
  withCut(ctx, () => {
    ctx.beginPath();
    ctx.rect(x + s * 0.445, y + s * 0.33, s * 0.11, s * 0.33);
    ctx.moveTo(x + s * 0.56, y + s * 0.78);
    ctx.arc(x + s / 2, y + s * 0.78, s * 0.065, 0, Math.PI * 2);
    ctx.fill();
  });
}

/**
 * An outlined warning triangle with a filled "!", in the square (x, y, s): the mark of a minor alert (an advisory),
 * which asks for a look, not for action, so it does not weigh as the filled one does.
 */
export function warningTriangleOutline(ctx: Ctx, x: number, y: number, s: number, colour: string): void {
  const t = Math.max(1, Math.round(s * 0.09));
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineWidth = t;
  ctx.lineJoin = 'miter';
  ctx.beginPath();
  ctx.moveTo(x + s / 2, y + s * 0.04 + t);
  ctx.lineTo(x + s * 0.98 - t * 0.9, y + s * 0.92 - t / 2);
  ctx.lineTo(x + s * 0.02 + t * 0.9, y + s * 0.92 - t / 2);
  ctx.closePath();
  ctx.stroke();
  ctx.fillRect(x + s * 0.455, y + s * 0.36, s * 0.09, s * 0.28);
  ctx.fillRect(x + s * 0.455, y + s * 0.7, s * 0.09, s * 0.09);
}

/** `offline`: no connection was made (Wi-Fi struck out); `cloud-error`: the service was reached and failed. */
export type StatusMark = 'key' | 'hourglass' | 'offline' | 'cloud-error' | 'clock';

/** A large status symbol in the square (x, y, s), outlined. */
export function statusMark(ctx: Ctx, mark: StatusMark, x: number, y: number, s: number, colour: string): void {
  const lw = Math.max(2, s * 0.06);
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineWidth = lw;
  ctx.beginPath();
  switch (mark) {
    case 'key': {
      const r = s * 0.2;
      const cx = x + s * 0.28;
      const cy = y + s * 0.5;
      ctx.arc(cx, cy, r, 0, Math.PI * 2);
      ctx.moveTo(cx + r, cy);
      ctx.lineTo(x + s * 0.92, cy);
      ctx.moveTo(x + s * 0.78, cy);
      ctx.lineTo(x + s * 0.78, cy + s * 0.16);
      ctx.moveTo(x + s * 0.66, cy);
      ctx.lineTo(x + s * 0.66, cy + s * 0.12);
      break;
    }
    case 'hourglass': {
      const l = x + s * 0.25;
      const r = x + s * 0.75;
      const t = y + s * 0.1;
      const b = y + s * 0.9;
      ctx.moveTo(l - s * 0.05, t);
      ctx.lineTo(r + s * 0.05, t);
      ctx.moveTo(l - s * 0.05, b);
      ctx.lineTo(r + s * 0.05, b);
      ctx.moveTo(l, t);
      ctx.lineTo(r, b);
      ctx.moveTo(r, t);
      ctx.lineTo(l, b);
      ctx.moveTo(l, t);
      ctx.lineTo(l, t + s * 0.02);
      ctx.stroke();
      ctx.beginPath();
      ctx.moveTo(x + s * 0.5, y + s * 0.62);
      ctx.lineTo(x + s * 0.68, b - lw / 2);
      ctx.lineTo(x + s * 0.32, b - lw / 2);
      ctx.closePath();
      ctx.fill();
      return;
    }
    case 'offline': {
      const cx = x + s / 2;
      const cy = y + s * 0.55;
      for (const f of [0.42, 0.28, 0.14]) {
        ctx.moveTo(cx + Math.cos(Math.PI * 1.25) * s * f, cy + Math.sin(Math.PI * 1.25) * s * f);
        ctx.arc(cx, cy, s * f, Math.PI * 1.25, Math.PI * 1.75);
      }
      ctx.moveTo(cx + s * 0.04, cy + s * 0.02);
      ctx.arc(cx, cy + s * 0.02, s * 0.04, 0, Math.PI * 2);
      ctx.moveTo(x + s * 0.12, y + s * 0.12);
      ctx.lineTo(x + s * 0.88, y + s * 0.88);
      break;
    }
    case 'cloud-error': {
      // A cloud outline with an exclamation mark in it: the service, not the owner's network.
      const b = y + s * 0.78;
      ctx.moveTo(x + s * 0.2, b);
      ctx.arc(x + s * 0.22, y + s * 0.62, s * 0.16, Math.PI * 0.5, Math.PI * 1.35);
      ctx.arc(x + s * 0.45, y + s * 0.42, s * 0.22, Math.PI * 1.1, Math.PI * 1.85);
      ctx.arc(x + s * 0.74, y + s * 0.58, s * 0.18, Math.PI * 1.45, Math.PI * 0.5);
      ctx.closePath();
      ctx.stroke();
      ctx.beginPath();
      ctx.moveTo(x + s * 0.5, y + s * 0.4);
      ctx.lineTo(x + s * 0.5, y + s * 0.6);
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(x + s * 0.5, y + s * 0.69, Math.max(lw * 0.7, s * 0.035), 0, Math.PI * 2);
      ctx.fill();
      return;
    }
    case 'clock': {
      const cx = x + s / 2;
      const cy = y + s / 2;
      ctx.arc(cx, cy, s * 0.4, 0, Math.PI * 2);
      ctx.moveTo(cx, cy - s * 0.25);
      ctx.lineTo(cx, cy);
      ctx.lineTo(cx + s * 0.18, cy + s * 0.1);
      break;
    }
  }
  ctx.stroke();
}
