import { describeCodePoint } from './text/missing-glyphs.js';

/** What GlyphWarnings logs through (a pino logger fits). */
export interface WarnSink {
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * Warning W_GLYPH_MISSING for a character no bundled font has (drawn as a box), once per code point per
 * process: the daemon makes one and every display's cycle shares it, so a missing character in a text that is
 * redrawn every few minutes is logged once, not on every frame.
 */
export class GlyphWarnings {
  readonly #seen = new Set<number>();

  constructor(private readonly log: WarnSink) {}

  /** Logs the code points not logged before; `fields` adds context such as the display. */
  report(codePoints: readonly number[], fields: Record<string, unknown> = {}): void {
    for (const cp of codePoints) {
      if (this.#seen.has(cp)) continue;
      this.#seen.add(cp);
      const codePoint = describeCodePoint(cp);
      this.log.warn(
        { code: 'W_GLYPH_MISSING', codePoint, ...fields },
        `no bundled font has ${codePoint}: drawn as a box`,
      );
    }
  }
}
