/**
 * The garments an outfit text names, as ids from a fixed vocabulary (a contract: they appear in `<id>.json`,
 * `state.json`, the MQTT state and Home Assistant, and each has a pictogram on the frame). Pure.
 *
 * Only what the text says to wear or take counts: "leave the umbrella at home", "no need for a coat", "gloves are not
 * necessary", "shorts are too cold today" name garments that are not. The service answers in English; the reader
 * understands English only. How: the text is cut into clauses (at . ! ? ; : and at "but", "however" ...); in each
 * clause the names of garments are found, longest first (a "rain jacket" is a raincoat, not also a jacket); a name
 * is dropped when a negation before it in its clause still reaches it (no verb such as "wear" or "bring" in between),
 * or when the words right after it say it is not needed.
 */

import { GARMENT_IDS, type GarmentId } from './garment-ids.js';
import { GARMENT_PATTERNS, HAT, namesAGarment, SUN_CONTEXT } from './garment-words.js';

export { GARMENT_IDS, type GarmentId } from './garment-ids.js';

/**
 * Where one clause ends and the next begins: sentence marks, words that turn the sense around, and the comma after
 * "instead of X" / "rather than X" (what follows it is the garment chosen: "instead of a raincoat, a softshell jacket").
 */
const CLAUSE_BREAK = /[.!?;:\n]+(?!\d)|(?<=\b(?:instead of|rather than)\b[^,.;:!?]{1,40}),|\s*\(|\)|\s*—\s*|\s+-\s+|,?\s+\b(?:but|however|though|although|whereas|otherwise|instead(?! of)|yet|while)\b/g;

/** Verbs of wearing and taking, after which a negation names what it refuses. */
const VERB = "(?:wear|bring|take|pack|carry|put on|grab|use|apply|go for|opt for)";

/**
 * A negation whose scope runs forward to the garment. `leave` counts only when the garment is left somewhere ("at
 * home", "behind") or nothing follows it ("leave the umbrella").
 */
const NEGATION_FORMS = [
  `no need (?:for|to ${VERB})`,
  `(?:do ?n[o']?t|does ?n[o']?t|won'?t|will not|would ?n[o']?t|need ?n[o']?t|should ?n[o']?t|shan'?t|ca ?n[o']?t|never) (?:\\w+ )?(?:need|require|bother|have)(?: (?:to|with|for))?(?: ${VERB})?`,
  `(?:do ?n[o']?t|never|avoid|stop|need ?n[o']?t|should ?n[o']?t|no need to) ${VERB}`,
  'too (?:cold|chilly|cool|warm|hot|wet|windy|mild) for',
  String.raw`not (?:\w+ ){0,2}enough (?:for|to \w+)`,
  // Single words last: at one place the alternation takes the first form that fits.
  'skip|skipping|ditch|ditching|forget|forgo|without|instead of|rather than|put away|pack away|swap(?: out)?|trade|no|not|nor|neither|none of|leave|leaving',
];
const NEGATION = new RegExp(String.raw`\b(?:${NEGATION_FORMS.join('|')})\b`, 'g');

