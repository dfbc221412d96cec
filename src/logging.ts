import pino, { type DestinationStream, type Logger } from 'pino';
import { ConfigError } from './config/load.js';
import { prettyDestination } from './pretty-destination.js';

/**
 * pino to stdout, one child logger per part (`part: "api"`): JSON for the journal under systemd or a pipe, one
 * readable line per entry on a terminal. Secrets are kept out of the config object and never passed to a logger;
 * these redaction paths are a second line of defence for anything shaped like a credential.
 *
 * Every failure is logged as `logger.x({ err }, msg)` with the Error itself: `serializeError` makes it one shape
 * (`err.code` on every line that has one); every warning carries `code: 'W_…'`.
 */
export const REDACT_PATHS = [
  'apiKey',
  'api_key',
  'password',
  'token',
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers["access-token"]',
  '*.apiKey',
  '*.api_key',
  '*.password',
  '*.token',
  '*.authorization',
];

export type LogFormat = 'json' | 'pretty';

/** A destination that may be a terminal (process.stdout, or a test's stream with `isTTY = true`). */
export type LogDestination = DestinationStream & { isTTY?: boolean };

/** An error as a log field. */
export interface SerializedError {
  type: string;
  message: string;
  code?: string;
  [field: string]: unknown;
}

/**
 * Fields of our errors that say what failed without saying what was sent: copied when they are plain values. Others
 * (a request, its headers, a cause with its own request) never reach the log.
 */
const SAFE_FIELDS = ['status', 'retryable', 'retryAfterMs', 'field', 'file', 'syscall', 'errno'] as const;

/** The one shape of `err` in every log line: type, message, code and the safe fields; non-Errors as their text. */
export function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { type: 'Error', message: String(err) };
  const out: SerializedError = { type: err.name, message: err.message };
  const fields = err as unknown as Record<string, unknown>;
  if (typeof fields.code === 'string') out.code = fields.code;
  for (const key of SAFE_FIELDS) {
    const v = fields[key];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[key] = v;
  }
  return out;
}

/**
 * The same error with its message passed through `scrub` (for errors that may quote a token a client sent), name and
 * code kept.
 */
export function scrubbedError(err: unknown, scrub: (text: string) => string): Error {
  const s = serializeError(err);
  return Object.assign(new Error(scrub(s.message)), { name: s.type }, s.code !== undefined && { code: s.code });
}

/** `{ code }` of a warning written "W_CODE: text" (config and planner warnings), to log it as `warn({ code }, text)`. */
export function warningCode(text: string): { code?: string } {
  const code = /^W_[A-Z0-9_]+/.exec(text)?.[0];
  return code === undefined ? {} : { code };
}

/** `OUTFIT_LOG_FORMAT` when set (json or pretty), otherwise pretty on a terminal and JSON everywhere else. */
export function logFormat(env: NodeJS.ProcessEnv, isTTY: boolean): LogFormat {
  const set = env.OUTFIT_LOG_FORMAT;
  if (set === undefined || set === '') return isTTY ? 'pretty' : 'json';
  if (set === 'json' || set === 'pretty') return set;
  throw new ConfigError('OUTFIT_LOG_FORMAT', [`must be json or pretty, not ${JSON.stringify(set.slice(0, 40))}`]);
}

/**
 * A logger at `level` writing to `destination` (default: stdout), in the format `logFormat` picks from `env` and
 * whether the destination is a terminal.
 */
export function createLogger(level: string, destination?: LogDestination, env: NodeJS.ProcessEnv = process.env): Logger {
  const target = destination ?? pino.destination({ fd: 1, sync: false });
  const isTTY = destination === undefined ? process.stdout.isTTY === true : destination.isTTY === true;
  return pino(
    {
      level,
      base: { app: 'outfit-display' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializeError },
    },
    logFormat(env, isTTY) === 'pretty' ? prettyDestination(target) : target,
  );
}
