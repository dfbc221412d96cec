/**
 * Whom a one-person frame shows (a small panel, a TRMNL device or an OpenEPaperLink tag; docs/guides/household.md,
 * "The household frame"): the device's own `person` where it names one of the household, else the next person after
 * the one its last frame showed, in the household's order, so that each new frame shows the next. People away are
 * passed over while anyone is at home (their outfit is not bought anew, and nobody at the door needs it); with
 * everyone away, the turn goes round them all.
 */

export interface PersonForFrameOptions {
  /** The device's or tag's `person` (config), or null: it takes turns. */
  person?: string | null;
  /** The id of the person its last frame showed, or null: none yet (the first person). */
  previous?: string | null;
}

/** What the choice reads of a person: who, and whether they are away. */
export interface TurnPerson {
  readonly id: string;
  readonly away: boolean;
}

/** The person of the next frame, or null for an empty household. */
export function personForFrame<P extends TurnPerson>(people: readonly P[], opts: PersonForFrameOptions = {}): P | null {
  if (people.length === 0) return null;
  if (opts.person) {
    const named = people.find((p) => p.id === opts.person);
    if (named) return named;
  }
  const home = people.filter((p) => !p.away);
  const turn = home.length > 0 ? home : people;
  const at = opts.previous ? people.findIndex((p) => p.id === opts.previous) : -1;
  // The first in the turn after the previous one's place in the household (it may be away or gone since).
  for (let k = 1; k <= people.length; k++) {
    const next = people[(at + k + people.length) % people.length]!;
    if (turn.includes(next)) return next;
  }
  return turn[0]!;
}

/**
 * One device's turns (a small panel, a TRMNL device, an OpenEPaperLink tag): whom its frames show, moving on to the
 * next person with each new answer of the display (a redraw of the same answers shows the same person).
 */
export class PersonTurn {
  readonly #person: string | null;
  #previous: string | null = null;
  #answers: string | null = null;

  /** `person`: the device's own (config), or null: it takes turns. */
  constructor(person: string | null = null) {
    this.#person = person;
  }

  /**
   * The id of the person this frame shows, or undefined for a display without people. `answers` names the answers
   * on show (their times): when it changes, the turn moves on.
   */
  shows(people: readonly TurnPerson[] | undefined, answers: string): string | undefined {
    if (people === undefined || people.length === 0) return undefined;
    if (this.#previous === null || answers !== this.#answers) {
      this.#previous = personForFrame(people, { person: this.#person, previous: this.#previous })?.id ?? null;
      this.#answers = answers;
    }
    return this.#previous ?? undefined;
  }
}
