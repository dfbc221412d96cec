/**
 * Test helper: what a pictogram's ink is made of, for the checks that a drawing has the parts that make it read
 * (a sole, a heel, two legs, a face in a hood). A bitmap is rows of 1 (ink) and 0 (paper).
 */

export interface Bitmap {
  size: number;
  /** Rows from the top, each `size` long. */
  rows: number[][];
}

/** The square bitmap of `bits` (row-major, `size` x `size`). */
export function bitmap(bits: Uint8Array, size: number): Bitmap {
  return { size, rows: Array.from({ length: size }, (_, y) => [...bits.subarray(y * size, (y + 1) * size)]) };
}

/** The first and last column of ink in `row`, or [-1, -1] for a row without ink. */
export function extent(row: readonly number[]): [number, number] {
  return [row.indexOf(1), row.lastIndexOf(1)];
}

/** The first and last column of ink over the whole bitmap. */
export function inkColumns(b: Bitmap): [number, number] {
  const inked = b.rows.filter((r) => r.includes(1)).map(extent);
  return [Math.min(...inked.map((e) => e[0])), Math.max(...inked.map((e) => e[1]))];
}

/** The longest unbroken run of ink in `row`, px. */
export function longestRun(row: readonly number[]): number {
  let best = 0;
  let run = 0;
  for (const v of row) {
    run = v === 1 ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
}

/** The pixels of `value` in `b` as 4-connected regions, each with whether it touches the bitmap's edge. */
function regions(b: Bitmap, value: number): { edge: boolean }[] {
  const { size, rows } = b;
  const seen = new Uint8Array(size * size);
  const found: { edge: boolean }[] = [];
  for (let start = 0; start < size * size; start++) {
    if (seen[start] || rows[Math.floor(start / size)]![start % size] !== value) continue;
    let edge = false;
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const i = stack.pop()!;
      const x = i % size;
      const y = Math.floor(i / size);
      if (x === 0 || y === 0 || x === size - 1 || y === size - 1) edge = true;
      for (const [nx, ny] of [
        [x - 1, y],
        [x + 1, y],
        [x, y - 1],
        [x, y + 1],
      ] as const) {
        if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
        const j = ny * size + nx;
        if (!seen[j] && rows[ny]![nx] === value) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    found.push({ edge });
  }
  return found;
}

/** How many separate shapes (4-connected) the pixels of `value` make. */
export function shapes(b: Bitmap, value: 0 | 1): number {
  return regions(b, value).length;
}

/** How many regions of paper the ink closes in (not reaching the edge): a face in a hood, a foot in its straps. */
export function enclosedPaper(b: Bitmap): number {
  return regions(b, 0).filter((r) => !r.edge).length;
}
