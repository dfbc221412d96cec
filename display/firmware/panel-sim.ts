import { hexToRgb, type PanelProfile } from '../../src/panels/panels.js';
import { encodePng } from '../../src/render/encode/png.js';

/**
 * The simulated e-ink panel: its framebuffer (one palette index a pixel, as the picture is seen), the refresh the
 * firmware chooses by the panel profile's rules, and the ghosting partial refreshes leave.
 *
 * Refresh rules: nothing changed → no refresh at all; the first picture, every grey or colour palette (more than two
 * entries), a panel without partial refresh, and every `full_every`-th update are full refreshes (`full_ms`); the
 * rest are partial (`partial_ms`), updating only the changed pixels. A server's `maximum_compatibility` forces a
 * full refresh of a changed picture.
 *
 * Ghosting model (a model, not a measurement): each partial refresh leaves, on every pixel it changes, a residue of
 * GHOST_PER_PARTIAL of the colour that was there before, adding up to GHOST_MAX; pixels it does not change keep
 * theirs. A full refresh (the black-white flashing) clears every residue. The glass shows the current colour mixed
 * with the residue's colour by its strength.
 */

export const GHOST_PER_PARTIAL = 0.06;
export const GHOST_MAX = 0.3;

export type RefreshKind = 'full' | 'partial' | 'none';

export interface RefreshResult {
  kind: RefreshKind;
  ms: number;
  changedPixels: number;
  /** Partial updates since the last full refresh, after this one. */
  partialsSinceFull: number;
  /** The strongest residue on the glass after this refresh (0..GHOST_MAX). */
  ghostMax: number;
}

export class PanelSim {
  readonly panel: PanelProfile;
  readonly width: number;
  readonly height: number;
  /** Palette index a pixel. */
  readonly framebuffer: Uint8Array;
  /** Residue strength a pixel (0: none). */
  readonly ghost: Float32Array;
  /** The palette index whose colour the residue shows. */
  readonly ghostOf: Uint8Array;
  #shown = false;
  #partials = 0;
  /** The strongest residue: residues only grow, until a full refresh clears them all. */
  #ghostMax = 0;
  readonly #rgb: [number, number, number][];
  /** The measured inks (the profile's `ink`, else `rgb`): what the real glass shows, duller than the palette. */
  readonly #ink: [number, number, number][];

  constructor(panel: PanelProfile, width: number, height: number) {
    this.panel = panel;
    this.width = width;
    this.height = height;
    const white = panel.palette.findIndex((e) => e.rgb === '#ffffff');
    this.framebuffer = new Uint8Array(width * height).fill(Math.max(0, white));
    this.ghost = new Float32Array(width * height);
    this.ghostOf = new Uint8Array(width * height);
    this.#rgb = panel.palette.map((e) => hexToRgb(e.rgb));
    this.#ink = panel.palette.map((e) => hexToRgb(e.ink ?? e.rgb));
  }

  get partialsSinceFull(): number {
    return this.#partials;
  }

  /** The refresh the firmware would choose for `next`. */
  chooseRefresh(changed: number, forceFull = false): Exclude<RefreshKind, 'none'> | 'none' {
    if (changed === 0 && this.#shown) return 'none';
    const r = this.panel.refresh;
    const greyOrColour = this.panel.palette.length > 2;
    if (
      forceFull ||
      !this.#shown ||
      greyOrColour ||
      !r.partial ||
      r.partial_ms === null ||
      this.#partials + 1 >= r.full_every
    )
      return 'full';
    return 'partial';
  }

  /** Drives the panel to show `next` (palette indices, same size); `forceFull`: the server's maximum_compatibility. */
  show(next: Uint8Array, forceFull = false): RefreshResult {
    if (next.length !== this.framebuffer.length)
      throw new Error(`framebuffer is ${this.width}x${this.height}; got ${next.length} pixels`);
    let changed = 0;
    for (let i = 0; i < next.length; i++) if (next[i] !== this.framebuffer[i]) changed++;
    const kind = this.chooseRefresh(changed, forceFull);
    if (kind === 'full') {
      this.framebuffer.set(next);
      this.ghost.fill(0);
      this.#ghostMax = 0;
      this.#partials = 0;
    } else if (kind === 'partial') {
      for (let i = 0; i < next.length; i++) {
        if (next[i] === this.framebuffer[i]) continue;
        this.ghostOf[i] = this.framebuffer[i]!;
        this.ghost[i] = Math.min(GHOST_MAX, this.ghost[i]! + GHOST_PER_PARTIAL);
        if (this.ghost[i]! > this.#ghostMax) this.#ghostMax = this.ghost[i]!;
        this.framebuffer[i] = next[i]!;
      }
      this.#partials++;
    }
    if (kind !== 'none') this.#shown = true;
    const r = this.panel.refresh;
    return {
      kind,
      ms: kind === 'full' ? r.full_ms : kind === 'partial' ? (r.partial_ms ?? r.full_ms) : 0,
      changedPixels: changed,
      partialsSinceFull: this.#partials,
      ghostMax: this.ghostMax(),
    };
  }

  ghostMax(): number {
    return Math.round(this.#ghostMax * 1000) / 1000;
  }

  /** The profile measured its inks: inkPng() then differs from glassPng(). */
  get hasMeasuredInks(): boolean {
    return this.panel.palette.some((e) => e.ink !== undefined);
  }

  /**
   * What the glass shows, 3 bytes a pixel: the framebuffer's colours with the residue mixed in; with `inks`, in the
   * measured inks rather than the palette's colours.
   */
  glassRgb(inks = false): Uint8Array {
    const table = inks ? this.#ink : this.#rgb;
    const out = new Uint8Array(this.framebuffer.length * 3);
    for (let i = 0; i < this.framebuffer.length; i++) {
      const c = table[this.framebuffer[i]!]!;
      const s = this.ghost[i]!;
      const g = s > 0 ? table[this.ghostOf[i]!]! : c;
      for (let k = 0; k < 3; k++) out[i * 3 + k] = Math.round(c[k]! + (g[k]! - c[k]!) * s);
    }
    return out;
  }

  /**
   * The glass as a PNG: 8-bit grey for grey panels (exactly the frame's levels where there is no residue), indexed
   * with the panel's colours for colour panels (which never refresh partially, so never ghost).
   */
  glassPng(): Buffer {
    const rgb = this.glassRgb();
    const n = this.framebuffer.length;
    if (this.panel.colour === 'grey') {
      const grey = new Uint8Array(n);
      for (let i = 0; i < n; i++) grey[i] = rgb[i * 3]!;
      return encodePng({ width: this.width, height: this.height, colourType: 'grey', bitDepth: 8, samples: grey });
    }
    return encodePng({
      width: this.width,
      height: this.height,
      colourType: 'indexed',
      bitDepth: 8,
      samples: this.framebuffer,
      palette: this.#rgb,
    });
  }

  /**
   * The glass in the real inks: the 7.3" F's blue is then near its black and its yellow pale on paper, as on the
   * wall. This is the view to judge colour by; glassPng() keeps the palette's exact colours, which a frame's PNG
   * has too. Indexed like glassPng(): only panels of more than two entries measure inks, and those never refresh
   * partially, so never ghost.
   */
  inkPng(): Buffer {
    return encodePng({
      width: this.width,
      height: this.height,
      colourType: 'indexed',
      bitDepth: 8,
      samples: this.framebuffer,
      palette: this.#ink,
    });
  }
}
