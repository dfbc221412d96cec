import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './schema.js';

/** The expected prefix of an API key (spec §5). */
export const API_KEY_PREFIX = 'sk_live_';

/** Secrets, kept apart from the config so that logging the config can never log them. */
export interface Secrets {
  /** null only for `base_url: simulated` without a key: the simulated service's demo key is used. */
  apiKey: string | null;
  /** Where the key came from, for messages (never the key itself). */
  apiKeySource: string | null;
  mqttPassword: string | null;
  /** Access tokens of TRMNL devices, by MAC (upper case). */
  trmnlTokens: Map<string, string>;
}

interface Found {
  value: string;
  source: string;
}

interface SecretSpec {
  what: string;
  credential: string;
  envVar: string;
  file: string | undefined;
  fileKey: string;
}

interface Collector {
  problems: string[];
  warnings: string[];
}

async function readSecretFile(file: string, label: string, out: Collector): Promise<string | null> {
  try {
    const [text, st] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    if ((st.mode & 0o004) !== 0) {
      out.warnings.push(`${label}: ${file} is readable by every user on this machine; chmod 600 it`);
    }
    const value = text.trim();
    if (value === '') {
      out.problems.push(`${label}: ${file} is empty`);
      return null;
    }
    return value;
  } catch (err) {
    out.problems.push(`${label}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    return null;
  }
}

/**
 * One secret from, in this order: the systemd credential, the environment variable, the file named in the config.
 * Returns null when none is set.
 */
async function findSecret(spec: SecretSpec, env: NodeJS.ProcessEnv, out: Collector): Promise<Found | null> {
  const credDir = env.CREDENTIALS_DIRECTORY;
  if (credDir) {
    const credFile = path.join(credDir, spec.credential);
    const exists = await stat(credFile).then(
      () => true,
      () => false,
    );
    if (exists) {
      const value = await readSecretFile(credFile, `${spec.what} (systemd credential ${spec.credential})`, out);
      return value === null ? null : { value, source: `systemd credential ${spec.credential}` };
    }
  }
  const fromEnv = env[spec.envVar]?.trim();
  if (fromEnv) return { value: fromEnv, source: `environment variable ${spec.envVar}` };
  if (spec.file) {
    const value = await readSecretFile(spec.file, spec.fileKey, out);
    return value === null ? null : { value, source: spec.fileKey };
  }
  return null;
}

export async function loadSecrets(
  config: Config,
  env: NodeJS.ProcessEnv,
): Promise<{ secrets: Secrets; problems: string[]; warnings: string[] }> {
  const out: Collector = { problems: [], warnings: [] };

  const api = await findSecret(
    {
      what: 'API key',
      credential: 'outfit-api-key',
      envVar: 'OUTFIT_API_KEY',
      file: config.api.key_file,
      fileKey: 'api.key_file',
    },
    env,
    out,
  );
  if (api === null && config.api.base_url !== 'simulated' && out.problems.length === 0) {
    out.problems.push(
      'api.key_file: no API key: set api.key_file, the environment variable OUTFIT_API_KEY, ' +
        'or the systemd credential outfit-api-key',
    );
  }
  if (api !== null && !api.value.startsWith(API_KEY_PREFIX)) {
    out.warnings.push(`the API key from ${api.source} does not start with the expected prefix ${API_KEY_PREFIX}`);
  }

  let mqttPassword: string | null = null;
  if (config.mqtt) {
    const pw = await findSecret(
      {
        what: 'MQTT password',
        credential: 'mqtt-password',
        envVar: 'OUTFIT_MQTT_PASSWORD',
        file: config.mqtt.password_file || undefined,
        fileKey: 'mqtt.password_file',
      },
      env,
      out,
    );
    mqttPassword = pw?.value ?? null;
  }

  const trmnlTokens = new Map<string, string>();
  for (const [i, dev] of (config.trmnl?.devices ?? []).entries()) {
    const token =
      dev.token ??
      (dev.token_file === undefined ? null : await readSecretFile(dev.token_file, `trmnl.devices[${i}].token_file`, out));
    if (token !== null) trmnlTokens.set(dev.mac.toUpperCase(), token);
  }

  return {
    secrets: { apiKey: api?.value ?? null, apiKeySource: api?.source ?? null, mqttPassword, trmnlTokens },
    problems: out.problems,
    warnings: out.warnings,
  };
}
