import path from 'node:path';
import type { Config } from '../config/schema.js';
import { BUILT_IN_LOCALES, LOCALE_CODE, localeFor, type Locale, type LocaleTable } from './locale.js';
import { readUserLocales } from './locale-file.js';

/**
 * The locales of a config: the codes it names (`locale`, `displays[].locale`), the user's locale files it needs
 * (from `locales_dir`, default `locales/` beside the config file), and each display's locale (its own, else the
 * config's, else English).
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

/** Reads the input as written (before the schema), so that its problems are reported with the schema's. */
export async function readConfigLocales(raw: unknown, configDir: string): Promise<ConfigLocales> {
  const displays = (raw as { displays?: unknown } | null)?.displays;
  const wanted = [stringAt(raw, 'locale'), ...(Array.isArray(displays) ? displays.map((d) => stringAt(d, 'locale')) : [])].filter(
    (c): c is string => c !== undefined,
  );
  const dirKey = stringAt(raw, 'locales_dir');
  const dir = path.resolve(configDir, dirKey ?? 'locales');
  const user = await readUserLocales({ dir, explicit: dirKey !== undefined, wanted });
  return { known: [...new Set([...BUILT_IN_LOCALES, ...user.available])], tables: user.tables, problems: user.problems, warnings: user.warnings };
}

/** `displays[1].locale: unknown locale "xx" (known: en, de, …)` for each code the config names that is not known. */
export function localeProblems(raw: unknown, known: readonly string[]): string[] {
  const problems: string[] = [];
  const check = (code: string | undefined, where: string): void => {
    // A code of the wrong form is the schema's to report.
    if (code !== undefined && LOCALE_CODE.test(code) && !known.includes(code)) problems.push(`${where}: unknown locale "${code}" (known: ${known.join(', ')})`);
  };
  check(stringAt(raw, 'locale'), 'locale');
  const displays = (raw as { displays?: unknown } | null)?.displays;
  if (Array.isArray(displays)) displays.forEach((d: unknown, i) => check(stringAt(d, 'locale'), `displays[${i}].locale`));
  return problems;
}

/** Each display's locale, by display id: its own `locale`, else the config's. */
export function displayLocales(config: Config, tables: ReadonlyMap<string, LocaleTable>): Map<string, Locale> {
  return new Map(config.displays.map((d) => [d.id, localeFor(d.locale ?? config.locale, tables)]));
}
