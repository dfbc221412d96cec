import { parseDocument } from 'yaml';
import { z } from '../shared/zod.js';
import { listPanelIds } from '../panels/panels.js';
import { formatPath, issueText } from '../shared/describe-issue.js';

/**
 * The Home Assistant add-on's options form (what the Supervisor writes to /data/options.json) turned into our config.
 * Three layers, later ones winning key by key:
 *   1. the add-on's own paths: output_dir, state_dir, http.listen (so the status page is reachable through ingress);
 *   2. the user's YAML file (/config/outfit-display.yaml): anything our config says, the form included;
 *   3. the form: every key the form sets. A key the form leaves empty (an optional one) comes from the file.
 * Sections (api, budget, http, ...) merge key by key, not whole. Displays merge by id: a display in both takes the
 * form's keys over the file's (the file adds rotation, change_aware, dither, ...); displays only in the file come
 * after the form's, in file order. The API key from the form is never put into the config: the entry script writes it
 * to a file that api.key_file names.
 */

/** The form's keys of a display, and of the top level, as the add-on manifest's `schema` lists them. */
const FORM_DISPLAY_KEYS = ['id', 'name', 'lat', 'lon', 'panel', 'schedule', 'unit'] as const;

function coordinate(limit: number) {
  return z
    .number('must be a number')
    .min(-limit, `must be between -${limit} and ${limit}`)
    .max(limit, `must be between -${limit} and ${limit}`);
}

const Count = z.number('must be a number').int('must be a whole number').nonnegative('must be 0 or more');

/** The options as the manifest's schema allows them; unknown keys are refused, as the Supervisor does. */
export const AddonOptionsSchema = z.strictObject({
  api_key: z.string('must be text'),
  api_base_url: z.string('must be text'),
  credits_per_month: Count.optional(),
  credits_per_day: Count.optional(),
  refresh_reserve_credits: Count.optional(),
  timezone: z.string('must be text').optional(),
  locale: z.string('must be text').optional(),
  log_level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).optional(),
  displays: z.array(
    z.strictObject({
      id: z.string('must be text').regex(/^[a-z0-9_-]+$/, 'must match [a-z0-9_-]+'),
      name: z.string('must be text').optional(),
      lat: coordinate(90),
      lon: coordinate(180),
      panel: z
        .string('must be text')
        .refine((p) => listPanelIds().includes(p), { message: `must be one of ${listPanelIds().join(', ')}` }),
      schedule: z.string('must be text').optional(),
      unit: z.enum(['metric', 'imperial']).optional(),
    }),
    'must be a list',
  ),
});
export type AddonOptions = z.infer<typeof AddonOptionsSchema>;

/** Where the add-on keeps its files (the entry script's flags). */
export interface AddonPaths {
  /** The file the API key is written to (api.key_file). */
  keyFile: string;
  /** output_dir unless the user's file says otherwise. */
  outputDir: string;
  /** state_dir unless the user's file says otherwise. */
  stateDir: string;
  /** The user's YAML file, for messages. */
  userFile: string;
}

/** The add-on's HTTP address: every interface, so that the ingress proxy (172.30.32.2) and TRMNL devices reach it. */
export const ADDON_HTTP_LISTEN = '0.0.0.0:8321';

export type AddonConversion =
  | {
      ok: true;
      /** Our config, ready to be written as YAML and read by the real loader. */
      config: Record<string, unknown>;
      /** The key to write to paths.keyFile, or null: the form left it empty (no key file is referenced then). */
      apiKey: string | null;
      /** A loader problem ("displays[0].lat: ...") said as where the user fixes it: the form's option or the file's key. */
      describe: (problem: string) => string;
    }
  | { ok: false; problems: string[] };

type Mapping = Record<string, unknown>;

function isMapping(v: unknown): v is Mapping {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The user's file as a mapping, or its problems (each naming the file). Empty or absent: an empty mapping. */
function parseUserFile(
  text: string | null,
  file: string,
): { ok: true; value: Mapping } | { ok: false; problems: string[] } {
  if (text === null) return { ok: true, value: {} };
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0)
    return { ok: false, problems: doc.errors.map((e) => `${file}: ${e.message.split('\n')[0] ?? e.code}`) };
  let value: unknown;
  try {
    value = doc.toJS() ?? {};
  } catch (err) {
    return {
      ok: false,
      problems: [`${file}: cannot use the YAML: ${err instanceof Error ? err.message : String(err)}`],
    };
  }
  return isMapping(value)
    ? { ok: true, value }
    : { ok: false, problems: [`${file}: must be a mapping (key: value lines)`] };
}

function defined(entries: Record<string, unknown>): Mapping {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
}

