export type Rotation = 0 | 90 | 180 | 270;

/** Turns a one-byte-a-pixel image clockwise by `degrees`; returns the new buffer and size. */
export function rotatePixels(
  src: Uint8Array,
  width: number,
  height: number,
  degrees: Rotation,
): { pixels: Uint8Array; width: number; height: number } {
  if (degrees === 0) return { pixels: src, width, height };
  const out = new Uint8Array(src.length);
  if (degrees === 180) {
    for (let i = 0, n = src.length; i < n; i++) out[n - 1 - i] = src[i]!;
    return { pixels: out, width, height };
  }
  // 90 clockwise: source (x, y) lands at (height - 1 - y, x) in a height x width image; 270 at (y, width - 1 - x).
  const w2 = height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = src[y * width + x]!;
      if (degrees === 90) out[x * w2 + (height - 1 - y)] = v;
      else out[(width - 1 - x) * w2 + y] = v;
    }
  }
  return { pixels: out, width: height, height: width };
}

export function addRotations(a: Rotation, b: Rotation): Rotation {
  return ((a + b) % 360) as Rotation;
}
