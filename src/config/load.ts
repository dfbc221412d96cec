import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { validateDetailed } from 'node-cron';
import { LineCounter, parseDocument } from 'yaml';
import { localeProblems, readConfigLocales } from '../i18n/config-locales.js';
import { BUILT_IN_LOCALES, type Locale } from '../i18n/locale.js';
import { listPanelIds, type PanelProfile } from '../panels/panels.js';
import { ConfigError } from '../shared/config-error.js';
import { describeIssue } from '../shared/describe-issue.js';
import { folderProblems } from './folder-checks.js';
import { resolveDisplays } from './resolved-displays.js';
import { ConfigSchema, type Config } from './schema.js';
import { loadSecrets, type SecretIssue, type Secrets } from './secrets.js';

export { ConfigError } from '../shared/config-error.js';

export interface LoadedConfig {
  config: Config;
  secrets: Secrets;
  /** Absolute path of the file it came from. */
  file: string;
  /** Problems that do not stop the daemon (a key without the expected prefix, a world-readable key file). */
  warnings: string[];
  /** Each display's locale (labels, dates, numbers), by display id; a display not in it (or none) gets English. */
  locales?: ReadonlyMap<string, Locale>;
  /** Each display's panel profile, by display id, loaded with the config (a config built by hand may lack it). */
  panels?: ReadonlyMap<string, PanelProfile>;
}

export interface LoadOptions {
  env?: NodeJS.ProcessEnv;
}

/** `api.key_file: /etc/outfit-display/api-key is empty (E_SECRET_EMPTY)`: where, what, and the stable code. */
function formatSecretProblem(p: SecretIssue<string>): string {
  return `${p.where}: ${p.text} (${p.code})`;
}

/** `W_SECRET_READABLE: api.key_file: ...`: the code first, as every warning of the daemon. */
function formatSecretWarning(w: SecretIssue<string>): string {
  return `${w.code}: ${w.where}: ${w.text}`;
}

/**
 * Checks the schema cannot express: values that need the file system or another library. They read the input as
 * written, not the parsed config, so that they report their problems along with the schema's, not after them.
 */
function crossChecks(raw: unknown): string[] {
  const problems: string[] = [];
  const displays = (raw as { displays?: unknown } | null)?.displays;
  const panels = listPanelIds();
  (Array.isArray(displays) ? displays : []).forEach((d: unknown, i) => {
    const { panel, schedule, active_hours } = (typeof d === 'object' && d !== null ? d : {}) as Record<string, unknown>;
    if (typeof panel === 'string' && panel !== '' && !panels.includes(panel)) {
      problems.push(`displays[${i}].panel: unknown panel "${panel}" (known: ${panels.join(', ')})`);
    }
    if (typeof schedule === 'string' && schedule !== '' && schedule !== 'auto') {
      const v = validateDetailed(schedule);
      if (!v.valid) {
        const why = v.errors.map((e) => `${e.field}: ${e.message}`).join('; ');
        problems.push(`displays[${i}].schedule: not a valid cron expression "${schedule}" (${why})`);
      }
    }
    if (active_hours !== undefined && typeof schedule === 'string' && schedule !== 'auto') {
      problems.push(`displays[${i}].active_hours: only used with schedule: auto`);
    }
  });
  const trmnl = (raw as { trmnl?: { devices?: unknown } } | null)?.trmnl?.devices;
  (Array.isArray(trmnl) ? trmnl : []).forEach((d: unknown, i) => {
    const panel = typeof d === 'object' && d !== null ? (d as Record<string, unknown>).panel : undefined;
    if (typeof panel === 'string' && panel !== '' && !panels.includes(panel)) {
      problems.push(`trmnl.devices[${i}].panel: unknown panel "${panel}" (known: ${panels.join(', ')})`);
    }
  });
  const tags = (raw as { openepaperlink?: { tags?: unknown } } | null)?.openepaperlink?.tags;
  (Array.isArray(tags) ? tags : []).forEach((t: unknown, i) => {
    const panel = typeof t === 'object' && t !== null ? (t as Record<string, unknown>).panel : undefined;
    if (typeof panel === 'string' && panel !== '' && !panels.includes(panel)) {
      problems.push(`openepaperlink.tags[${i}].panel: unknown panel "${panel}" (known: ${panels.join(', ')})`);
    }
  });
  return problems;
}

