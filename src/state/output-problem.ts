/**
 * A display's frame files that could not be written (`<output_dir>/<id>.png` or `<id>.json`), as every publisher
 * shows it: the status page, `state.json`, `/healthz` and the Home Assistant diagnostics. The file publisher's
 * OutputError (src/files/output-error.ts) is what the cycle turns into one.
 */

export interface OutputProblem {
  code: 'E_OUTPUT_WRITE';
  /** The file that could not be written. */
  file: string;
  message: string;
  /** ISO time of the first failure since the last write that succeeded. */
  since: string;
}

import { type Problem, type ProblemSource } from './problems.js';

/** How the frame files' problem reads (problems.ts). */
export const OUTPUT_PROBLEMS: ProblemSource = {
  source: 'output',
  label: 'Frame files',
  health: 'frame files cannot be written',
};

/** The problem in the display's one list. */
export function outputListed(p: OutputProblem): Problem {
  return { source: 'output', code: p.code, message: p.message, since: p.since, detail: { file: p.file } };
}
