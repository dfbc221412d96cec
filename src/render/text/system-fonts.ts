import { statSync } from 'node:fs';
import path from 'node:path';

/**
 * CJK fonts of the system, for what no bundled font has: Chinese, Japanese and Korean text takes 5-20 MB a face, too
 * much to bundle for the few who need it, and Debian packages it. Only known files are used, in their Debian paths
 * (below), each TrueType with outlines (ttf.ts draws no CFF): the same packages give the same pixels on every machine.
 * They are asked only for the CJK blocks (CJK_TEXT): a script that needs shaping the rasteriser does not do
 * (Devanagari, Khmer…) is never drawn from a font that happens to have its letters, but said in words
 * (layout/unshown-text.ts). Nothing here opens a font: font-stack.ts opens a file on the first character that needs it.
 */

export interface SystemFontOptions {
  /** The folders the known files are looked for in, each in turn (default DEFAULT_SYSTEM_FONTS: /usr/share/fonts). */
  dirs: readonly string[];
}

/** Debian's font folder: packages put TrueType under truetype/ and, for IPA, under opentype/. */
export const DEFAULT_SYSTEM_FONTS: SystemFontOptions = { dirs: ['/usr/share/fonts'] };

/**
 * The files asked, in this order, relative to each folder: the smallest package that has Chinese, Japanese and Korean
 * first (fonts-wqy-microhei: 1.6 MB to download, 5.1 MB installed, a collection of TrueType faces derived from Droid
 * Sans Fallback, with Hangul), then the others Debian has that are TrueType (fonts-droid-fallback has no Hangul).
 */
export const SYSTEM_FONT_FILES: readonly { file: string; debian: string }[] = [
  { file: 'truetype/wqy/wqy-microhei.ttc', debian: 'fonts-wqy-microhei' },
  { file: 'truetype/droid/DroidSansFallbackFull.ttf', debian: 'fonts-droid-fallback' },
  { file: 'truetype/wqy/wqy-zenhei.ttc', debian: 'fonts-wqy-zenhei' },
  { file: 'opentype/ipafont-gothic/ipag.ttf', debian: 'fonts-ipafont-gothic' },
];

/**
 * What the system fonts are asked for: Han, kana and Hangul, Bopomofo and what they share (the long-vowel mark ー is
 * of no one script: Script_Extensions), the CJK punctuation and symbols, full-width forms, the CJK compatibility
 * ideographs and the enclosed CJK letters. Wherever a bundled font has a character of
 * these, its glyph comes first (the stack asks the bundled fonts first).
 */
const CJK_TEXT =
  /[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}\p{Script_Extensions=Bopomofo}\u3000-\u303F\u3200-\u33FF\uFF00-\uFFEF]/u;

/** Whether a code point is one the system fonts are asked for. */
export function wantsSystemFont(codePoint: number): boolean {
  return codePoint >= 0x2e80 && CJK_TEXT.test(String.fromCodePoint(codePoint));
}

/** The known files present in the folders, in the order asked (a file found in two folders is asked once, the first). */
export function systemFontFiles(opts: SystemFontOptions): string[] {
  const found: string[] = [];
  for (const { file } of SYSTEM_FONT_FILES) {
    for (const dir of opts.dirs) {
      const at = path.join(dir, file);
      try {
        if (statSync(at).isFile()) {
          found.push(at);
          break;
        }
      } catch {
        // Not installed: the next folder, then the next file.
      }
    }
  }
  return found;
}
