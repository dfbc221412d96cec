import type { RenderErrorCode } from '../render/render-process.js';

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

/** `E_RENDER_TIMEOUT: the render process gave no answer …` as one line, or null. */
export function renderProblemText(p: RenderProblem | null | undefined): string | null {
  return p ? `${p.code}: ${p.message}` : null;
}
