import type { LocaleTable } from './locale-table.js';
import { de } from './locales/de.js';
import { enUS } from './locales/en-us.js';
import { en } from './locales/en.js';
import { es } from './locales/es.js';
import { fr } from './locales/fr.js';
import { it } from './locales/it.js';
import { nl } from './locales/nl.js';
import { pl } from './locales/pl.js';
import { sv } from './locales/sv.js';

/**
 * The language of a frame: its labels, and the BCP 47 tag that Intl formats its dates, times and decimals with
 * (weekday and month names, the 12- or 24-hour clock, "2,5" or "2.5").
 */

export type { LocaleTable } from './locale-table.js';

export interface Locale extends LocaleTable {
  /** The name the config uses: "de", "en-US", or a user's file name. */
  code: string;
}

const BUILT_IN: Readonly<Record<string, LocaleTable>> = { en, 'en-US': enUS, de, fr, es, it, nl, pl, sv };

/** What a locale may be called, in the config and as a locale file's name: "pt", "pt-BR", "de-CH". */
export const LOCALE_CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** The built-in locale codes, in the order docs/reference/frame-rules.md lists them. */
export const BUILT_IN_LOCALES: readonly string[] = Object.keys(BUILT_IN);

/** English (24-hour clock): the default, and what a user's locale file falls back to for labels it lacks. */
export const ENGLISH: Locale = { code: 'en', ...en };

/** The built-in table of `code` (exact spelling, as the config's key takes it), or undefined. */
export function builtInTable(code: string): LocaleTable | undefined {
  return Object.hasOwn(BUILT_IN, code) ? BUILT_IN[code] : undefined;
}

/**
 * The locale named `code`: one of `extra` (the user's locale files, which may also replace a built-in one), else a
 * built-in one. Throws for an unknown code; the config loader has checked the codes before a frame is drawn.
 */
export function localeFor(code: string, extra: ReadonlyMap<string, LocaleTable> = new Map()): Locale {
  const table = extra.get(code) ?? builtInTable(code);
  if (!table) {
    const known = [...new Set([...BUILT_IN_LOCALES, ...extra.keys()])].join(', ');
    throw Object.assign(new Error(`unknown locale "${code}" (known: ${known})`), { code: 'E_CONFIG' });
  }
  return { code, ...table };
}
