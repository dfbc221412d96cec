import type { PanelProfile } from '../../panels/panels.js';
import { packRow } from './pack.js';
import { addRotations, rotatePixels, type Rotation } from './rotate.js';

/**
 * The raw framebuffer in the panel's native order: the picture as the viewer sees it is turned back by the
 * mount rotation, then by the profile's `native_rotation` into the controller's RAM order, and each
 * framebuffer plane is packed (MSB first, rows padded to `row_align_bytes`), plane after plane.
 */
export function encodeRaw(
  indices: Uint8Array,
  viewWidth: number,
  viewHeight: number,
  panel: PanelProfile,
  rotation: Rotation,
): Buffer {
  const back = ((360 - rotation) % 360) as Rotation;
  const native = rotatePixels(indices, viewWidth, viewHeight, addRotations(back, panel.native_rotation));
  const planes = panel.framebuffer.planes.map((plane) =>
    packPlane(
      native.pixels,
      native.width,
      native.height,
      plane.bits_per_pixel,
      plane.values,
      panel.framebuffer.row_align_bytes,
    ),
  );
  return Buffer.concat(planes);
}

export function packPlane(
  indices: Uint8Array,
  width: number,
  height: number,
  bitsPerPixel: 1 | 2 | 4 | 8,
  values: readonly number[],
  rowAlignBytes: number,
): Buffer {
  const rowBytes = Math.ceil((width * bitsPerPixel) / 8);
  const stride = Math.ceil(rowBytes / rowAlignBytes) * rowAlignBytes;
  const out = Buffer.alloc(stride * height);
  const lut = new Uint8Array(256);
  values.forEach((v, i) => (lut[i] = v));
  for (let y = 0; y < height; y++) packRow(indices, y * width, width, bitsPerPixel, lut, out, y * stride);
  return out;
}
