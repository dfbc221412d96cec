/**
 * Failures of a panel on the Pi's header, each with a stable code and, in its message, the fix. The daemon shows
 * them on the status page, /healthz and Home Assistant; the other publishers go on.
 */

import type { CodeIn } from '../shared/codes.js';

/** The registry's `epd` set. */
export type EpdErrorCode = CodeIn<'epd'>;

export class EpdError extends Error {
  constructor(
    readonly code: EpdErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EpdError';
  }
}
