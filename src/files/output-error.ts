import type { CodeIn } from '../shared/codes.js';
import type { OutputProblem } from '../state/output-problem.js';

/**
 * A frame file that could not be written (`<output_dir>/<id>.png` or `<id>.json`: a full disk, a read-only mount, a
 * folder owned by someone else, a file or folder in the way). Reported, never fatal: the other publishers (HTTP, MQTT)
 * still get every frame, and the status page, `state.json`, `/healthz` and the Home Assistant diagnostics say what
 * is wrong until a write succeeds again.
 */

/** The registry's `output` set. */
export type OutputErrorCode = CodeIn<'output'>;

export class OutputError extends Error {
  readonly code: OutputErrorCode = 'E_OUTPUT_WRITE';
  constructor(
    /** The file that could not be written. */
    readonly file: string,
    message: string,
    opts: { cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'OutputError';
  }
}

/** `cannot write /var/lib/…/frames/hallway.png (ENOSPC)`: the OS code, never the content. */
export function outputWriteError(file: string, err: unknown): OutputError {
  const code = (err as NodeJS.ErrnoException).code;
  return new OutputError(file, `cannot write ${file} (${code ?? (err as Error).message})`, { cause: err });
}

/**
 * What one display's publish rounds say about its frame files: the problem from the first failed round, until a
 * round in which no publisher failed to write one. `observe` answers whether the problem appeared, went or changed,
 * so that the caller can tell the other publishers (they read it from the display's view).
 */
export class OutputProblemTracker {
  #problem: OutputProblem | null = null;

  get problem(): OutputProblem | null {
    return this.#problem;
  }

  observe(reasons: readonly unknown[], now: Date): { changed: boolean; cleared: boolean } {
    const before = this.#problem;
    const err = reasons.find((r): r is OutputError => r instanceof OutputError);
    this.#problem =
      err === undefined
        ? null
        : { code: err.code, file: err.file, message: err.message, since: before?.since ?? now.toISOString() };
    return { changed: before?.message !== this.#problem?.message, cleared: before !== null && this.#problem === null };
  }
}
