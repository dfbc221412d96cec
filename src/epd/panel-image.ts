import { PNG } from 'pngjs';
import type { PanelProfile } from '../panels/panels.js';
import { rotatePixels, type Rotation } from '../render/encode/rotate.js';
import type { PanelImage } from './driver.js';
import { EpdError } from './epd-error.js';

/**
 * A PNG frame (ours, or one an owner made) as the panel's driver takes it: palette indices of the panel profile, in
 * the profile's width x height. Decoded with pngjs, so any PNG colour type works; each pixel must be exactly one of
 * the profile's colours (`rgb`), else E_PANEL_FRAME names the first one that is not, with its position.
 */

function hex(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * `png`: the frame as seen on the wall, i.e. turned by the display's `rotation` (what the renderer writes); it is
 * turned back here. A PNG of another size or with a colour the panel cannot show is refused.
 */
export function panelImageFromPng(png: Buffer, panel: PanelProfile, rotation: Rotation = 0): PanelImage {
  let decoded: PNG;
  try {
    decoded = PNG.sync.read(png);
  } catch (err) {
    throw new EpdError('E_PANEL_FRAME', `not a PNG image (${(err as Error).message})`, { cause: err });
  }
  const turned = rotation === 90 || rotation === 270;
  const wantW = turned ? panel.height : panel.width;
  const wantH = turned ? panel.width : panel.height;
  if (decoded.width !== wantW || decoded.height !== wantH) {
    throw new EpdError(
      'E_PANEL_FRAME',
      `the frame is ${decoded.width}x${decoded.height}, the ${panel.id} panel${rotation === 0 ? '' : ` at rotation ${rotation}`} shows ${wantW}x${wantH}: render it for this panel (outfit-display render)`,
    );
  }
  const index = new Map(panel.palette.map((e, i) => [e.rgb.toLowerCase(), i] as const));
  const n = decoded.width * decoded.height;
  const out = new Uint8Array(n);
  const d = decoded.data;
  let last = -1;
  let lastIdx = 0;
  for (let p = 0; p < n; p++) {
    const o = p * 4;
    const key = (d[o]! << 16) | (d[o + 1]! << 8) | d[o + 2]!;
    if (key !== last) {
      const idx = index.get(hex(d[o]!, d[o + 1]!, d[o + 2]!));
      if (idx === undefined || d[o + 3] !== 255) {
        const x = p % decoded.width;
        const y = Math.floor(p / decoded.width);
        const names = panel.palette.map((e) => `${e.name} ${e.rgb}`).join(', ');
        throw new EpdError(
          'E_PANEL_FRAME',
          `pixel (${x}, ${y}) is ${hex(d[o]!, d[o + 1]!, d[o + 2]!)}${d[o + 3] !== 255 ? ' (not opaque)' : ''}, not a colour of the ${panel.id} panel (${names})`,
        );
      }
      last = key;
      lastIdx = idx;
    }
    out[p] = lastIdx;
  }
  // Back from the wall's orientation to the profile's: the inverse turn.
  const back = ((360 - rotation) % 360) as Rotation;
  const r = rotatePixels(out, decoded.width, decoded.height, back);
  return { width: r.width, height: r.height, indices: r.pixels };
}
