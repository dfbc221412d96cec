import type { PictoPart } from './pictogram.js';

/**
 * A solid part drawn pixel by pixel: `rows` is the 24x24 grid as text, '#' ink and anything else paper, one string
 * a row from the top. At 24 px each '#' is exactly one pixel of the frame, so the drawing in the source is the
 * drawing on the panel: no pen to fatten the shape and close a 1 px gap between a sleeve and the body, which is
 * what turned the small sweater into a blob. At 32 px the same cells grow to 1-2 px each, still on whole pixels.
 * Each row's runs of '#' become rectangles (whole grid units, no stroke), filled as one part, so a tint colours
 * them as it colours any solid part.
 */
export function pixelArt(rows: readonly string[]): PictoPart {
  if (rows.length > 24 || rows.some((r) => r.length > 24)) throw new Error('pixel art is at most 24x24');
  const rects: string[] = [];
  rows.forEach((row, y) => {
    for (const m of row.matchAll(/#+/g))
      rects.push(`M${m.index} ${y} H${m.index + m[0].length} V${y + 1} H${m.index} Z`);
  });
  return { d: rects.join(' '), fill: 'ink', stroke: 'none' };
}
