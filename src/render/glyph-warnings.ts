import { describeCodePoint } from './text/missing-glyphs.js';
import type { UnshownScript } from './frame.js';

/** What GlyphWarnings logs through (a pino logger fits). */
export interface WarnSink {
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * Warning W_GLYPH_MISSING for a sign no font has (drawn as a box), once per code point per
 * process: the daemon makes one and every display's cycle shares it, so a missing character in a text that is
 * redrawn every few minutes is logged once, not on every frame. W_SCRIPT_NO_FONT likewise, once per script, for a
 * text in a script no font here has, which the frame says in words it cannot show.
 */
export class GlyphWarnings {
  readonly #seen = new Set<number>();
  readonly #scripts = new Set<string>();

  constructor(private readonly log: WarnSink) {}

  /** Logs the code points not logged before; `fields` adds context such as the display. */
  report(codePoints: readonly number[], fields: Record<string, unknown> = {}): void {
    for (const cp of codePoints) {
      if (this.#seen.has(cp)) continue;
      this.#seen.add(cp);
      const codePoint = describeCodePoint(cp);
      this.log.warn({ code: 'W_GLYPH_MISSING', codePoint, ...fields }, `no font has ${codePoint}: drawn as a box`);
    }
  }

  /** Logs the scripts not logged before (a frame's `missingScripts`); `fields` adds context such as the display. */
  reportScripts(scripts: readonly UnshownScript[], fields: Record<string, unknown> = {}): void {
    for (const s of scripts) {
      if (this.#scripts.has(s.code)) continue;
      this.#scripts.add(s.code);
      this.log.warn(
        { code: 'W_SCRIPT_NO_FONT', script: s.name, scriptCode: s.code, elements: s.elements, ...fields },
        `no font here has the ${s.name} script: the frame says in words that it cannot show the text`,
      );
    }
  }
}
