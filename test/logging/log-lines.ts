/** A log line as the tests read it: pino JSON, with the level as a number (pino's default) or a label (ours). */
export interface LogLine {
  level: number | string;
  msg?: string;
  code?: string;
  err?: { type?: string; message?: string; code?: string };
  [field: string]: unknown;
}

const LABELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

/** The JSON lines of a log, in order. */
export function logLines(text: string): LogLine[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as LogLine);
}

/** The warn-and-above lines that carry neither an `err.code` (E_…) nor a `code` (W_…). */
export function codeless(lines: LogLine[]): LogLine[] {
  return lines.filter((l) => {
    const level = typeof l.level === 'number' ? l.level : (LABELS[l.level] ?? 0);
    if (level < 40) return false;
    return !/^E_[A-Z0-9_]+$/.test(l.err?.code ?? '') && !/^W_[A-Z0-9_]+$/.test(l.code ?? '');
  });
}