function resolvePaths(config: Config, dir: string): Config {
  const abs = (p: string): string => (p === '' ? p : path.resolve(dir, p));
  const out: Config = { ...config, output_dir: abs(config.output_dir), state_dir: abs(config.state_dir) };
  if (config.api.key_file !== undefined) out.api = { ...config.api, key_file: abs(config.api.key_file) };
  if (config.mqtt) {
    out.mqtt = {
      ...config.mqtt,
      password_file: abs(config.mqtt.password_file),
      ...(config.mqtt.ca_file !== undefined && { ca_file: abs(config.mqtt.ca_file) }),
      ...(config.mqtt.cert_file !== undefined && { cert_file: abs(config.mqtt.cert_file) }),
      ...(config.mqtt.key_file !== undefined && { key_file: abs(config.mqtt.key_file) }),
    };
  }
  // An attached panel's capture file, as the other files: beside the config when relative.
  out.displays = config.displays.map((d) =>
    d.attached?.capture === undefined ? d : { ...d, attached: { ...d.attached, capture: abs(d.attached.capture) } },
  );
  if (config.trmnl) {
    const fw = config.trmnl.firmware;
    out.trmnl = {
      devices: config.trmnl.devices.map((d) =>
        d.token_file === undefined ? d : { ...d, token_file: abs(d.token_file) },
      ),
      ...(fw !== undefined && { firmware: { ...fw, dir: abs(fw.dir) } }),
    };
  }
  return out;
}

/**
 * Validates parsed YAML (or any value). Returns the config or every problem; never throws. `locales`: the locale
 * codes it may name (default: the built-in ones; the loader adds the user's locale files).
 */
export function parseConfig(
  raw: unknown,
  locales: readonly string[] = BUILT_IN_LOCALES,
): { ok: true; config: Config } | { ok: false; problems: string[] } {
  const result = ConfigSchema.safeParse(raw, { reportInput: true });
  const problems = [
    ...(result.success ? [] : result.error.issues.flatMap(describeIssue)),
    ...crossChecks(raw),
    ...localeProblems(raw, locales),
  ];
  return result.success && problems.length === 0 ? { ok: true, config: result.data } : { ok: false, problems };
}

/**
 * Reads, parses and validates a config file, resolves its relative paths against the file's folder and loads
 * its secrets. Throws a ConfigError listing every problem, or returns a config that is complete.
 */
export async function loadConfig(file: string, opts: LoadOptions = {}): Promise<LoadedConfig> {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = await readFile(abs, 'utf8');
  } catch (err) {
    throw new ConfigError(abs, [`cannot read the file: ${(err as NodeJS.ErrnoException).code ?? String(err)}`]);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      abs,
      doc.errors.map((e) => {
        const pos = lines.linePos(e.pos[0]);
        return `line ${pos.line}, column ${pos.col}: ${e.message.split('\n')[0] ?? e.code}`;
      }),
    );
  }
  let raw: unknown;
  try {
    // Throws on an alias without its anchor and on an alias expansion bomb: a config problem, not a crash.
    raw = doc.toJS() ?? {};
  } catch (err) {
    throw new ConfigError(abs, [`cannot use the YAML: ${err instanceof Error ? err.message : String(err)}`]);
  }
  const userLocales = await readConfigLocales(raw, path.dirname(abs));
  const parsed = parseConfig(raw, userLocales.known);
  if (!parsed.ok || userLocales.problems.length > 0)
    throw new ConfigError(abs, [...(parsed.ok ? [] : parsed.problems), ...userLocales.problems]);
  const config = resolvePaths(parsed.config, path.dirname(abs));
  // A folder that is a file stops the daemon only after its other parts started: refused here, with the secrets' problems.
  const folders = await folderProblems(config);
  const secrets = await loadSecrets(config, opts.env ?? process.env);
  const resolved = resolveDisplays(config, userLocales.tables);
  const late = [...resolved.problems, ...folders, ...secrets.problems.map(formatSecretProblem)];
  if (late.length > 0) throw new ConfigError(abs, late);
  const warnings = [...secrets.warnings.map(formatSecretWarning), ...userLocales.warnings];
  return { config, secrets: secrets.secrets, file: abs, warnings, locales: resolved.locales, panels: resolved.panels };
}
