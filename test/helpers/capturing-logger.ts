import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';

/** A trace-level logger whose every line is kept, to prove what never reaches the logs. */
export function capturingLogger(): { logger: Logger; text: () => string } {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  });
  return { logger: pino({ level: 'trace' }, sink), text: () => text };
}
