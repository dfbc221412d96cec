import type { RenderErrorCode } from '../render/render-process.js';
import { type Problem, type ProblemSource } from './problems.js';

/**
 * A display's frame that could not be drawn (the render process died twice, gave no answer, could not be started,
 * or the renderer threw), as every publisher shows it: the status page, `state.json`, `/healthz` and the Home
 * Assistant diagnostics. The last good frame stays on the wall meanwhile, so without this the owner would see a
 * frame, a status and a health that all say the last cycle went well. The cycle sets it when a draw fails and
 * clears it when one succeeds.
 */

export interface RenderProblem {
  code: RenderErrorCode;
  message: string;
  /** ISO time of the first failure since the last frame that was drawn. */
  since: string;
}

/** How a frame that cannot be drawn reads (problems.ts). */
export const RENDER_PROBLEMS: ProblemSource = {
  source: 'render',
  label: 'Drawing',
  health: 'the frame cannot be drawn (the last good one is on show)',
  note: 'the last good frame is on show',
};

/** The problem in the display's one list. */
export function renderListed(p: RenderProblem): Problem {
  return { source: 'render', code: p.code, message: p.message, since: p.since };
}
