import type { ErrorCode } from '../shared/codes.js';

export const OEPL_ERROR_CODES = [
  'E_OEPL_MAC_UNKNOWN',
  'E_OEPL_PUSH',
  'E_OEPL_UNREACHABLE',
] as const satisfies readonly ErrorCode[];
export type OeplErrorCode = (typeof OEPL_ERROR_CODES)[number];

/** A picture an OpenEPaperLink access point would not take (logged as `err`; the tag's problem on its display). */
export class OeplError extends Error {
  readonly code: OeplErrorCode;

  constructor(code: OeplErrorCode, message: string) {
    super(message);
    this.name = 'OeplError';
    this.code = code;
  }
}
