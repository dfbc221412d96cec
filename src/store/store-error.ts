/**
 * A state file that could not be kept (`<state_dir>/last/<id>.json`, the credit ledger), or a last good answer that
 * could not be read back at a start: a stable code, the file, and the reason. Reported, never fatal: what was bought is
 * still shown, but a restart would lose it (or has lost it), so the status page, `state.json`, `/healthz` and the Home
 * Assistant diagnostics all say so.
 */

import type { CodeIn, ErrorCode } from '../shared/codes.js';

/** The registry's `state` set: a state file not written or not read, and a last good answer not taken. */
export type StoreErrorCode = Extract<CodeIn<'state'>, ErrorCode>;
/** A last good answer that was not taken as fresh at start (dated in the future), or whose purchase it does not hold. */
export const W_STATE_IGNORED = 'W_STATE_IGNORED' satisfies CodeIn<'state'>;

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    /** The file (or folder) that could not be written or read. */
    readonly file: string,
    message: string,
    opts: { cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'StoreError';
  }
}

/** A state problem as every publisher shows it. */
export interface StoreProblem {
  code: StoreErrorCode;
  file: string;
  message: string;
  /** ISO time of the first failure of this kind since the last success. */
  since: string;
}

/** `cannot save /var/lib/…/last/hallway.json (EACCES)`: the OS code, never the content. */
export function storeWriteError(file: string, err: unknown): StoreError {
  const code = (err as NodeJS.ErrnoException).code;
  return new StoreError('E_STATE_WRITE', file, `cannot save ${file} (${code ?? (err as Error).message})`, {
    cause: err,
  });
}

/**
 * The operating system's code of a state problem (`EROFS` from `cannot save … (EROFS)`), or null when the reason was
 * no OS error: for plain words where the owner reads it (the frame), never the raw errno text.
 */
export function storeProblemOsCode(p: Pick<StoreProblem, 'message'>): string | null {
  return /\(([A-Z][A-Z0-9_]*)\)$/.exec(p.message)?.[1] ?? null;
}

/**
 * `<state_dir>/last/<id>.json` exists but could not be read back at a start (not JSON, invalid, too large, unreadable):
 * the display has lost what it showed, until its next answer is saved over it.
 */
export function storeReadProblem(file: string, reason: string, at: Date): StoreProblem {
  return { code: 'E_STATE_READ', file, message: reason, since: at.toISOString() };
}

/**
 * The state problem a display shows: a file that cannot be written (its own, else the ledger's, which every display
 * shares) before its own file that could not be read back, since nothing is bought while the state cannot be saved.
 */
export function shownStoreProblem(own: StoreProblem | null, shared: StoreProblem | null): StoreProblem | null {
  return own?.code === 'E_STATE_WRITE' ? own : (shared ?? own);
}
