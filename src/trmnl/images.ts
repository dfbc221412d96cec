import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { DisplayConfig } from '../config/schema.js';
import { drawInProcess, type DisplayRenderOptions, type DrawFrame } from '../render/display-frame.js';
import type { Frame } from '../render/frame.js';
import { listPanelIds, loadPanel, ppiOf, type PanelProfile } from '../panels/panels.js';
import { encodePng } from '../render/encode/png.js';
import { frameLook, type ShownView } from '../state/display-views.js';
import type { Clock } from '../time/clock.js';
import { onePersonOf } from '../state/person-view.js';
import { OG_MAX_BYTES, type ScreenSpec, type TrmnlFormat } from './models.js';

/**
 * The images a display's pulling devices get, one for each screen they have: drawn from the display's one view for
 * the device's panel profile (models.ts chooses it), and named `outfit-<8 hex of its sha256>`, so that a new image
 * always gets a new name and the firmware's filename cache redraws a known one from flash.
 *
 * A device whose screen draws alike the display's own panel gets the display's frame, byte for byte. A device that said
 * nothing of its screen (older firmware) keeps the old rule: the display's frame when a TRMNL can show it (800x480
 * or 480x800, 1- or 2-bit grey, under 90,000 bytes, or the 1-bit BMP), else the frame drawn for `trmnl`. An image
 * over its model's byte cap is drawn again for the same screen in fewer greys (a larger file is cropped by the
 * firmware); each rotation is the display's.
 */

/** Images kept per screen of a display, so a device told a name just before a new frame can still download it. */
const KEEP_PER_SCREEN = 4;

export interface TrmnlImage {
  filename: string;
  format: TrmnlFormat;
  body: Buffer;
  contentType: 'image/png' | 'image/bmp';
  width: number;
  height: number;
  /** The profile it was drawn for (the display's own for its own frame). */
  panel: string;
  /** Drawn again rather than the display's own frame. */
  converted: boolean;
  /** The frame it was made from. */
  sourceHash: string;
  /**
   * What the frame says of its own age and health (stale, the status): an image whose look differs from the one a
   * device shows must clear the old marks with a full refresh, or a stale badge ghosts on.
   */
  look: string;
  since: Date;
}

function trmnlFilename(body: Buffer): string {
  return `outfit-${createHash('sha256').update(body).digest('hex').slice(0, 8)}`;
}

function specKey(s: Pick<ScreenSpec, 'panel' | 'format' | 'person'>): string {
  return `${s.panel ?? '-'}/${s.format}${s.person === undefined ? '' : `/${s.person}`}`;
}

function isTrmnlSize(w: number, h: number): boolean {
  return (w === 800 && h === 480) || (w === 480 && h === 800);
}

/** The display's own frame for a device that did not say its screen, or null when a TRMNL could not use it. */
function legacyOwn(
  panel: PanelProfile,
  frame: Frame,
  format: TrmnlFormat,
): { body: Buffer; contentType: TrmnlImage['contentType'] } | null {
  if (format === 'bmp') {
    return frame.bmp !== null && frame.width === 800 && frame.height === 480 && frame.bmp.length <= OG_MAX_BYTES
      ? { body: frame.bmp, contentType: 'image/bmp' }
      : null;
  }
  const greyOk = panel.png.colour_type === 'grey' && (panel.png.bit_depth === 1 || panel.png.bit_depth === 2);
  return greyOk && isTrmnlSize(frame.width, frame.height) && frame.png.length <= OG_MAX_BYTES
    ? { body: frame.png, contentType: 'image/png' }
    : null;
}

/**
 * Whether a frame drawn for `a` is the frame drawn for `b`: what the drawing reads of a profile (its size, pixel
 * density, palette and file format) is the same. A 7.5" Waveshare V2 display's frame is then a TRMNL's, byte for byte.
 */
function drawsAlike(a: PanelProfile, b: PanelProfile): boolean {
  const key = (p: PanelProfile): string =>
    JSON.stringify([p.width, p.height, ppiOf(p), p.colour, p.bit_depth, p.palette, p.png, p.bmp]);
  return a.id === b.id || key(a) === key(b);
}

/** The profiles of the same screen in fewer greys, most first: where an image over the byte cap goes next. */
function fewerGreys(panel: PanelProfile): PanelProfile[] {
  return listPanelIds()
    .map((id) => loadPanel(id))
    .filter(
      (p) =>
        p.width === panel.width &&
        p.height === panel.height &&
        p.colour === 'grey' &&
        p.png.colour_type === 'grey' &&
        p.bit_depth < panel.bit_depth,
    )
    .sort((a, b) => b.bit_depth - a.bit_depth);
}

