/**
 * Packs one row of one-byte-a-pixel values into 1, 2, 4 or 8 bits a pixel, most significant bits first, the
 * last byte padded with zero bits. `lut` maps each source value to the packed value. Shared by the PNG, BMP
 * and raw encoders.
 */
export function packRow(
  src: Uint8Array,
  srcOffset: number,
  width: number,
  bits: 1 | 2 | 4 | 8,
  lut: Uint8Array,
  dst: Uint8Array,
  dstOffset: number,
): void {
  const perByte = 8 / bits;
  let o = dstOffset;
  let x = 0;
  let s = srcOffset;
  if (bits === 8) {
    for (; x < width; x++) dst[o++] = lut[src[s++]!]!;
    return;
  }
  for (; x + perByte <= width; x += perByte) {
    let b = 0;
    for (let k = 0; k < perByte; k++) b = (b << bits) | lut[src[s++]!]!;
    dst[o++] = b;
  }
  if (x < width) {
    let b = 0;
    let k = 0;
    for (; x < width; x++, k++) b = (b << bits) | lut[src[s++]!]!;
    dst[o] = b << (bits * (perByte - k));
  }
}

/** The identity for values 0..255. */
export const IDENTITY = Uint8Array.from({ length: 256 }, (_, i) => i);
