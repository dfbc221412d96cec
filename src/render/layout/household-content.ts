import { frameContent, type FrameContent, type FrameInput, type FramePerson, type PersonContent } from './content.js';
import { withUnshownScripts, type UnshownScript } from './unshown-text.js';

/**
 * A household frame's words (docs/guides/household.md, "The household frame"), prepared from the frame input as
 * frameContent prepares one outfit's. A wall panel shows everyone: the shared weather once, from the first person with
 * an answer, and each person's own outfit; a panel too small for columns shows one person a frame, with their name in
 * the band where the display's would be. Pure.
 */

/** The frame's words and the scripts no font has (unshown-text.ts), for a frame of one outfit or of a household. */
export interface PreparedContent {
  content: FrameContent;
  unshown: UnshownScript[];
}

/** The input of one person's own frame: their answer, their staleness, their name in the band. */
export function personInput(input: FrameInput, p: FramePerson): FrameInput {
  return {
    ...input,
    rec: p.rec,
    stale: input.stale === true || p.stale === true,
    garments: undefined,
    people: undefined,
    displayName: p.name,
  };
}

function prepared(input: FrameInput): PreparedContent {
  return withUnshownScripts(frameContent(input));
}

/** The scripts of `more` joined into `into`, each once, each element once. */
function mergeUnshown(into: UnshownScript[], more: readonly UnshownScript[]): void {
  for (const m of more) {
    const u = into.find((x) => x.code === m.code);
    if (!u) into.push({ ...m, elements: [...m.elements] });
    else for (const e of m.elements) if (!u.elements.includes(e)) u.elements.push(e);
  }
}

function personContent(input: FrameInput, p: FramePerson, unshown: UnshownScript[]): PersonContent {
  const own = prepared(personInput(input, p));
  mergeUnshown(unshown, own.unshown);
  return { id: p.id, name: p.name, content: own.content, additions: p.additions, offsetC: p.offsetC, away: p.away };
}

/**
 * One person's frame: their outfit with their name in the band, and their own additions. What a small panel shows of
 * a household (the daemon chooses whom: src/household/person-turn.ts), and a wall panel of a household of one.
 */
export function onePersonContent(input: FrameInput, p: FramePerson): PreparedContent {
  const unshown: UnshownScript[] = [];
  const person = personContent(input, p, unshown);
  return { content: { ...person.content, people: [person] }, unshown };
}

/**
 * Everyone on one frame: the frame's own words are those of the first person with an answer (the band, the shared
 * weather and its alerts, the display's status), under the display's name; each person's are in `people`. The frame
 * is marked old as a whole only where the display is (a person's own staleness marks their column).
 */
export function householdContent(input: FrameInput, people: readonly FramePerson[]): PreparedContent {
  const first = people.find((p) => p.rec !== null) ?? null;
  const base = prepared({ ...input, rec: first?.rec ?? null, garments: undefined, people: undefined });
  const unshown = [...base.unshown];
  const persons = people.map((p) => personContent(input, p, unshown));
  return { content: { ...base.content, people: persons }, unshown };
}
