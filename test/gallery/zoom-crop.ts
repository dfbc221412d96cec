import { encodeFramePng, type DetailedFrame } from '../../src/render/frame.js';
import type { PanelProfile } from '../../src/panels/panels.js';
import type { Rect } from '../../src/render/text/text-layer.js';

/**
 * Zoomed crops of frames, for reviewing small text pixel by pixel (the gallery's `-zoom.png` files): a
 * rectangle of the frame's palette indices enlarged by nearest neighbour, so each panel pixel is a square of
 * `factor` x `factor`, encoded at the panel's own depth and palette like the frame itself.
 */

export interface ZoomCropOptions {
  /** The panel the frame is for (its PNG depth and palette). */
  panel: PanelProfile;
  /** The frame: its size and one palette index a pixel, as seen. */
  frame: Pick<DetailedFrame, 'width' | 'height' | 'indices'>;
  /** What to enlarge, in frame px; clipped to the frame. */
  rect: Rect;
  /** Enlargement, 2 to 8 (default 4). */
  factor?: number;
}

/** A PNG of `rect` of the frame enlarged `factor` times by nearest neighbour. */
export function zoomCrop(opts: ZoomCropOptions): Buffer {
  const { panel, frame } = opts;
  const factor = opts.factor ?? 4;
  if (!Number.isInteger(factor) || factor < 2 || factor > 8)
    throw new RangeError(`zoomCrop: factor must be a whole number from 2 to 8, got ${factor}`);
  const x0 = Math.max(0, Math.floor(opts.rect.x));
  const y0 = Math.max(0, Math.floor(opts.rect.y));
  const x1 = Math.min(frame.width, Math.ceil(opts.rect.x + opts.rect.w));
  const y1 = Math.min(frame.height, Math.ceil(opts.rect.y + opts.rect.h));
  if (x1 <= x0 || y1 <= y0)
    throw new RangeError(
      `zoomCrop: rectangle ${JSON.stringify(opts.rect)} is outside the ${frame.width}x${frame.height} frame`,
    );
  const w = (x1 - x0) * factor;
  const h = (y1 - y0) * factor;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const src = (y0 + Math.floor(y / factor)) * frame.width + x0;
    for (let x = 0; x < w; x++) out[y * w + x] = frame.indices[src + Math.floor(x / factor)]!;
  }
  return encodeFramePng(panel, w, h, out);
}

/**
 * The rectangle around the first line of a frame's smallest text, with a margin, at most `maxW` x `maxH` px:
 * on most layouts the top band's "Updated" line or the display's name; null when the frame has no text.
 */
export function smallestTextRect(
  frame: Pick<DetailedFrame, 'width' | 'height' | 'smallestText'>,
  maxW = 200,
  maxH = 48,
): Rect | null {
  const s = frame.smallestText;
  if (!s) return null;
  const margin = Math.ceil(s.size / 2);
  const w = Math.min(maxW, s.box.w + 2 * margin, frame.width);
  const h = Math.min(maxH, s.box.h + 2 * margin, frame.height);
  const x = Math.min(Math.max(0, s.box.x - margin), frame.width - w);
  const y = Math.min(Math.max(0, s.box.y - margin), frame.height - h);
  return { x, y, w, h };
}
