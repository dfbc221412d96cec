import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { serializeError } from '../../src/log/logging.js';

/**
 * A trace-level logger whose every line is kept, to prove what never reaches the logs: the daemon's error serializer,
 * but not its redaction (a leak must show).
 */
export function capturingLogger(): { logger: Logger; text: () => string } {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  });
  return { logger: pino({ level: 'trace', serializers: { err: serializeError } }, sink), text: () => text };
}

/** A logger that writes nothing, for tests that assert nothing of the log. */
export const silentLogger = (): Logger => pino({ level: 'silent' });
