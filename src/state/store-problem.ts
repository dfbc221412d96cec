import type { StoreProblem } from '../store/store-error.js';
import { type Problem, type ProblemSource } from './problems.js';

/**
 * A state file that cannot be kept, or a last good answer that could not be read back (store-error.ts), as the
 * display's problem list carries it.
 */

/** How a state problem reads (problems.ts): a file that cannot be read back is said apart from one not saved. */
export const STORE_PROBLEMS: ProblemSource = {
  source: 'store',
  label: 'State',
  health: (p) => (p.code === 'E_STATE_READ' ? 'the last good answer cannot be read back' : 'state cannot be saved'),
};

/** The problem in the display's one list. */
export function storeListed(p: StoreProblem): Problem {
  return { source: 'store', code: p.code, message: p.message, since: p.since, detail: { file: p.file } };
}
