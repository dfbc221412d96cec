import path from 'node:path';
import { BUILT_IN_LOCALES, LOCALE_CODE, type LocaleTable } from './locale.js';
import { readUserLocales } from './locale-file.js';

/**
 * The locales of a config: the codes it names (`locale`, `displays[].locale`), checked here once, and the user's
 * locale files it needs (from `locales_dir`, default `locales/` beside the config file). The config loader then
 * resolves each display's locale (config/resolved-displays.ts).
 */

export interface ConfigLocales {
  /** Every code the config may name: built-in ones and the user's files. */
  known: string[];
  /** The user's locale files the config uses, validated. */
  tables: Map<string, LocaleTable>;
  problems: string[];
  /** "W_LOCALE_LABELS_MISSING: …" */
  warnings: string[];
}

const stringAt = (v: unknown, key: string): string | undefined => {
  const x = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined;
  return typeof x === 'string' ? x : undefined;
};

/**
 * Each locale code the config names, with its key (`locale`, `displays[1].locale`). Read from the input as written
 * (before the schema), so that its problems are reported with the schema's; a value that is not text is the schema's.
 */
function namedLocales(raw: unknown): Array<{ where: string; code: string }> {
  const named: Array<{ where: string; code: string }> = [];
  const add = (code: string | undefined, where: string): void => {
    if (code !== undefined) named.push({ where, code });
  };
  add(stringAt(raw, 'locale'), 'locale');
  const displays = (raw as { displays?: unknown } | null)?.displays;
  if (Array.isArray(displays)) displays.forEach((d: unknown, i) => add(stringAt(d, 'locale'), `displays[${i}].locale`));
  return named;
}

/** Finds the user's locale files the config names (`locales_dir`, default `locales/` beside the config file). */
export async function readConfigLocales(raw: unknown, configDir: string): Promise<ConfigLocales> {
  const dirKey = stringAt(raw, 'locales_dir');
  const dir = path.resolve(configDir, dirKey ?? 'locales');
  const user = await readUserLocales({
    dir,
    explicit: dirKey !== undefined,
    wanted: namedLocales(raw).map((n) => n.code),
  });
  return {
    known: [...new Set([...BUILT_IN_LOCALES, ...user.available])],
    tables: user.tables,
    problems: user.problems,
    warnings: user.warnings,
  };
}

/**
 * The one check of the config's locale codes (the schema takes any text): each must be of a locale code's form
 * (`locale: must be a locale code such as de or en-US`) and known, built in or a user's file
 * (`displays[1].locale: unknown locale "xx" (known: en, de, …)`).
 */
export function localeProblems(raw: unknown, known: readonly string[]): string[] {
  return namedLocales(raw).flatMap(({ where, code }) => {
    if (!LOCALE_CODE.test(code)) return [`${where}: must be a locale code such as de or en-US`];
    return known.includes(code) ? [] : [`${where}: unknown locale "${code}" (known: ${known.join(', ')})`];
  });
}
