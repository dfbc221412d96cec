import { fill } from './labels.js';

/**
 * A label whose words change with a number ("1 day", "2 days"; Polish "2 dni", "5 dni", "1,5 dnia"): one template
 * holds a form for each CLDR plural category the language needs, "one: {n} day ago | other: {n} days ago", and
 * Intl.PluralRules in the locale's tag picks the form. One string, not a key per category, so a user's locale file
 * (YAML, a string per label) writes it as any other label and a language with other categories adds them there.
 */

type Category = Intl.LDMLPluralRule;

const FORM = /^\s*(zero|one|two|few|many|other)\s*:\s*(.*?)\s*$/s;

const rules = new Map<string, Intl.PluralRules>();

function rulesFor(tag: string): Intl.PluralRules {
  let r = rules.get(tag);
  if (!r) {
    r = new Intl.PluralRules(tag);
    rules.set(tag, r);
  }
  return r;
}

/** The forms of a plural template by category, or null where it is one form for every number (no "one:" etc.). */
export function pluralForms(template: string): Partial<Record<Category, string>> | null {
  const parts = template.split('|').map((p) => FORM.exec(p));
  if (parts.some((m) => m === null)) return null;
  return Object.fromEntries(parts.map((m) => [m![1] as Category, m![2]!]));
}

/**
 * The template's form for `n` in the language of `tag`, with `{n}` and any other `values` filled: the category's
 * form, else "other", else the first written (a user's file that wrote only "one:" still shows words).
 */
export function plural(
  template: string,
  n: number,
  tag: string,
  values: Readonly<Record<string, string | number>> = {},
): string {
  const forms = pluralForms(template);
  const all = { ...values, n };
  if (forms === null) return fill(template, all);
  const form = forms[rulesFor(tag).select(n)] ?? forms.other ?? Object.values(forms)[0]!;
  return fill(form, all);
}
