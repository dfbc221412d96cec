/**
 * The code points a render drew as a missing-glyph box. Rendering stays free of logging: drawText notes them
 * here while a render collects (frame.ts), and the caller logs them (glyph-warnings.ts). Renders are
 * synchronous, so one collector at a time is all there is.
 */

let collecting: Set<number> | null = null;

/** Runs `fn`, returning its result and the code points drawn as boxes meanwhile, in first-seen order. */
export function collectMissingGlyphs<T>(fn: () => T): { result: T; missing: number[] } {
  const outer = collecting;
  const mine = new Set<number>();
  collecting = mine;
  try {
    return { result: fn(), missing: [...mine] };
  } finally {
    collecting = outer;
    if (outer) for (const cp of mine) outer.add(cp);
  }
}

/** Called by drawText for each code point it draws as a box. */
export function noteMissingGlyphs(codePoints: readonly number[]): void {
  if (collecting) for (const cp of codePoints) collecting.add(cp);
}

/** "U+0E01 (ก)": how a warning names a code point. */
export function describeCodePoint(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')} (${String.fromCodePoint(cp)})`;
}
