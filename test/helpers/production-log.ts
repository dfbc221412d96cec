import { Writable } from 'node:stream';
import { createLogger } from '../../src/log/logging.js';

/** The production logger (pino JSON, as the journal gets it) into memory, counting bytes and keeping the lines. */
export function productionLog(secrets: string[] = []): {
  logger: ReturnType<typeof createLogger>;
  bytes: () => number;
  lines: () => Record<string, unknown>[];
} {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  });
  const logger = createLogger({ level: 'info', secrets, destination: sink });
  return {
    logger,
    bytes: () => Buffer.byteLength(text),
    lines: () =>
      text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
