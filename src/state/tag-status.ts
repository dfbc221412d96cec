/**
 * What the OpenEPaperLink tags of each display last met at their access point: a problem per tag (an unknown MAC, a
 * refused picture). The OEPL publisher writes it (src/oepl/oepl-publisher.ts); the status page, /healthz, state.json
 * and Home Assistant read it through the display's view. A display whose tags are fed has no entry.
 */

export interface TagProblem {
  /** The tag's MAC, as configured. */
  mac: string;
  /** E_OEPL_MAC_UNKNOWN or E_OEPL_PUSH. */
  code: string;
  message: string;
  /** ISO time of the first failure since the tag was last fed. */
  since: string;
}

/** `E_OEPL_MAC_UNKNOWN: tag 0000021EEF5A3B1C: …` as one line, or null. */
export function tagProblemText(p: TagProblem | null | undefined): string | null {
  return p ? `${p.code}: tag ${p.mac}: ${p.message}` : null;
}

export class TagStatusBoard {
  /** Per display, per MAC. */
  readonly #problems = new Map<string, Map<string, TagProblem>>();
  readonly #listeners: Array<(displayId: string) => void> = [];

  /** The first problem among the display's tags, or null while every tag is fed. */
  get(displayId: string): TagProblem | null {
    const byMac = this.#problems.get(displayId);
    return byMac === undefined ? null : ([...byMac.values()][0] ?? null);
  }

  /** Records (a problem) or clears (null) a tag's problem; listeners hear only of a change. */
  set(displayId: string, mac: string, problem: TagProblem | null): void {
    const byMac = this.#problems.get(displayId) ?? new Map<string, TagProblem>();
    const had = byMac.get(mac);
    if (problem === null) {
      if (had === undefined) return;
      byMac.delete(mac);
    } else {
      if (had !== undefined && had.code === problem.code && had.message === problem.message) return;
      byMac.set(mac, had?.code === problem.code ? { ...problem, since: had.since } : problem);
    }
    if (byMac.size === 0) this.#problems.delete(displayId);
    else this.#problems.set(displayId, byMac);
    for (const l of this.#listeners) l(displayId);
  }

  /** Called after each change (MQTT republishes the display's diagnostics). */
  onChange(listener: (displayId: string) => void): void {
    this.#listeners.push(listener);
  }
}
