import { createHash } from 'node:crypto';
import { hexToRgb, type PanelProfile } from '../../src/panels/panels.js';
import { decodeBmp1, isBmp } from './bmp-decode.js';
import { ImageError, type ImageErrorCode } from './image-error.js';
import { decodePng, isPng } from './png-decode.js';

/**
 * What the firmware does with downloaded bytes before it touches the panel: the size limit, the format (by
 * Content-Type `image/png` exactly, else BMP by its magic, as the TRMNL firmware decides), decoding, the picture's
 * size, its depth against the panel's, and every pixel against the panel's palette. The result is the framebuffer
 * (one palette index a pixel) or the device's error: never an exception.
 */

export interface CheckLimits {
  /** 90,000 on the original TRMNL. */
  maxBytes: number;
}

export interface CheckedImage {
  ok: true;
  format: 'png' | 'bmp';
  width: number;
  height: number;
  /** Bits a pixel in the file. */
  bitDepth: number;
  indices: Uint8Array;
  bytes: number;
  /** sha256 hex of the bytes. */
  hash: string;
}

export interface RefusedImage {
  ok: false;
  code: ImageErrorCode;
  message: string;
  bytes: number;
}

/**
 * The last images checked, by their bytes' hash and what they were checked against. The same bytes always check to
 * the same framebuffer, so an image drawn again from the device's cache, or a frame two devices of a measured day
 * both download, is decoded once (a 16-grey TRMNL X frame takes a good part of a second). Nothing reads the indices
 * but to copy them (PanelSim.show), so one result may be handed out again.
 */
const checked = new WeakMap<PanelProfile, Map<string, CheckedImage>>();
const CHECKED_KEPT = 4;

/** `contentType` null: no header to go by (MQTT), the bytes are sniffed. */
export function checkImage(
  bytes: Buffer,
  contentType: string | null,
  panel: PanelProfile,
  view: { width: number; height: number },
  limits: CheckLimits,
): CheckedImage | RefusedImage {
  try {
    const hash = createHash('sha256').update(bytes).digest('hex');
    const key = [hash, contentType, view.width, view.height, limits.maxBytes].join('|');
    const kept = checked.get(panel) ?? new Map<string, CheckedImage>();
    checked.set(panel, kept);
    const known = kept.get(key);
    if (known !== undefined) return known;
    const result: CheckedImage = {
      ok: true,
      ...decodeChecked(bytes, contentType, panel, view, limits),
      bytes: bytes.length,
      hash,
    };
    kept.set(key, result);
    if (kept.size > CHECKED_KEPT) kept.delete(kept.keys().next().value!);
    return result;
  } catch (err) {
    if (err instanceof ImageError) return { ok: false, code: err.code, message: err.message, bytes: bytes.length };
    return {
      ok: false,
      code: 'PNG_DECODE_ERR',
      message: `could not decode png image (${(err as Error).message})`,
      bytes: bytes.length,
    };
  }
}

function decodeChecked(
  bytes: Buffer,
  contentType: string | null,
  panel: PanelProfile,
  view: { width: number; height: number },
  limits: CheckLimits,
): Pick<CheckedImage, 'format' | 'width' | 'height' | 'bitDepth' | 'indices'> {
  if (bytes.length === 0) throw new ImageError('HTTPS_WRONG_IMAGE_SIZE', 'Receiving failed. No data received');
  if (bytes.length > limits.maxBytes) {
    throw new ImageError(
      'HTTPS_IMAGE_FILE_TOO_BIG',
      `Receiving failed; file size too big: ${bytes.length} (limit ${limits.maxBytes})`,
    );
  }
  const png = contentType === null ? isPng(bytes) && !isBmp(bytes) : contentType === 'image/png';
  if (!png) {
    if (!panel.bmp && isBmp(bytes))
      throw new ImageError('BMP_COLOR_SCHEME_FAILED', `BMP on a ${panel.palette.length}-colour panel`);
    const bmp = decodeBmp1(bytes, view.width, view.height);
    const black = panel.palette.findIndex((e) => e.rgb === '#000000');
    const white = panel.palette.findIndex((e) => e.rgb === '#ffffff');
    return {
      format: 'bmp',
      width: bmp.width,
      height: bmp.height,
      bitDepth: 1,
      indices: bmp.bits.map((b) => (b === 1 ? white : black)),
    };
  }
  const img = decodePng(bytes);
  if (img.width !== view.width || img.height !== view.height) {
    throw new ImageError(
      'PNG_BAD_SIZE',
      `IMAGE width, height or size are invalid (${img.width}x${img.height}, the panel shows ${view.width}x${view.height})`,
    );
  }
  const levels = panel.palette.length;
  const panelDepth = Math.max(panel.png.bit_depth, Math.ceil(Math.log2(levels)));
  if ((img.colourType === 0 || img.colourType === 4) && panel.colour === 'grey' && img.bitDepth > panelDepth) {
    throw new ImageError(
      'PNG_BAD_DEPTH',
      `a ${img.bitDepth}-bit grey PNG cannot be shown on this ${levels}-level panel`,
    );
  }
  return {
    format: 'png',
    width: img.width,
    height: img.height,
    bitDepth: img.bitDepth,
    indices: toIndices(img.rgb, panel),
  };
}

/** Each pixel's palette entry; a colour the panel does not have is an error (the frame was not made for it). */
function toIndices(rgb: Uint8Array, panel: PanelProfile): Uint8Array {
  const lookup = new Map<number, number>();
  panel.palette.forEach((e, i) => {
    const [r, g, b] = hexToRgb(e.rgb);
    if (!lookup.has((r << 16) | (g << 8) | b)) lookup.set((r << 16) | (g << 8) | b, i);
  });
  const out = new Uint8Array(rgb.length / 3);
  for (let p = 0; p < out.length; p++) {
    const key = (rgb[p * 3]! << 16) | (rgb[p * 3 + 1]! << 8) | rgb[p * 3 + 2]!;
    const idx = lookup.get(key);
    if (idx === undefined) {
      const hex = `#${key.toString(16).padStart(6, '0')}`;
      throw new ImageError(
        'PNG_BAD_DEPTH',
        `colour ${hex} at pixel ${p} is not one of the panel's ${panel.palette.length} colours`,
      );
    }
    out[p] = idx;
  }
  return out;
}
