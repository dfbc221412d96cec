import { font, type FontId } from './font-stack.js';

/**
 * Which writing systems of a text no font of the stack has (not bundled, no system font for it: system-fonts.ts), by
 * their ISO 15924 codes, and their names in a language. A text with a letter of such a script is not drawn as a row of
 * boxes: the frame says in words that it cannot be shown, naming the script (layout/unshown-text.ts). Signs and
 * symbols of no script (Common, Inherited) are not counted: one missing symbol is a box, as before.
 */

/** Unicode's script property names (as `\p{Script=…}` takes them) and their ISO 15924 codes. */
const SCRIPTS: readonly (readonly [name: string, code: string])[] = [
  ['Han', 'Hani'],
  ['Hiragana', 'Hira'],
  ['Katakana', 'Kana'],
  ['Hangul', 'Hang'],
  ['Bopomofo', 'Bopo'],
  ['Devanagari', 'Deva'],
  ['Bengali', 'Beng'],
  ['Gurmukhi', 'Guru'],
  ['Gujarati', 'Gujr'],
  ['Oriya', 'Orya'],
  ['Tamil', 'Taml'],
  ['Telugu', 'Telu'],
  ['Kannada', 'Knda'],
  ['Malayalam', 'Mlym'],
  ['Sinhala', 'Sinh'],
  ['Tibetan', 'Tibt'],
  ['Myanmar', 'Mymr'],
  ['Khmer', 'Khmr'],
  ['Lao', 'Laoo'],
  ['Thai', 'Thai'],
  ['Ethiopic', 'Ethi'],
  ['Syriac', 'Syrc'],
  ['Thaana', 'Thaa'],
  ['Nko', 'Nkoo'],
  ['Cherokee', 'Cher'],
  ['Canadian_Aboriginal', 'Cans'],
  ['Mongolian', 'Mong'],
  ['Yi', 'Yiii'],
  ['Tifinagh', 'Tfng'],
  ['Javanese', 'Java'],
  ['Balinese', 'Bali'],
  ['Sundanese', 'Sund'],
  ['Tagalog', 'Tglg'],
  ['Ol_Chiki', 'Olck'],
  ['Vai', 'Vaii'],
  ['Adlam', 'Adlm'],
  ['Samaritan', 'Samr'],
  ['Mandaic', 'Mand'],
  ['Tai_Tham', 'Lana'],
  ['Tai_Viet', 'Tavt'],
  ['Meetei_Mayek', 'Mtei'],
  ['Chakma', 'Cakm'],
  ['Georgian', 'Geor'],
  ['Armenian', 'Armn'],
  ['Hebrew', 'Hebr'],
  ['Arabic', 'Arab'],
  ['Greek', 'Grek'],
  ['Cyrillic', 'Cyrl'],
  ['Latin', 'Latn'],
];

const TESTS = SCRIPTS.map(([name, code]) => [new RegExp(`^\\p{Script=${name}}$`, 'u'), code] as const);
/** A letter of no one script that some use (the long-vowel mark ー of both kana): by its Script_Extensions. */
const SHARED = SCRIPTS.map(([name, code]) => [new RegExp(`^\\p{Script_Extensions=${name}}$`, 'u'), code] as const);
/** A letter, mark or digit: what belongs to a script (signs and symbols mostly do not). */
const OF_A_SCRIPT = /^[\p{L}\p{M}\p{Nd}]$/u;
/** Scripts Unicode does not give a property name here are "unknown" (ISO 15924 Zzzz). */
const UNKNOWN = 'Zzzz';

/** The ISO 15924 code of a character's script; null for signs, symbols and the like (no script). */
export function scriptOf(ch: string): string | null {
  if (!OF_A_SCRIPT.test(ch)) return null;
  if (/^[\p{Script=Common}\p{Script=Inherited}]$/u.test(ch)) return SHARED.find(([re]) => re.test(ch))?.[1] ?? null;
  for (const [re, code] of TESTS) if (re.test(ch)) return code;
  return UNKNOWN;
}

/**
 * The scripts of `text`'s letters that face `id`'s stack has no glyph for, each once, in order: Japanese (Jpan) for
 * Han with kana, Korean (Kore) for Han with Hangul, Han alone Chinese (Hani).
 */
export function unshownScripts(text: string, id: FontId): string[] {
  const found = new Set<string>();
  const f = font(id);
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x370 || f.has(cp)) continue;
    const code = scriptOf(ch);
    if (code !== null) found.add(code);
  }
  if (found.has('Hira') || found.has('Kana')) return merge(found, ['Hani', 'Hira', 'Kana'], 'Jpan');
  if (found.has('Hang')) return merge(found, ['Hani', 'Hang'], 'Kore');
  return [...found];
}

function merge(found: Set<string>, parts: readonly string[], into: string): string[] {
  const out: string[] = [];
  for (const code of found) {
    const c = parts.includes(code) ? into : code;
    if (!out.includes(c)) out.push(c);
  }
  return out;
}

/** Scripts read as a language's: "Japanese", not "Japanese syllabaries"; "Chinese", not "Han". */
const AS_LANGUAGE: Readonly<Record<string, string>> = { Jpan: 'ja', Kore: 'ko', Hani: 'zh', Hang: 'ko' };

/** The name of a script (ISO 15924 code) in the language of `tag` ("Japanisch"), in English where Intl has none. */
export function scriptName(code: string, tag: string): string {
  const language = AS_LANGUAGE[code];
  for (const t of [tag, 'en']) {
    try {
      const name = language
        ? new Intl.DisplayNames([t], { type: 'language' }).of(language)
        : new Intl.DisplayNames([t], { type: 'script' }).of(code);
      if (name) return name;
    } catch {
      // Not a tag Intl knows: English.
    }
  }
  return code;
}
