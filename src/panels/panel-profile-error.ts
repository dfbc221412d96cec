import type { ErrorCode } from '../shared/codes.js';

/**
 * A panel profile that cannot be used: no such profile, a file that is not JSON, or a key that breaks the schema. The
 * message names the file and, for each problem, the key (`controller.vendor_driver: required …`).
 */
export class PanelProfileError extends Error {
  readonly code = 'E_PANEL_PROFILE' satisfies ErrorCode;

  constructor(message: string) {
    super(message);
    this.name = 'PanelProfileError';
  }
}
