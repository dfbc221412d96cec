import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * pino JSON to stdout (the journal under systemd), one child logger per part (`part: "api"`).
 * Secrets are kept out of the config object and never passed to a logger; these redaction paths are a
 * second line of defence for anything shaped like a credential.
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

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { app: 'outfit-display' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}

/** An error as a log field: message and code, never the request or its headers. */
export function errorFields(err: unknown): { err: { message: string; code?: string; name?: string } } {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return { err: { message: err.message, name: err.name, ...(typeof code === 'string' && { code }) } };
  }
  return { err: { message: String(err) } };
}
