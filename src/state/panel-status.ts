import { type Problem, type ProblemSource } from './problems.js';

/**
 * What every display's attached panel last did: its last refresh and its problem. The panel publisher writes it; the
 * status page, /healthz, state.json and Home Assistant read it through the display's view. A display without an
 * attached panel has no entry.
 */

export interface PanelProblem {
  /** An EpdError code (E_PANEL_...). */
  code: string;
  message: string;
  /** ISO time of the first failure since the last refresh that succeeded. */
  since: string;
}

export interface PanelStatus {
  /** The panel profile id. */
  panel: string;
  /** ISO time the glass was last refreshed, or null before the first. */
  lastRefreshAt: string | null;
  /** The sha256 of the frame on the glass, or null before the first refresh. */
  shownHash: string | null;
  /** Why the last refresh failed, or null while it works. */
  problem: PanelProblem | null;
}

/** How the attached panel's problem reads (problems.ts). */
export const PANEL_PROBLEMS: ProblemSource = {
  source: 'panel',
  label: 'Attached panel',
  health: 'the attached panel fails',
};

/** The problem in the display's one list. */
export function panelListed(p: PanelProblem, panel: string): Problem {
  return { source: 'panel', code: p.code, message: p.message, since: p.since, detail: { panel } };
}

export class PanelStatusBook {
  readonly #entries = new Map<string, PanelStatus>();
  readonly #listeners: Array<(displayId: string) => void> = [];

  get(displayId: string): PanelStatus | null {
    return this.#entries.get(displayId) ?? null;
  }

  set(displayId: string, status: PanelStatus): void {
    this.#entries.set(displayId, status);
    for (const l of this.#listeners) l(displayId);
  }

  /** Called after each change (MQTT republishes the display's diagnostics). */
  onChange(listener: (displayId: string) => void): void {
    this.#listeners.push(listener);
  }
}
