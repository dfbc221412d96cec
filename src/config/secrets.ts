import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { CodeIn, ErrorCode, WarningCode } from '../shared/codes.js';
import type { Config } from './schema.js';

/** The expected prefix of an API key: the service issues live keys as sk_live_…; another prefix gets a warning. */
const API_KEY_PREFIX = 'sk_live_';

/**
 * The most a secret may hold, in bytes. Keys, passwords and tokens are tens of bytes; a bigger file is the wrong
 * file, and is refused from its size alone, before a byte of it is read.
 */
export const MAX_SECRET_BYTES = 4096;

/** The fewest characters a TRMNL access token may have, wherever it comes from (the inline `token` too). */
const TRMNL_TOKEN_MIN_LENGTH = 8;
/**
 * Why a secret cannot be used, and the secret problems that do not stop the daemon: the registry's `secret` set,
 * each a stable code documented in docs/reference/configuration.md ("Secrets").
 */
export type SecretProblemCode = Extract<CodeIn<'secret'>, ErrorCode>;
export type SecretWarningCode = Extract<CodeIn<'secret'>, WarningCode>;

/** One problem or warning. `where` names the source (key path, variable or credential), never the secret. */
export interface SecretIssue<C extends string> {
  code: C;
  /** `api.key_file`, `environment variable OUTFIT_API_KEY`, `systemd credential outfit-api-key`, ... */
  where: string;
  /** What is wrong, for a person: names files and sizes, never the content. */
  text: string;
}

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

/**
 * Which characters a secret may hold once the whitespace around it is stripped. `token`: printable ASCII without
 * spaces, for what is sent in an HTTP header (the API key as a Bearer token, a TRMNL Access-Token). `password`: any
 * text without control characters, spaces included, as MQTT passwords may be.
 */
type Charset = 'token' | 'password';

interface Collector {
  problems: Array<SecretIssue<SecretProblemCode>>;
  warnings: Array<SecretIssue<SecretWarningCode>>;
}

/** Every secret of a loaded config: the API key, the MQTT password and the TRMNL devices' access tokens. */
export function secretValues(secrets: Secrets): string[] {
  return [secrets.apiKey, secrets.mqttPassword, ...secrets.trmnlTokens.values()].filter(
    (s): s is string => s !== null && s !== '',
  );
}

/** The environment variables that hold a secret (loadSecrets). */
const SECRET_ENV = { apiKey: 'OUTFIT_API_KEY', mqttPassword: 'OUTFIT_MQTT_PASSWORD' } as const;

/**
 * The environment for a child process that needs no secret (the render process): without the variables that hold
 * one or lead to one (systemd's CREDENTIALS_DIRECTORY, the add-on's SUPERVISOR_TOKEN), and without any variable
 * whose value holds a secret of `secrets`.
 */
export function envWithoutSecrets(env: NodeJS.ProcessEnv, secrets: Secrets): NodeJS.ProcessEnv {
  const names = new Set<string>([...Object.values(SECRET_ENV), 'CREDENTIALS_DIRECTORY', 'SUPERVISOR_TOKEN']);
  const values = secretValues(secrets);
  return Object.fromEntries(
    Object.entries(env).filter(([k, v]) => !names.has(k) && !values.some((s) => v?.includes(s))),
  );
}

/** The systemd credential of a TRMNL device: `trmnl-` and its MAC in lower case without colons. */
export function trmnlCredentialName(mac: string): string {
  return `trmnl-${mac.replaceAll(':', '').toLowerCase()}`;
}

/** Why a stripped secret is refused, or null. Names the kind of character, never the secret or where it is in it. */
function badCharacters(value: string, charset: Charset): string | null {
  if (/[\r\n]/.test(value)) return 'has a line break inside (more than one line?)';
  if (value.includes('\t')) return 'has a tab inside';
  if (/\p{Cc}/u.test(value)) return 'has a control character inside';
  if (charset === 'token' && /\s/u.test(value)) return 'has whitespace inside';
  if (charset === 'token' && /[^\x21-\x7e]/.test(value)) return 'has a character that is not printable ASCII';
  return null;
}

