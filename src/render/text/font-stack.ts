import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TrueTypeFont, type PathCommand } from './ttf.js';
import { sfntFromWoff } from './woff.js';
import { openFontFile } from './font-file.js';
import { DEFAULT_SYSTEM_FONTS, systemFontFiles, wantsSystemFont, type SystemFontOptions } from './system-fonts.js';

/**
 * A font stack per FontId: the DejaVu face first, then bundled fallbacks asked glyph by glyph for what DejaVu
 * lacks (Noto Sans Symbols 2 for weather and check symbols, Noto Emoji for the rest of those, Noto Sans Thai), then
 * the system's CJK fonts where installed, for Chinese, Japanese and Korean (system-fonts.ts). Metrics and kerning
 * stay the DejaVu face's; a fallback glyph is scaled from its own units per em. Fallbacks are read on first need, so
 * a frame in Latin text never opens them. A character no font has gets DejaVu's .notdef (a hollow box), flagged
 * `missing` so the caller can report it.
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
  /** Which font of the stack: 0 the DejaVu face, 1.. the bundled fallbacks, then the system's fonts. */
  source: number;
  /** Advance in em. */
  advance: number;
  /** Outline in its font's units (see `unitsPerEm`). */
  commands: PathCommand[];
  unitsPerEm: number;
  /** No font of the stack has the character: `commands` are the .notdef box. */
  missing: boolean;
  /** From a system font (Chinese, Japanese, Korean: system-fonts.ts), whose glyphs have many strokes close together. */
  system: boolean;
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
/** System font files opened, by path; null: one that could not be read (left out, as if not installed). */
const systemFonts = new Map<string, TrueTypeFont | null>();
let systemOptions: SystemFontOptions = DEFAULT_SYSTEM_FONTS;
/** The system font files present, looked for on first need; null: not yet. */
let systemFound: string[] | null = null;
/** Counts the changes of system fonts: what caches built from the stacks (glyph runs, ink extents) are valid for. */
let generation = 0;

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

/**
 * Which folders the stacks look for system fonts in (system-fonts.ts); DEFAULT_SYSTEM_FONTS until changed. A change
 * drops the stacks, and every cache built from them is dropped on its next use (fontGeneration): for tests, which
 * point it at an empty folder or at one with a font.
 */
export function useSystemFonts(opts: SystemFontOptions): void {
  systemOptions = opts;
  systemFound = null;
  fonts.clear();
  generation++;
}

/** Changes with each useSystemFonts: a cache of glyphs or their extents holds only while it is the same. */
export function fontGeneration(): number {
  return generation;
}

/** The system font files the stacks ask, in order (looked for once, on first need). */
function systemFiles(): string[] {
  return (systemFound ??= systemFontFiles(systemOptions));
}

function systemFont(file: string): TrueTypeFont | null {
  if (!systemFonts.has(file)) {
    let f: TrueTypeFont | null = null;
    try {
      f = openFontFile(file);
    } catch {
      // A damaged or unreadable file draws nothing, as if the package were not installed: the frame says so in words.
    }
    systemFonts.set(file, f);
  }
  return systemFonts.get(file)!;
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
  const bundled = 1 + files.length;
  const stack: (TrueTypeFont | null)[] = [primary, ...files.map(() => null)];
  const at = (i: number): TrueTypeFont => (stack[i] ??= fallbackFont(files[i - 1]!));
  const upm = primary.unitsPerEm;
  const glyphs = new Map<string, GlyphInfo>();
  const kerns = new Map<number, number>();
  const find = (cp: number): [number, number] => {
    for (let i = 0; i < bundled; i++) {
      const index = at(i).glyphIndex(cp);
      if (index !== 0) return [i, index];
    }
    if (!wantsSystemFont(cp)) return [0, 0];
    const system = systemFiles();
    for (let i = 0; i < system.length; i++) {
      const index = systemFont(system[i]!)?.glyphIndex(cp) ?? 0;
      if (index !== 0) return [bundled + i, index];
    }
    return [0, 0];
  };
  /** The font of a stack position, and what its glyphs are keyed by: a system font by its file's name. */
  const fontAt = (source: number): { f: TrueTypeFont; key: string } => {
    if (source < bundled) return { f: at(source), key: String(source) };
    const file = systemFiles()[source - bundled]!;
    return { f: systemFont(file)!, key: path.basename(file) };
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
        const { f, key } = fontAt(source);
        g = {
          key: `${key}:${index}`,
          index,
          source,
          advance: f.advanceWidth(index) / f.unitsPerEm,
          commands: f.path(index),
          unitsPerEm: f.unitsPerEm,
          missing: index === 0,
          system: source >= bundled,
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

/** Every font file a stack may read, each once (the system's that are installed): what the glyphs drawn depend on besides the code. */
export function allFontFiles(): string[] {
  const ids = Object.keys(FILES) as FontId[];
  return [...new Set([...ids.flatMap((id) => [fontFile(id), ...fallbackFiles(id)]), ...systemFiles()])];
}
