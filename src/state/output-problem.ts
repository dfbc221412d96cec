/**
 * A display's frame files that could not be written (`<output_dir>/<id>.png` or `<id>.json`), as every publisher
 * shows it: the status page, `state.json`, `/healthz` and the Home Assistant diagnostics. The file publisher's
 * OutputError (src/publish/output-error.ts) is what the cycle turns into one.
 */

export interface OutputProblem {
  code: 'E_OUTPUT_WRITE';
  /** The file that could not be written. */
  file: string;
  message: string;
  /** ISO time of the first failure since the last write that succeeded. */
  since: string;
}

/** `E_OUTPUT_WRITE: cannot write …` as one line, or null. */
export function outputProblemText(p: OutputProblem | null | undefined): string | null {
  return p ? `${p.code}: ${p.message}` : null;
}