export interface TrmnlImagesOptions {
  /**
   * The screens a display's configured devices are known to have, by device (their bindings: a fixed panel, else
   * the old rule); what a device's own request says replaces its entry (want()).
   */
  screens: (displayId: string) => ReadonlyMap<string, ScreenSpec>;
  /** How a display's frames are drawn (render/display-frame.ts), for the images drawn again for a device. */
  render: (display: DisplayConfig) => DisplayRenderOptions;
  /** Draws the images drawn again: the daemon's drawer; default in this process. */
  draw?: DrawFrame;
  /** Dates each image (its Last-Modified and the time drawn on it). */
  clock: Clock;
  logger?: Logger;
}

export class TrmnlImages {
  readonly #o: TrmnlImagesOptions;
  /** Per display and screen, newest last. */
  readonly #images = new Map<string, Map<string, TrmnlImage[]>>();
  /** Screens learned from the devices' requests, per display and device. */
  readonly #learned = new Map<string, Map<string, ScreenSpec>>();
  /** Images being made, so that two devices of one screen waking together draw it once. */
  readonly #making = new Map<string, Promise<TrmnlImage>>();
  readonly #warned = new Set<string>();

  constructor(opts: TrmnlImagesOptions) {
    this.#o = opts;
  }

  /** Remembers the screen a device of the display has: every new frame is drawn for it from now on. */
  want(displayId: string, device: string, spec: ScreenSpec): void {
    const m = this.#learned.get(displayId) ?? new Map<string, ScreenSpec>();
    m.set(device, spec);
    this.#learned.set(displayId, m);
  }

  /** The screens of the display's devices, each once. */
  #screens(displayId: string): ScreenSpec[] {
    const byDevice = new Map([...this.#o.screens(displayId), ...(this.#learned.get(displayId) ?? [])]);
    return [...new Map([...byDevice.values()].map((s) => [specKey(s), s])).values()];
  }

  /**
   * Makes the images of a new frame for every screen the display's devices have. One that cannot be drawn is logged
   * and left to the device's next wake (which serves that screen's last image meanwhile); the others are made.
   */
  async prepare(view: ShownView): Promise<void> {
    for (const spec of this.#screens(view.display.id)) {
      try {
        await this.imageFor(view, spec);
      } catch (err) {
        this.#o.logger?.error(
          { err, display: view.display.id, panel: spec.panel },
          "TRMNL: the frame could not be drawn for a device's screen",
        );
      }
    }
  }

