import type { LocaleTable } from '../locale-table.js';
import { en } from './en.js';

/** English as in the United States: the same words, 12-hour times ("7:30 AM") and "Sat, Jan 31" dates. */
export const enUS: LocaleTable = { tag: 'en-US', labels: en.labels };
