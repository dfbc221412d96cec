/**
 * Failures of a panel on the Pi's header, each with a stable code and, in its message, the fix. The daemon shows
 * them on the status page, /healthz and Home Assistant; the other publishers go on.
 */

import type { ErrorCode } from '../shared/codes.js';

export const EPD_ERROR_CODES = [
  /** BUSY stayed busy past the controller's timeout: the panel was put to sleep and the frame kept for the next try. */
  'E_PANEL_BUSY_TIMEOUT',
  /** The stream broke a rule the controller enforces (the controller models in display/ say which). */
  'E_PANEL_PROTOCOL',
  /** A frame of another size or palette than the panel's. */
  'E_PANEL_FRAME',
  /** No SPI device (SPI not enabled), no GPIO chip, or the optional bus libraries not installed. */
  'E_PANEL_BUS',
  /** The device exists but the daemon's user may not open it (the spi / gpio groups). */
  'E_PANEL_PERMISSION',
  /** A GPIO line is held by another program. */
  'E_PANEL_PIN_BUSY',
] as const satisfies readonly ErrorCode[];

export type EpdErrorCode = (typeof EPD_ERROR_CODES)[number];

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