  /** The image of the view's frame for a screen: made now when it is not yet (a device of a screen not seen before). */
  async imageFor(view: ShownView, spec: ScreenSpec): Promise<TrmnlImage> {
    const cur = this.current(view.display.id, spec);
    if (cur && cur.sourceHash === view.frame.hash && cur.look === frameLook(view)) return cur;
    const key = `${view.display.id}\u0000${specKey(spec)}\u0000${view.frame.hash}`;
    const running = this.#making.get(key);
    if (running) return running;
    const p = this.#make(view, spec)
      .then((img) => {
        this.#keep(view.display.id, spec, img);
        return img;
      })
      .finally(() => this.#making.delete(key));
    this.#making.set(key, p);
    return p;
  }

  async #make(view: ShownView, spec: ScreenSpec): Promise<TrmnlImage> {
    const { display, frame } = view;
    const since = new Date(this.#o.clock.now());
    const render = this.#o.render(display);
    const look = frameLook(view);
    const made = (
      body: Buffer,
      contentType: TrmnlImage['contentType'],
      width: number,
      height: number,
      panel: string,
      converted: boolean,
    ): TrmnlImage => ({
      filename: trmnlFilename(body),
      format: contentType === 'image/bmp' ? 'bmp' : 'png',
      body,
      contentType,
      width,
      height,
      panel,
      converted,
      sourceHash: frame.hash,
      look,
      since,
    });
    // A device of one person of the household never gets the display's frame: that shows everyone.
    const everyone = spec.person === undefined || view.people === undefined;
    if (spec.panel === null && everyone) {
      const own = legacyOwn(render.panel, frame, spec.format);
      if (own) return made(own.body, own.contentType, frame.width, frame.height, render.panel.id, false);
    }
    let panel = spec.panel === null ? loadPanel('trmnl') : loadPanel(spec.panel);
    const portrait = display.rotation === 90 || display.rotation === 270;
    const wantsBmp = spec.format === 'bmp' && panel.bmp && !portrait;
    if (spec.format === 'bmp' && !wantsBmp)
      this.#warnOnce(
        `bmp/${display.id}/${panel.id}`,
        'W_TRMNL_PORTRAIT_PNG',
        { display: display.id, panel: panel.id },
        'TRMNL: a BMP must be an 800x480 landscape black-and-white frame; this device is served a PNG',
      );
    for (;;) {
      const f =
        everyone && drawsAlike(panel, render.panel) ? frame : await this.#drawFor(view, render, panel, since, spec);
      const bmp = wantsBmp && f.bmp !== null;
      const body = bmp ? f.bmp! : f.png;
      const next = body.length > spec.maxBytes ? fewerGreys(panel)[0] : undefined;
      if (next === undefined || body.length <= spec.maxBytes) {
        if (body.length > spec.maxBytes) {
          this.#warnOnce(
            `size/${display.id}/${panel.id}`,
            'W_TRMNL_IMAGE_TOO_LARGE',
            { display: display.id, panel: panel.id, bytes: body.length, limit: spec.maxBytes },
            "TRMNL: the image is over the device's byte cap even in the fewest greys; it may be cut off",
          );
        }
        return made(body, bmp ? 'image/bmp' : 'image/png', f.width, f.height, panel.id, f !== frame);
      }
      this.#warnOnce(
        `size/${display.id}/${panel.id}`,
        'W_TRMNL_IMAGE_TOO_LARGE',
        { display: display.id, panel: panel.id, bytes: body.length, limit: spec.maxBytes, instead: next.id },
        "TRMNL: the image is over the device's byte cap; drawn in fewer greys",
      );
      panel = next;
    }
  }

  #drawFor(
    view: ShownView,
    render: DisplayRenderOptions,
    panel: PanelProfile,
    now: Date,
    spec: Pick<ScreenSpec, 'person'>,
  ): Promise<Frame> {
    this.#o.logger?.debug({ display: view.display.id, panel: panel.id }, "TRMNL: frame drawn for a device's screen");
    return (this.#o.draw ?? drawInProcess)(
      render,
      {
        rec: view.rec,
        status: view.status,
        now,
        storeProblem: view.storeProblem,
        stale: view.stale,
        ...onePersonOf(view, spec.person),
      },
      { panel, rotation: view.display.rotation },
    );
  }

  #warnOnce(
    key: string,
    code: 'W_TRMNL_PORTRAIT_PNG' | 'W_TRMNL_IMAGE_TOO_LARGE',
    fields: Record<string, unknown>,
    msg: string,
  ): void {
    if (this.#warned.has(key)) return;
    this.#warned.add(key);
    this.#o.logger?.warn({ code, ...fields }, msg);
  }

  #keep(displayId: string, spec: ScreenSpec, img: TrmnlImage): void {
    const byScreen = this.#images.get(displayId) ?? new Map<string, TrmnlImage[]>();
    const key = specKey(spec);
    const list = (byScreen.get(key) ?? []).filter((i) => !(i.filename === img.filename && i.format === img.format));
    list.push(img);
    byScreen.set(key, list.slice(-KEEP_PER_SCREEN));
    this.#images.set(displayId, byScreen);
  }

  /** The newest image of a display for a screen, or null before its first. */
  current(displayId: string, spec: Pick<ScreenSpec, 'panel' | 'format'>): TrmnlImage | null {
    return this.#images.get(displayId)?.get(specKey(spec))?.at(-1) ?? null;
  }

  /** A recent image by its name and extension, for the download. */
  byName(displayId: string, filename: string, ext: string): TrmnlImage | null {
    for (const list of this.#images.get(displayId)?.values() ?? []) {
      const hit = list.find((i) => i.filename === filename && i.format === ext);
      if (hit) return hit;
    }
    return null;
  }
}

let blank: Buffer | null = null;
/** A white 800x480 1-bit PNG: the setup image before a display has its first frame. */
export function blankTrmnlPng(): Buffer {
  blank ??= encodePng({
    width: 800,
    height: 480,
    colourType: 'grey',
    bitDepth: 1,
    samples: new Uint8Array(800 * 480).fill(1),
  });
  return blank;
}
