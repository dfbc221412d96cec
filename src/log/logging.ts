import pino, { type DestinationStream, type Logger } from 'pino';
import { ConfigError } from '../shared/config-error.js';
import { LearningRedactor } from '../shared/redactor.js';
import { prettyDestination } from './pretty-destination.js';

/**
 * pino to stdout, one child logger per part (`part: "api"`): JSON for the journal under systemd or a pipe, one
 * readable line per entry on a terminal.
 *
 * Every failure is logged as `logger.x({ err }, msg)` with the Error itself: `serializeError` makes it one shape
 * (`err.code` on every line that has one); every warning carries `code: 'W_…'`.
 *
 * Secrets: the one redactor (src/shared/redactor.ts), built from the loaded config's secrets, goes over every line
 * as pino writes it, `err` and `msg` included, so no part has to scrub what it logs. There are no pino `redact`
 * paths beside it: no part logs an object with a credential in it (serializeError keeps no request, header or
 * cause), and a path list would only catch keys we thought of, while the redactor catches the secrets themselves
 * wherever they are quoted.
 */

/** The logger's redactor, kept on the root logger: child loggers inherit it (pino makes them with Object.create). */
const LOG_REDACTOR = Symbol('outfit-display.logRedactor');

/** A JSON string literal in a log line. */
const STRING_LITERAL = /"(?:[^"\\]|\\.)*"/g;

/**
 * A JSON line with every secret in its strings replaced. Each string is decoded, redacted and encoded again, so the
 * line stays valid JSON whatever a secret holds (a quote, a backslash, a character of the JSON around it), and a
 * secret is found as the text it is, not as its escaped form.
 */
function redactLine(line: string, redactor: LearningRedactor): string {
  if (!redactor.mayHold(line)) return line;
  return line.replace(STRING_LITERAL, (literal) => {
    const text = JSON.parse(literal) as string;
    const redacted = redactor.redact(text);
    return redacted === text ? literal : JSON.stringify(redacted);
  });
}

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

export interface LoggerOptions {
  /** The lowest level written (the config's `log_level`). */
  level: string;
  /** Secrets never to write (`secretValues(loaded.secrets)`); `addLogSecrets` adds more later. */
  secrets: Iterable<string | null | undefined>;
  /** Where the lines go (default: stdout); a terminal gets readable lines. */
  destination?: LogDestination;
  /** Where OUTFIT_LOG_FORMAT is read (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/** A logger writing to `destination` in the format `logFormat` picks, with every secret it knows redacted. */
export function createLogger(opts: LoggerOptions): Logger {
  const { destination } = opts;
  const target = destination ?? pino.destination({ fd: 1, sync: false });
  const isTTY = destination === undefined ? process.stdout.isTTY === true : destination.isTTY === true;
  const redactor = new LearningRedactor(opts.secrets);
  const logger = pino(
    {
      level: opts.level,
      base: { app: 'outfit-display' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializeError },
      hooks: { streamWrite: (line) => redactLine(line, redactor) },
    },
    logFormat(opts.env ?? process.env, isTTY) === 'pretty' ? prettyDestination(target) : target,
  );
  Object.defineProperty(logger, LOG_REDACTOR, { value: redactor });
  return logger;
}

/**
 * Secrets that became known after the logger was made (a reloaded config's, the Supervisor's broker password, the
 * embedded broker's login for the daemon): from now on they are redacted from every line of the logger createLogger
 * made and of all its children, whichever of them is given. A logger createLogger did not make (a test's) is left
 * as it is.
 */
export function addLogSecrets(logger: Logger, secrets: Iterable<string | null | undefined>): void {
  const redactor = (logger as unknown as Record<symbol, LearningRedactor | undefined>)[LOG_REDACTOR];
  redactor?.learn(secrets);
}
