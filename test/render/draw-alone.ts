import { matchPalette } from '../../src/render/frame.js';
import type { PanelProfile } from '../../src/panels/panels.js';
import { drawPictogram, type Pictogram } from '../../src/render/pictograms/pictogram.js';
import { quantize } from '../../src/render/encode/quantize.js';
import { createSurface } from '../../src/render/draw/surface.js';
import { typeScale } from '../../src/render/draw/type-scale.js';
import type { Meaning } from '../../src/render/draw/colour-meaning.js';

/** Test helper: one pictogram alone at `size` px on a `panel` surface, as the frame quantizes it: palette indices. */
export function drawAlone(panel: PanelProfile, picto: Pictogram, size: number, tint?: Meaning): Uint8Array {
  const palette = matchPalette(panel);
  const { surface, crispCanvas, toneCanvas } = createSurface(size, size, panel, palette, 1, typeScale('wall', 124.4));
  drawPictogram(surface, picto, 0, 0, size, tint);
  const crisp = crispCanvas.getContext('2d').getImageData(0, 0, size, size).data;
  const tone = toneCanvas.getContext('2d').getImageData(0, 0, size, size).data;
  return quantize({
    width: size,
    height: size,
    text: surface.text.index,
    crisp,
    tone,
    palette,
    dither: 'floyd-steinberg',
  });
}
