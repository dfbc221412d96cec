import { hexToRgb, type PanelProfile } from '../../panels/panels.js';

/**
 * Which of a panel's inks may draw a line or a letter, worked out from the inks as they are on the glass (the
 * profile's measured `ink`, else `rgb`), never from their names: on the 7.3" F, blue (#3d3b5e) is named a colour
 * and looks like its black (#393039), and yellow (#d0be47) is named a colour and all but vanishes on paper.
 *
 * The measure is WCAG 2's contrast ratio of relative luminances. Thin strokes and small text are seen by
 * luminance: the eye resolves colour differences at about a third of the detail it resolves light and dark, so a
 * 5 px line that differs from black only in hue reads as black at 2 m. A stroke ink must stand apart from both
 * things it sits beside:
 * - paper, by WCAG's 3:1 for graphical objects (SC 1.4.11): below it the line is faint;
 * - the panel's black, by 1.5:1, a step in lightness half again as bright: the F's blue (1.2:1) is under it
 *   (the issue's "indistinguishable from black"), its green (1.7:1), red (2.1:1) and orange (3.0:1) over it.
 * An ink that fails may still fill an area inside a black outline (the outline carries the shape; the area is
 * large enough for its hue to be seen), if it differs from paper at all (FILL_MIN_VS_PAPER) and stands apart from
 * black as a stroke must: an area that looks black inside its black outline reads as a solid black shape (the F's
 * blue canopy read as black from 2 m).
 */

/** Least contrast of a stroke ink against paper (WCAG 2.1 SC 1.4.11, non-text contrast). */
export const STROKE_MIN_VS_PAPER = 3;
/** Least contrast of a stroke ink against the panel's black (see above). */
export const STROKE_MIN_VS_BLACK = 1.5;
/** Least contrast of a fill ink against paper: a fill the eye can find as an area inside its outline. */
export const FILL_MIN_VS_PAPER = 1.5;

type Rgb = readonly [number, number, number];

/** WCAG 2 relative luminance of an sRGB colour (0: black, 1: white). */
export function relativeLuminance([r, g, b]: Rgb): number {
  const lin = (c: number): number => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG 2 contrast ratio of two colours, 1 (none) to 21 (black on white). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** A palette entry's colour on the glass: its measured ink, else the colour written to files. */
export function glassRgb(panel: PanelProfile, name: string): Rgb | null {
  const e = panel.palette.find((p) => p.name === name);
  return e ? hexToRgb(e.ink ?? e.rgb) : null;
}

export interface InkContrast {
  name: string;
  vsBlack: number;
  vsPaper: number;
  /** May draw lines and text: stands apart from black and from paper. */
  stroke: boolean;
  /** May fill an area inside a black outline: differs from paper, and stands apart from black. */
  fill: boolean;
}

/** Each ink of the panel other than black and paper, with its contrasts and what it may draw. */
export function inkContrasts(panel: PanelProfile): InkContrast[] {
  const black = glassRgb(panel, 'black') ?? [0, 0, 0];
  const paper = glassRgb(panel, 'white') ?? [255, 255, 255];
  return panel.palette
    .filter((e) => e.name !== 'black' && e.name !== 'white')
    .map((e) => {
      const rgb = hexToRgb(e.ink ?? e.rgb);
      const vsBlack = contrastRatio(rgb, black);
      const vsPaper = contrastRatio(rgb, paper);
      return {
        name: e.name,
        vsBlack,
        vsPaper,
        stroke: vsBlack >= STROKE_MIN_VS_BLACK && vsPaper >= STROKE_MIN_VS_PAPER,
        fill: vsBlack >= STROKE_MIN_VS_BLACK && vsPaper >= FILL_MIN_VS_PAPER,
      };
    });
}
