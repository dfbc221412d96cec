import { ProblemBook, type Problem, type ProblemSource } from './problems.js';

/**
 * What the OpenEPaperLink tags of each display last met at their access point: a problem per tag (an unknown MAC, a
 * refused picture). The OEPL publisher writes it (src/oepl/oepl-publisher.ts) into the display's problem list (source
 * 'tag', keyed by MAC); the status page, /healthz, state.json and Home Assistant read it through the display's view. A
 * display whose tags are fed has none.
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

/** How a tag's problem reads (problems.ts): the tag is named in its line. */
export const TAG_PROBLEMS: ProblemSource = {
  source: 'tag',
  label: 'OpenEPaperLink',
  health: 'an OpenEPaperLink tag is not fed',
  line: (p) => tagProblemText(tagOf(p)) ?? '',
};

/** A tag's problem in the display's one list. */
export function tagListed(p: TagProblem): Problem {
  return { source: 'tag', code: p.code, message: p.message, since: p.since, detail: { mac: p.mac } };
}

/** The tag problem a listed one is. */
export function tagOf(p: Problem): TagProblem {
  return { mac: p.detail?.mac ?? '', code: p.code, message: p.message, since: p.since };
}

/** The tags' problems on a display's problem list: one per MAC, kept while the same code stands. */
export class TagStatusBook {
  readonly #problems: ProblemBook;

  /** `problems`: the daemon's problem list, which the views read; default one of its own. */
  constructor(problems: ProblemBook = new ProblemBook()) {
    this.#problems = problems;
  }

  /** The first problem among the display's tags, or null while every tag is fed. */
  get(displayId: string): TagProblem | null {
    const p = this.#problems.list(displayId).find((q) => q.source === 'tag');
    return p === undefined ? null : tagOf(p);
  }

  /** Records (a problem) or clears (null) a tag's problem; listeners hear only of a change. */
  set(displayId: string, mac: string, problem: TagProblem | null): void {
    const listed = problem === null ? null : tagListed(problem);
    this.#problems.set(displayId, 'tag', mac, listed);
  }

  /** Called after each change of the problem book (MQTT sends the display's diagnostics again). */
  onChange(listener: (displayId: string) => void): void {
    this.#problems.onChange(listener);
  }
}
