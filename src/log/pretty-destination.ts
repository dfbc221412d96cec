import type { DestinationStream } from 'pino';

/**
 * pino's JSON lines made readable for a terminal, as zigbee2mqtt's logs are: time, level, part, message, then the
 * code and the other fields. Hand-written rather than pino-pretty because pino-pretty brings about a dozen packages
 * (colorette, dateformat, fast-copy, help-me, joycon, pump, secure-json-parse, sonic-boom, strip-json-comments, …)
 * into a daemon whose terminal output is a convenience: the journal gets the JSON. Each line is formatted as pino
 * writes it, in the same process, so nothing is lost or reordered.
 */

const LEVELS: Record<string, string> = {
  trace: 'TRACE',
  debug: 'DEBUG',
  info: 'INFO ',
  warn: 'WARN ',
  error: 'ERROR',
  fatal: 'FATAL',
};

/** Fields shown in the line's head (or nowhere), not repeated among the others. */
const HEAD = new Set(['time', 'level', 'part', 'msg', 'code', 'err', 'app', 'pid', 'hostname']);

function value(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v) ?? String(v);
}

/** One pino JSON line as one readable line ("2026-01-15 07:30:00.123 WARN  api: message [W_CODE] display=hall"). */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const time = typeof entry.time === 'string' ? entry.time.replace('T', ' ').replace(/Z$/, '') : '';
  const level = LEVELS[String(entry.level)] ?? String(entry.level);
  const part = typeof entry.part === 'string' ? `${entry.part}: ` : '';
  const err = entry.err as { code?: unknown; message?: unknown } | undefined;
  const code = entry.code ?? err?.code;
  const text = (v: unknown): string => (typeof v === 'string' ? v : value(v));
  const fields = Object.entries(entry)
    .filter(([k]) => !HEAD.has(k))
    .map(([k, v]) => `${k}=${value(v)}`);
  const errText = err?.message !== undefined ? ` (${text(err.message)})` : '';
  const codeText = code !== undefined ? ` [${text(code)}]` : '';
  return `${time} ${level} ${part}${text(entry.msg ?? '')}${codeText}${errText}${fields.length > 0 ? `  ${fields.join(' ')}` : ''}\n`;
}

type Flushable = DestinationStream & { flush?: (cb: (err?: Error) => void) => void; flushSync?: () => void };

/** A pino destination that writes each line to `target` in the readable form; flushing flushes the target. */
export function prettyDestination(target: DestinationStream): DestinationStream {
  const t = target as Flushable;
  return {
    write(chunk: string) {
      let out = '';
      for (const line of chunk.split('\n')) if (line !== '') out += prettyLine(line);
      t.write(out);
    },
    ...(t.flush && { flush: (cb: (err?: Error) => void) => t.flush?.(cb) }),
    ...(t.flushSync && { flushSync: () => t.flushSync?.() }),
  };
}
