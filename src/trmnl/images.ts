import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { DisplayConfig } from '../config/schema.js';
import { drawInProcess, type DisplayRenderOptions, type DrawFrame } from '../render/display-frame.js';

import type { Frame } from '../render/frame.js';
import { loadPanel, type PanelProfile } from '../panels/panels.js';
import { encodePng } from '../render/encode/png.js';
import type { ShownView } from '../state/display-views.js';
import type { Clock } from '../time/clock.js';

/**
 * The image a TRMNL device gets for a display, and its filename.
 *
 * The firmware takes an 800x480 (or 480x800) PNG of 1-bit grey (partial refresh) or 2-bit grey (4-grey mode), or an
 * 800x480 1-bit BMP, of at most 90,000 bytes on the original device. A display whose frame is such a file is served
 * its own frame, byte for byte. Any other display (another size, colour, 8-bit grey, or a PNG over the limit) is
 * rendered a second time from the same data for the `trmnl` panel (800x480, 1-bit), keeping its rotation.
 * Every image is named `outfit-<8 hex of its sha256>`: a new image always gets a new name, the same image keeps it.
 */

export type TrmnlFormat = 'png' | 'bmp';

/** The original TRMNL (ESP32-C3) refuses bigger downloads. */
const TRMNL_MAX_IMAGE_BYTES = 90_000;
/** Images kept per display, so a device told a name just before a new frame can still download it. */
const KEEP_PER_DISPLAY = 4;

export interface TrmnlImage {
  filename: string;
  format: TrmnlFormat;
  body: Buffer;
  contentType: 'image/png' | 'image/bmp';
  width: number;
  height: number;
  /** Re-rendered for the `trmnl` panel rather than the display's own frame. */
  converted: boolean;
  /** The frame it was made from. */
  sourceHash: string;
  since: Date;
}

function trmnlFilename(body: Buffer): string {
  return `outfit-${createHash('sha256').update(body).digest('hex').slice(0, 8)}`;
}

function isTrmnlSize(w: number, h: number): boolean {
  return (w === 800 && h === 480) || (w === 480 && h === 800);
}

/** The display's own frame in `format`, or null when the device could not use it. */
function asIsImage(panel: PanelProfile, frame: Frame, format: TrmnlFormat): { body: Buffer; contentType: TrmnlImage['contentType'] } | null {
  if (format === 'bmp') {
    return frame.bmp !== null && frame.width === 800 && frame.height === 480 && frame.bmp.length <= TRMNL_MAX_IMAGE_BYTES
      ? { body: frame.bmp, contentType: 'image/bmp' }
      : null;
  }
  const greyOk = panel.png.colour_type === 'grey' && (panel.png.bit_depth === 1 || panel.png.bit_depth === 2);
  return greyOk && isTrmnlSize(frame.width, frame.height) && frame.png.length <= TRMNL_MAX_IMAGE_BYTES
    ? { body: frame.png, contentType: 'image/png' }
    : null;
}

export interface TrmnlImagesOptions {
  /** Which displays have TRMNL devices, and in which formats. */
  formats: (displayId: string) => readonly TrmnlFormat[];
  /** How a display's frames are drawn (render/display-frame.ts), for the image drawn again for the TRMNL panel. */
  render: (display: DisplayConfig) => DisplayRenderOptions;
  /** Draws the image again for the TRMNL panel: the daemon's drawer; default in this process. */
  draw?: DrawFrame;
  /** Dates each image (its Last-Modified and the time drawn on it). */
  clock: Clock;
  logger?: Logger;
}

export class TrmnlImages {
  readonly #o: TrmnlImagesOptions;
  /** Per display, newest last. */
  readonly #images = new Map<string, TrmnlImage[]>();

  constructor(opts: TrmnlImagesOptions) {
    this.#o = opts;
  }