/** Options + the user's YAML text (null: no file) → our config, or every problem with the option's path. Pure. */
export function convertAddonOptions(options: unknown, userYaml: string | null, paths: AddonPaths): AddonConversion {
  const parsed = AddonOptionsSchema.safeParse(options);
  const user = parseUserFile(userYaml, paths.userFile);
  const problems = [
    ...(parsed.success
      ? []
      : parsed.error.issues.map((i) => `option ${formatPath(i.path)}: ${describeOptionIssue(i)}`)),
    ...(user.ok ? [] : user.problems),
  ];
  if (!parsed.success || !user.ok) return { ok: false, problems };
  const o = parsed.data;
  const file = user.value;
  const section = (key: string): Mapping => (isMapping(file[key]) ? file[key] : {});
  const apiKey = o.api_key.trim() === '' ? null : o.api_key;

  const config: Mapping = {
    output_dir: paths.outputDir,
    state_dir: paths.stateDir,
    ...file,
    api: { ...section('api'), base_url: o.api_base_url, ...(apiKey !== null && { key_file: paths.keyFile }) },
    budget: {
      ...section('budget'),
      ...defined({
        credits_per_month: o.credits_per_month,
        credits_per_day: o.credits_per_day,
        refresh_reserve_credits: o.refresh_reserve_credits,
      }),
    },
    http: { listen: ADDON_HTTP_LISTEN, ...section('http') },
    ...defined({ timezone: o.timezone, log_level: o.log_level }),
    ...(o.locale !== undefined && { locale: o.locale }),
  };

  // Displays by id: the form's first (its keys over the file's), then those only in the file.
  const fileDisplays: unknown[] = Array.isArray(file.displays) ? file.displays : [];
  const fileIndex = new Map<string, number>();
  fileDisplays.forEach((d, i) => {
    if (isMapping(d) && typeof d.id === 'string' && !fileIndex.has(d.id)) fileIndex.set(d.id, i);
  });
  const formIds = new Set(o.displays.map((d) => d.id));
  /** For each merged display: its index in the form (or null) and in the file's list (or null). */
  const origin: Array<{ form: number | null; file: number | null }> = [];
  const displays: unknown[] = o.displays.map((d, i) => {
    const j = fileIndex.get(d.id);
    origin.push({ form: i, file: j ?? null });
    const fromFile = j === undefined ? {} : (fileDisplays[j] as Mapping);
    return { ...fromFile, ...defined({ ...d }) };
  });
  fileDisplays.forEach((d, j) => {
    if (isMapping(d) && typeof d.id === 'string' && formIds.has(d.id)) return;
    origin.push({ form: null, file: j });
    displays.push(d);
  });
  config.displays = displays;

  const formTop: Record<string, string> = {
    'api.base_url': 'api_base_url',
    'budget.credits_per_month': 'credits_per_month',
    'budget.credits_per_day': 'credits_per_day',
    'budget.refresh_reserve_credits': 'refresh_reserve_credits',
    budget: 'credits_per_month (or credits_per_day)',
    timezone: 'timezone',
    locale: 'locale',
    log_level: 'log_level',
    displays: 'displays',
    // The key comes from the form unless the form has none and the file names a key file.
    ...((apiKey !== null || section('api').key_file === undefined) && { 'api.key_file': 'api_key' }),
  };
  const setByForm = (key: string): boolean => {
    const opt = formTop[key];
    if (opt === undefined) return false;
    if (key === 'budget' || key === 'api.base_url' || key === 'api.key_file' || key === 'displays') return true;
    return (o as Record<string, unknown>)[opt] !== undefined;
  };

  const describe = (problem: string): string => {
    const m = /^([A-Za-z0-9_.[\]]+): (.*)$/s.exec(problem);
    if (m === null) return problem;
    const [, where, text] = m as unknown as [string, string, string];
    const d = /^displays\[(\d+)\](?:\.([a-z_]+))?(.*)$/.exec(where);
    if (d !== null) {
      const from = origin[Number(d[1])];
      const key = d[2];
      if (from?.form != null && (key === undefined || (FORM_DISPLAY_KEYS as readonly string[]).includes(key))) {
        return `option displays[${from.form}]${key === undefined ? '' : `.${key}`}${d[3]}: ${text}`;
      }
      if (from?.file != null)
        return `${paths.userFile}: displays[${from.file}]${key === undefined ? '' : `.${key}`}${d[3]}: ${text}`;
    }
    if (setByForm(where)) return `option ${formTop[where]}: ${text}`;
    return `${paths.userFile}: ${where}: ${text}`;
  };

  return { ok: true, config, apiKey, describe };
}

function describeOptionIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return `unknown option${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
  return issueText(issue);
}
