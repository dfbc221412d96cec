import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from '../shared/zod.js';
import { describeIssues } from '../shared/describe-issue.js';
import { placeholders, RETIRED_PLACEHOLDERS, type LabelKey } from './labels.js';
import { builtInTable, ENGLISH, LOCALE_CODE, type LocaleTable } from './locale.js';

/**
 * A user's own locale: `<code>.yaml` (or .yml, .json) in the locales folder, with the labels of the built-in
 * tables under the same keys and an optional Intl tag. Labels it lacks come from the built-in locale of the same
 * code or language ("de-AT.yaml" falls back to de), else English, with a W_LOCALE_LABELS_MISSING warning naming
 * them: a half-translated file still gives a usable frame.
 */

const LABEL_KEYS = Object.keys(ENGLISH.labels) as LabelKey[];

function isIntlTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** Every label's rule; a zod schema holds no state, so the keys share one. */
const Label = z.string('must be a string').trim().min(1, 'must not be empty').optional();

const LocaleFileSchema = z.strictObject({
  /** BCP 47 tag for dates, times and numbers; default: the file's name. */
  tag: z.string().refine(isIntlTag, 'must be a BCP 47 language tag such as pt-BR').optional(),
  labels: z
    .strictObject(Object.fromEntries(LABEL_KEYS.map((k) => [k, Label])) as Record<LabelKey, typeof Label>)
    // A file of only a tag is English (or its language's) labels with that tag's dates and numbers.
    .default({}),
});

export interface UserLocaleFile {
  table: LocaleTable;
  warnings: string[];
}

/** Validates a locale file's parsed content; `where` names the file in messages. Never throws. */
function parseLocaleFile(
  raw: unknown,
  code: string,
  where: string,
): { ok: true; file: UserLocaleFile } | { ok: false; problems: string[] } {
  const parsed = LocaleFileSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    return {
      ok: false,
      problems: describeIssues(parsed.error).map((line) => `${where}: ${line}`),
    };
  }
  const tag = parsed.data.tag ?? code;
  if (!isIntlTag(tag))
    return { ok: false, problems: [`${where}: tag: "${tag}" is not a language tag; add tag: (e.g. pt-BR)`] };
  const base = builtInTable(code) ?? builtInTable(tag.split('-')[0]!.toLowerCase()) ?? ENGLISH;
  const problems: string[] = [];
  const missing: LabelKey[] = [];
  const labels = { ...base.labels };
  for (const key of LABEL_KEYS) {
    const text = parsed.data.labels[key];
    if (text === undefined) {
      missing.push(key);
      continue;
    }
    const allowed = [...placeholders(ENGLISH.labels[key]), ...(RETIRED_PLACEHOLDERS[key] ?? [])];
    const unknown = placeholders(text).filter((p) => !allowed.includes(p));
    if (unknown.length > 0) {
      const can = allowed.length ? `can use ${allowed.map((p) => `{${p}}`).join(', ')}` : 'takes no placeholder';
      problems.push(
        `${where}: labels.${key}: unknown placeholder ${unknown.map((p) => `{${p}}`).join(', ')} (this label ${can})`,
      );
    }
    labels[key] = text;
  }
  if (problems.length > 0) return { ok: false, problems };
  const warnings =
    missing.length > 0
      ? [
          `W_LOCALE_LABELS_MISSING: ${where}: no label for ${missing.join(', ')}; using the ${base === ENGLISH ? 'English' : `built-in "${base.tag}"`} ones`,
        ]
      : [];
  return { ok: true, file: { table: { tag, labels }, warnings } };
}

export interface UserLocales {
  /** Codes with a file in the folder (whether or not the config uses them). */
  available: string[];
  /** The files of the codes asked for, validated. */
  tables: Map<string, LocaleTable>;
  problems: string[];
  warnings: string[];
}

const EXTENSIONS = ['.yaml', '.yml', '.json'];

/**
 * Lists the locale files in `dir` and reads those of `wanted` codes (a broken file the config does not use stops
 * nothing). A missing folder is no problem unless the config named it (`explicit`).
 */
export async function readUserLocales(opts: {
  /** The folder, absolute. */
  dir: string;
  /** The config set `locales_dir` (so the folder must exist). */
  explicit: boolean;
  /** The codes the config uses. */
  wanted: readonly string[];
}): Promise<UserLocales> {
  const out: UserLocales = { available: [], tables: new Map(), problems: [], warnings: [] };
  let names: string[];
  try {
    names = await readdir(opts.dir);
  } catch (err) {
    if (opts.explicit)
      out.problems.push(`locales_dir: cannot read ${opts.dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    return out;
  }
  const files = new Map<string, string>();
  for (const name of names.sort()) {
    const ext = path.extname(name).toLowerCase();
    const code = name.slice(0, -ext.length);
    if (EXTENSIONS.includes(ext) && LOCALE_CODE.test(code) && !files.has(code)) files.set(code, name);
  }
  out.available = [...files.keys()];
  for (const code of new Set(opts.wanted)) {
    const name = files.get(code);
    if (!name) continue;
    const file = path.join(opts.dir, name);
    let raw: unknown;
    try {
      raw = parse(await readFile(file, 'utf8'), { uniqueKeys: true });
    } catch (err) {
      out.problems.push(`${file}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
      continue;
    }
    const parsed = parseLocaleFile(raw, code, file);
    if (!parsed.ok) {
      out.problems.push(...parsed.problems);
      continue;
    }
    out.tables.set(code, parsed.file.table);
    out.warnings.push(...parsed.file.warnings);
  }
  return out;
}