  /** Makes the TRMNL images of a new frame (only for displays that have TRMNL devices). */
  async prepare(view: ShownView): Promise<void> {
    for (const format of this.#o.formats(view.display.id)) {
      const cur = this.current(view.display.id, format);
      if (cur && cur.sourceHash === view.frame.hash) continue;
      this.#keep(view.display.id, await this.#make(view, format));
    }
  }

  async #make(view: ShownView, format: TrmnlFormat): Promise<TrmnlImage> {
    const { display, frame } = view;
    const since = new Date(this.#o.clock.now());
    const render = this.#o.render(display);
    const own = asIsImage(render.panel, frame, format);
    if (own) {
      return { filename: trmnlFilename(own.body), format, ...own, width: frame.width, height: frame.height, converted: false, sourceHash: frame.hash, since };
    }
    const rotation = format === 'bmp' && (display.rotation === 90 || display.rotation === 270) ? null : display.rotation;
    if (rotation === null) {
      this.#o.logger?.warn({ code: 'W_TRMNL_PORTRAIT_PNG', display: display.id }, 'TRMNL: a BMP must be 800x480 landscape; this portrait display is served a PNG');
    }
    const again = await (this.#o.draw ?? drawInProcess)(
      render,
      { rec: view.rec, status: view.status, now: since, storeProblem: view.storeProblem, stale: view.stale },
      { panel: loadPanel('trmnl'), rotation: rotation ?? display.rotation },
    );
    const bmp = format === 'bmp' && again.bmp !== null && again.width === 800;
    const body = bmp ? again.bmp! : again.png;
    this.#o.logger?.debug({ display: display.id, panel: display.panel, format }, 'TRMNL: frame rendered again for the trmnl panel');
    return {
      filename: trmnlFilename(body),
      format: bmp ? 'bmp' : 'png',
      body,
      contentType: bmp ? 'image/bmp' : 'image/png',
      width: again.width,
      height: again.height,
      converted: true,
      sourceHash: frame.hash,
      since,
    };
  }

  #keep(displayId: string, img: TrmnlImage): void {
    const list = (this.#images.get(displayId) ?? []).filter((i) => !(i.filename === img.filename && i.format === img.format));
    list.push(img);
    this.#images.set(displayId, list.slice(-KEEP_PER_DISPLAY * 2));
  }

  /** The newest image of a display for a device that asked for `format` (a portrait BMP request gets a PNG). */
  current(displayId: string, format: TrmnlFormat): TrmnlImage | null {
    const list = this.#images.get(displayId) ?? [];
    for (let i = list.length - 1; i >= 0; i--) {
      const img = list[i]!;
      if (img.format === format || (format === 'bmp' && img.converted && img.format === 'png')) return img;
    }
    return null;
  }

  /** A recent image by its name and extension, for the download. */
  byName(displayId: string, filename: string, ext: string): TrmnlImage | null {
    return (this.#images.get(displayId) ?? []).find((i) => i.filename === filename && i.format === ext) ?? null;
  }
}

/** `refresh_rate`: seconds until the display's next update plus a margin for the cycle to finish, bounded. */
const REFRESH_RATE_MIN_S = 60;
const REFRESH_RATE_MAX_S = 86_400;
const REFRESH_RATE_DEFAULT_S = 1_800;

export function refreshRateFor(nextUpdateAt: Date | null, now: number, marginS: number): number {
  if (nextUpdateAt === null || !Number.isFinite(nextUpdateAt.getTime())) return REFRESH_RATE_DEFAULT_S;
  const s = Math.ceil((nextUpdateAt.getTime() - now) / 1000) + marginS;
  return Math.min(REFRESH_RATE_MAX_S, Math.max(REFRESH_RATE_MIN_S, s));
}

let blank: Buffer | null = null;
/** A white 800x480 1-bit PNG: the setup image before a display has its first frame. */
export function blankTrmnlPng(): Buffer {
  blank ??= encodePng({ width: 800, height: 480, colourType: 'grey', bitDepth: 1, samples: new Uint8Array(800 * 480).fill(1) });
  return blank;
}