/** A negation that is itself negated ("don't forget", "never leave home without"): the garment is wanted. */
const DOUBLE = /\b(?:do ?n[o']?t|never|not)\s+(?:\w+\s+){0,2}$/;

/** A verb that starts a new instruction: a negation before it no longer reaches what follows. */
const RESET = /\b(?:wear|wearing|bring|take|pack|add|grab|carry|put on|throw on|opt for|go for|go with|choose|pick|consider|don|layer|pair|stick (?:to|with)|keep|use|apply|need|want|will do|is|are|for|with|so|then|plus|and (?:a|an|your|some))\b/;

/** After the garment (within its clause, a few words on): it is not needed, or too warm or cold. */
const NOT_NEEDED = new RegExp(
  String.raw`^[\s\w'-]{0,30}?\b(?:` +
    [
      String.raw`(?:is|are|'s|'re|will be|would be|seems?|feels?)\s+(?:\w+\s+)?(?:not\s+(?:\w+\s+)?(?:needed|necessary|required)|unnecessary|overkill|optional|too (?:cold|chilly|cool|warm|hot|heavy|much))`,
      String.raw`(?:isn'?t|aren'?t|won'?t be|would ?n'?t be|will not be|is not|are not)\s+(?:\w+\s+)?(?:needed|necessary|required)`,
      String.raw`(?:can|could|should|may|might)\s+(?:\w+\s+)?(?:stay|remain|be left|rest)\b`,
      String.raw`not (?:needed|necessary|required)|unnecessary|optional\b`,
      // "an umbrella will not survive this wind", "is useless in lightning", "will only turn inside out"
      String.raw`(?:will|would|'ll|can)\s*(?:not|n't)\s+(?:survive|last|help|cope|work)|won'?t (?:survive|last|help|cope|work)|(?:is|are|will be|would be)\s+(?:\w+\s+)?(?:useless|pointless|no use|no good)|will only (?:turn|blow|break|get)`,
      String.raw`at home|behind|in the (?:closet|wardrobe|drawer|cupboard|hall)`,
    ].join('|') +
    ')',
);

/** Words after a garment under "leave" that mean it is worn, not left ("leave your coat open"). */
const LEFT_SOMEWHERE = /^\s*(?:[\w'-]+\s+){0,3}?(?:at home|home|behind|in the \w+|inside|indoors)\b|^\s*[.,;!?]?\s*$/;

function clauses(text: string): { start: number; text: string }[] {
  const out: { start: number; text: string }[] = [];
  let last = 0;
  for (const m of text.matchAll(CLAUSE_BREAK)) {
    out.push({ start: last, text: text.slice(last, m.index) });
    last = m.index + m[0].length;
  }
  out.push({ start: last, text: text.slice(last) });
  return out;
}

/** Whether the garment found at `at` (within `clause`) is said not to be worn or taken. */
function negated(clause: string, at: number, end: number): boolean {
  const before = clause.slice(0, at);
  const after = clause.slice(end);
  if (NOT_NEEDED.test(after)) return true;
  let cue: RegExpExecArray | null = null;
  for (const m of before.matchAll(NEGATION)) cue = m;
  if (cue === null) return false;
  const between = before.slice(cue.index + cue[0].length);
  // A negation reaches past a comma only along a list of garments ("no hat, scarf or gloves"), not past other words
  // ("without rain in sight, sandals ...").
  if (between.split(',').slice(0, -1).some((part) => !namesAGarment(part))) return false;
  // A gerund right after the negation is what is refused ("instead of carrying an umbrella"), not a new instruction.
  if (RESET.test(between.replace(/^\s*\w+ing\b/, ''))) return false;
  if (DOUBLE.test(before.slice(0, cue.index))) return false;
  if (/^leav/.test(cue[0])) return LEFT_SOMEWHERE.test(after);
  return true;
}

/** Lower case, one kind of apostrophe and hyphen, so the word lists can be written once. */
function normalize(text: string): string {
  // Hyphens inside a word become spaces ("rain-jacket", "flip-flops"): the word lists are written with spaces.
  return text.toLowerCase().replace(/[’‘`]/g, "'").replace(/[‐‑‒–]/g, '-').replace(/(?<=\p{L})-(?=\p{L})/gu, ' ');
}

/** What to wear or take, in the vocabulary's order (outerwear first, then layers, legs, feet, accessories). */
export function garmentsOf(text: string): GarmentId[] {
  const norm = normalize(text);
  const found = new Set<GarmentId>();
  const sunny = SUN_CONTEXT.test(norm);
  for (const clause of clauses(norm)) {
    // Longest names first; a span taken by one is blanked so that a shorter name inside it is not found again.
    let rest = clause.text;
    for (const [pattern, id] of GARMENT_PATTERNS) {
      for (const m of rest.matchAll(pattern)) {
        const end = m.index + m[0].length;
        const garment: GarmentId = id === HAT ? (sunny ? 'sun-hat' : 'warm-hat') : id;
        if (!negated(clause.text, m.index, end)) found.add(garment);
      }
      rest = rest.replace(pattern, (s) => ' '.repeat(s.length));
    }
  }
  return GARMENT_IDS.filter((id) => found.has(id));
}

/** A garment id as a Home Assistant attribute name (`dress-or-skirt` → `dress_or_skirt`). */
function garmentKey(id: GarmentId): string {
  return id.replace(/-/g, '_');
}

/**
 * The garments of an outfit as every publisher shows them: the ids, the same as one line of text, and each id as a
 * yes/no (keys with `_` for Home Assistant's attribute names and templates). Publishers take it from the answer's one
 * reading (answer.ts `readAnswer`), not from here.
 */
export interface GarmentView {
  readonly garments: readonly GarmentId[];
  readonly garments_text: string;
  readonly wear: Readonly<Record<string, boolean>>;
}

export function garmentView(outfit: string): GarmentView {
  const garments = garmentsOf(outfit);
  const set = new Set(garments);
  return {
    garments,
    garments_text: garments.join(', '),
    wear: Object.fromEntries(GARMENT_IDS.map((id) => [garmentKey(id), set.has(id)])),
  };
}