/** Strips the whitespace around a secret (a trailing newline above all) and checks what is left. */
function accept(raw: string, charset: Charset, where: string, prefix: string, out: Collector): string | null {
  const value = raw.trim();
  if (value === '') {
    out.problems.push({ code: 'E_SECRET_EMPTY', where, text: `${prefix}is empty` });
    return null;
  }
  const bad = badCharacters(value, charset);
  if (bad !== null) {
    out.problems.push({ code: 'E_SECRET_CHARACTERS', where, text: `${prefix}${bad}` });
    return null;
  }
  return value;
}

/**
 * Reads a secret file: its size is checked with fstat before anything is read, and at most MAX_SECRET_BYTES + 1 bytes
 * are read whatever the size says. Opened non-blocking, so a FIFO is refused instead of waited on.
 * Returns undefined when the file does not exist and `absentOk` (a credential that was not passed).
 */
async function readSecretFile(
  file: string,
  charset: Charset,
  where: string,
  out: Collector,
  absentOk = false,
): Promise<string | null | undefined> {
  const prefix = `${file} `;
  let fh;
  try {
    fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    if (absentOk && code === 'ENOENT') return undefined;
    out.problems.push({ code: 'E_SECRET_UNREADABLE', where, text: `cannot read ${file} (${code})` });
    return null;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) {
      out.problems.push({ code: 'E_SECRET_NOT_A_FILE', where, text: `${prefix}is not a regular file` });
      return null;
    }
    if (st.size > MAX_SECRET_BYTES) {
      out.problems.push({
        code: 'E_SECRET_TOO_LARGE',
        where,
        text: `${prefix}has ${st.size} bytes; a secret may have at most ${MAX_SECRET_BYTES}`,
      });
      return null;
    }
    const buf = Buffer.alloc(MAX_SECRET_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, length, buf.length - length, length);
      if (bytesRead === 0 || (length += bytesRead) === buf.length) break;
    }
    // The file grew after the fstat.
    if (length > MAX_SECRET_BYTES) {
      out.problems.push({
        code: 'E_SECRET_TOO_LARGE',
        where,
        text: `${prefix}has more than ${MAX_SECRET_BYTES} bytes, the most a secret may have`,
      });
      return null;
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, length));
    } catch {
      out.problems.push({ code: 'E_SECRET_ENCODING', where, text: `${prefix}is not UTF-8 text` });
      return null;
    }
    const value = accept(text, charset, where, prefix, out);
    if (value !== null && (st.mode & 0o004) !== 0) {
      out.warnings.push({
        code: 'W_SECRET_READABLE',
        where,
        text: `${file} is readable by every user on this machine; chmod 600 it`,
      });
    }
    return value;
  } catch (err) {
    out.problems.push({
      code: 'E_SECRET_UNREADABLE',
      where,
      text: `cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    });
    return null;
  } finally {
    await fh.close();
  }
}

interface SecretSpec {
  /** The systemd credential's name. */
  credential: string;
  /** The environment variable, if this secret has one. */
  envVar?: string;
  /** The file named in the config, resolved, and its key path. */
  file?: { path: string; key: string };
  /** A value written in the config itself, and its key path. */
  inline?: { value: string; key: string };
  charset: Charset;
}

interface Found {
  value: string;
  source: string;
}

/**
 * One secret from, in this order: the systemd credential, the environment variable, the file named in the config,
 * the value in the config. The first source that is set is the one used: when it is bad, that is a problem, not a
 * reason to try the next. Returns null when none is set or the one set is bad (then with a problem).
 */
async function findSecret(spec: SecretSpec, env: NodeJS.ProcessEnv, out: Collector): Promise<Found | null | undefined> {
  const credDir = env.CREDENTIALS_DIRECTORY;
  if (credDir) {
    const source = `systemd credential ${spec.credential}`;
    const value = await readSecretFile(path.join(credDir, spec.credential), spec.charset, source, out, true);
    if (value !== undefined) return value === null ? null : { value, source };
  }
  const fromEnv = spec.envVar === undefined ? undefined : env[spec.envVar];
  if (spec.envVar !== undefined && fromEnv !== undefined && fromEnv.trim() !== '') {
    // An empty variable counts as not set, as shells and compose files leave them.
    const source = `environment variable ${spec.envVar}`;
    if (Buffer.byteLength(fromEnv) > MAX_SECRET_BYTES) {
      out.problems.push({
        code: 'E_SECRET_TOO_LARGE',
        where: source,
        text: `has more than ${MAX_SECRET_BYTES} bytes, the most a secret may have`,
      });
      return null;
    }
    const value = accept(fromEnv, spec.charset, source, '', out);
    return value === null ? null : { value, source };
  }
  if (spec.file) {
    const value = await readSecretFile(spec.file.path, spec.charset, spec.file.key, out);
    return value === null || value === undefined ? null : { value, source: spec.file.key };
  }
  if (spec.inline) {
    const value = accept(spec.inline.value, spec.charset, spec.inline.key, '', out);
    return value === null ? null : { value, source: spec.inline.key };
  }
  return undefined;
}

export async function loadSecrets(
  config: Config,
  env: NodeJS.ProcessEnv,
): Promise<{
  secrets: Secrets;
  problems: Array<SecretIssue<SecretProblemCode>>;
  warnings: Array<SecretIssue<SecretWarningCode>>;
}> {
  const out: Collector = { problems: [], warnings: [] };

  const api = await findSecret(
    {
      credential: 'outfit-api-key',
      envVar: SECRET_ENV.apiKey,
      ...(config.api.key_file !== undefined && { file: { path: config.api.key_file, key: 'api.key_file' } }),
      charset: 'token',
    },
    env,
    out,
  );
  if (api === undefined && config.api.base_url !== 'simulated') {
    out.problems.push({
      code: 'E_SECRET_MISSING',
      where: 'api.key_file',
      text: 'no API key: set api.key_file, the environment variable OUTFIT_API_KEY, or the systemd credential outfit-api-key',
    });
  }
  if (api && !api.value.startsWith(API_KEY_PREFIX)) {
    out.warnings.push({
      code: 'W_KEY_PREFIX',
      where: api.source,
      text: `the API key does not start with the expected prefix ${API_KEY_PREFIX}`,
    });
  }

  let mqttPassword: string | null = null;
  if (config.mqtt) {
    const problemsBefore = out.problems.length;
    const pw = await findSecret(
      {
        credential: 'mqtt-password',
        envVar: SECRET_ENV.mqttPassword,
        ...(config.mqtt.password_file !== '' && {
          file: { path: config.mqtt.password_file, key: 'mqtt.password_file' },
        }),
        charset: 'password',
      },
      env,
      out,
    );
    mqttPassword = pw?.value ?? null;
    // With the embedded broker, mqtt.username is the login other clients (Home Assistant) must use.
    // A password that was there but refused is reported once, as what it is, not also as missing.
    const refused = out.problems.length > problemsBefore;
    if (config.mqtt.url === 'embedded' && config.mqtt.username !== '' && mqttPassword === null && !refused) {
      out.problems.push({
        code: 'E_SECRET_MISSING',
        where: 'mqtt.username',
        text: 'the embedded broker needs a password for this login: set mqtt.password_file, OUTFIT_MQTT_PASSWORD, or the systemd credential mqtt-password',
      });
    }
  }

  const trmnlTokens = new Map<string, string>();
  for (const [i, dev] of (config.trmnl?.devices ?? []).entries()) {
    const credential = trmnlCredentialName(dev.mac);
    const key = `trmnl.devices[${i}]`;
    const token = await findSecret(
      {
        credential,
        ...(dev.token_file !== undefined && { file: { path: dev.token_file, key: `${key}.token_file` } }),
        ...(dev.token !== undefined && { inline: { value: dev.token, key: `${key}.token` } }),
        charset: 'token',
      },
      env,
      out,
    );
    // The inline token's minimum (schema.ts) holds for every source: a short token is guessed, whatever file it is in.
    if (token && token.value.length < TRMNL_TOKEN_MIN_LENGTH) {
      const file = token.source === `${key}.token_file` ? `${dev.token_file} ` : '';
      out.problems.push({
        code: 'E_SECRET_TOO_SHORT',
        where: token.source,
        text: `${file}holds fewer than ${TRMNL_TOKEN_MIN_LENGTH} characters, the fewest a TRMNL token may have`,
      });
    } else if (token) trmnlTokens.set(dev.mac.toUpperCase(), token.value);
    if (token === undefined) {
      out.problems.push({
        code: 'E_SECRET_MISSING',
        where: key,
        text: `no token: set token_file, token, or the systemd credential ${credential}`,
      });
    }
  }

  return {
    secrets: { apiKey: api?.value ?? null, apiKeySource: api?.source ?? null, mqttPassword, trmnlTokens },
    problems: out.problems,
    warnings: out.warnings,
  };
}
