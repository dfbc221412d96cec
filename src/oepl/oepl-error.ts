import type { CodeIn } from '../shared/codes.js';

/** The registry's `oepl` set. */
export type OeplErrorCode = CodeIn<'oepl'>;

/** A picture an OpenEPaperLink access point would not take (logged as `err`; the tag's problem on its display). */
export class OeplError extends Error {
  readonly code: OeplErrorCode;

  constructor(code: OeplErrorCode, message: string) {
    super(message);
    this.name = 'OeplError';
    this.code = code;
  }
}
