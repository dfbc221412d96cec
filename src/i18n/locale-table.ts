import type { Labels } from './labels.js';

/**
 * A table of labels with its Intl tag: what a built-in locale module or a user's locale file defines. Its own file
 * so that the locale modules (locales/*.ts) and locale.ts, which lists them, do not import each other.
 */
export interface LocaleTable {
  /** BCP 47 tag for Intl: "de-DE", "en-US". */
  tag: string;
  labels: Labels;
}
