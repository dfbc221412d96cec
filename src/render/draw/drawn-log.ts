import type { Box } from './box.js';

/**
 * What a frame drew, element by element, for `render --out x.json` and the checks that hold a frame to its rules
 * without reading pixels: every symbol by name with the element it belongs to, and the colours each element was
 * drawn in. The layouts say which element they are drawing (`within`); the drawing primitives (text lines,
 * pictograms, marks, bands) note what they drew under it.
 */

/** The parts of a frame, as `render --out x.json` names them. */
export const FRAME_ELEMENTS = [
  'top_band',
  'status',
  'condition',
  'temperature',
  'feels_like',
  'rain_chance',
  'wind',
  'uv',
  'humidity',
  'alerts',
  'pictograms',
  'outfit',
  'reasoning',
  'old_mark',
  'person',
  'additions',
] as const;

export type FrameElement = (typeof FRAME_ELEMENTS)[number];

/** A symbol drawn: its name ("thunder", "coat", "cloud-drops"), its element and the CSS colour of its meaning. */
export interface DrawnIcon {
  name: string;
  /** null: drawn outside any element, which a layout should not do (the frame checks say so). */
  element: FrameElement | null;
  colour: string;
}

export class DrawnLog {
  #element: FrameElement | null = null;
  readonly icons: DrawnIcon[] = [];
  /** CSS colours of each element's ink, text and fills, in the order first drawn; key null: outside any element. */
  readonly colours = new Map<FrameElement | null, string[]>();
  /** The rules drawn (the band's, the weather's, a column's), px: text keeps the frame's margin from them. */
  readonly rules: Box[] = [];

  /** Runs `draw` with what it draws noted under `element`; elements nest, the innermost wins. */
  within<T>(element: FrameElement, draw: () => T): T {
    const outer = this.#element;
    this.#element = element;
    try {
      return draw();
    } finally {
      this.#element = outer;
    }
  }

  /** Something drawn in `colour` (a line of text, a band's fill, a rule) in the current element. */
  ink(colour: string): void {
    const list = this.colours.get(this.#element) ?? [];
    if (!list.includes(colour)) list.push(colour);
    this.colours.set(this.#element, list);
  }

  /** A symbol drawn in the current element; `colour` is the one that carries its meaning (else its ink). */
  icon(name: string, colour: string): void {
    this.icons.push({ name, element: this.#element, colour });
    this.ink(colour);
  }

  /** A rule (a line that divides the frame) drawn over `box`. */
  rule(box: Box): void {
    this.rules.push(box);
  }
}
