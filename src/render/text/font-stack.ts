import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { TrueTypeFont, type PathCommand } from './ttf.js';
import { sfntFromWoff } from './woff.js';
import { openFontFile } from './font-file.js';

/**
 * A font stack per FontId: the DejaVu face first, then bundled fallbacks asked glyph by glyph for what DejaVu
 * lacks (Noto Sans Symbols 2 for weather and check symbols, Noto Emoji for the rest of those, Noto Sans Thai).
 * Metrics and kerning stay the DejaVu face's; a fallback glyph is scaled from its own units per em. Fallbacks
 * are read on first need, so a frame in Latin text never opens them. A character no font has gets DejaVu's
 * .notdef (a hollow box), flagged `missing` so the caller can report it.
 */

export type FontId = 'regular' | 'bold' | 'condensed' | 'condensed-bold';

const FILES: Record<FontId, string> = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  condensed: 'DejaVuSansCondensed.ttf',
  'condensed-bold': 'DejaVuSansCondensed-Bold.ttf',
};

/** A fallback font: the package file for normal and for bold weight (a package without bold uses normal). */
interface Fallback {
  name: string;
  normal: string;
  bold: string;
}

/** In the order asked. Each is an OFL-1.1 @fontsource package (WOFF 1 files; woff.ts unpacks them). */
const FALLBACKS: readonly Fallback[] = [
  {
    name: 'symbols2',
    normal: '@fontsource/noto-sans-symbols-2/files/noto-sans-symbols-2-symbols-400-normal.woff',
    bold: '@fontsource/noto-sans-symbols-2/files/noto-sans-symbols-2-symbols-400-normal.woff',
  },
  {
    name: 'emoji',
    normal: '@fontsource/noto-emoji/files/noto-emoji-emoji-400-normal.woff',
    bold: '@fontsource/noto-emoji/files/noto-emoji-emoji-700-normal.woff',
  },
  {
    name: 'thai',
    normal: '@fontsource/noto-sans-thai/files/noto-sans-thai-thai-400-normal.woff',
    bold: '@fontsource/noto-sans-thai/files/noto-sans-thai-thai-700-normal.woff',
  },
];

export interface GlyphInfo {
  /** Unique across the stack's fonts: caches key on it. */
  key: string;
  /** Glyph index in its own font. */
  index: number;
  /** Which font of the stack: 0 the DejaVu face, 1.. the fallbacks. */
  source: number;
  /** Advance in em. */
  advance: number;
  /** Outline in its font's units (see `unitsPerEm`). */
  commands: PathCommand[];
  unitsPerEm: number;
  /** No font of the stack has the character: `commands` are the .notdef box. */
  missing: boolean;
}

export interface LoadedFont {
  readonly id: FontId;
  readonly unitsPerEm: number;
  readonly ascender: number; // em
  readonly descender: number; // em, negative
  readonly capHeight: number; // em
  /** The glyph of a code point (first font of the stack that has it). */
  glyph(ch: string): GlyphInfo;
  /** Whether some font of the stack has the code point. */
  has(codePoint: number): boolean;
  /** Kerning between two glyphs of the DejaVu face (0 when either is a fallback's). */
  kerning(left: GlyphInfo, right: GlyphInfo): number; // em
}

const require = createRequire(import.meta.url);
const fonts = new Map<FontId, LoadedFont>();
const fallbackFonts = new Map<string, TrueTypeFont>();

const resolved = new Map<string, string>();

/** `require.resolve`, once a file: each call reads the package's exports afresh (a cold start pays for every call). */
function resolveOnce(specifier: string): string {
  let file = resolved.get(specifier);
  if (file === undefined) {
    file = require.resolve(specifier);
    resolved.set(specifier, file);
  }
  return file;
}

/** The path of a font file in the dejavu-fonts-ttf package. */
export function fontFile(id: FontId): string {
  return resolveOnce(`dejavu-fonts-ttf/ttf/${FILES[id]}`);
}

/** The path of each fallback font file for a face, in stack order. */
export function fallbackFiles(id: FontId): string[] {
  const bold = id === 'bold' || id === 'condensed-bold';
  return FALLBACKS.map((f) => resolveOnce(bold ? f.bold : f.normal));
}

function fallbackFont(file: string): TrueTypeFont {
  let f = fallbackFonts.get(file);
  if (!f) {
    f = new TrueTypeFont(sfntFromWoff(readFileSync(file)));
    fallbackFonts.set(file, f);
  }
  return f;
}

export function font(id: FontId): LoadedFont {
  const hit = fonts.get(id);
  if (hit) return hit;
  const primary = openFontFile(fontFile(id));
  const files = fallbackFiles(id);
  const stack: (TrueTypeFont | null)[] = [primary, ...files.map(() => null)];
  const at = (i: number): TrueTypeFont => (stack[i] ??= fallbackFont(files[i - 1]!));
  const upm = primary.unitsPerEm;
  const glyphs = new Map<string, GlyphInfo>();
  const kerns = new Map<number, number>();
  const find = (cp: number): [number, number] => {
    for (let i = 0; i < stack.length; i++) {
      const index = at(i).glyphIndex(cp);
      if (index !== 0) return [i, index];
    }
    return [0, 0];
  };
  const loaded: LoadedFont = {
    id,
    unitsPerEm: upm,
    ascender: primary.ascender / upm,
    descender: primary.descender / upm,
    capHeight: primary.capHeight / upm,
    glyph(ch) {
      let g = glyphs.get(ch);
      if (!g) {
        const [source, index] = find(ch.codePointAt(0) ?? 0);
        const f = at(source);
        g = {
          key: `${source}:${index}`,
          index,
          source,
          advance: f.advanceWidth(index) / f.unitsPerEm,
          commands: f.path(index),
          unitsPerEm: f.unitsPerEm,
          missing: index === 0,
        };
        glyphs.set(ch, g);
      }
      return g;
    },
    has(cp) {
      return find(cp)[1] !== 0;
    },
    kerning(left, right) {
      if (left.source !== 0 || right.source !== 0) return 0;
      const key = left.index * 65536 + right.index;
      let k = kerns.get(key);
      if (k === undefined) {
        k = primary.kerning(left.index, right.index) / upm;
        kerns.set(key, k);
      }
      return k;
    },
  };
  fonts.set(id, loaded);
  return loaded;
}

/** Every font file a stack may read, each once: what the glyphs drawn depend on besides the code. */
export function allFontFiles(): string[] {
  const ids = Object.keys(FILES) as FontId[];
  return [...new Set(ids.flatMap((id) => [fontFile(id), ...fallbackFiles(id)]))];
}
