/**
 * The garments an outfit text names, as ids from a fixed vocabulary (a contract: they appear in `<id>.json`,
 * `state.json`, the MQTT state and Home Assistant, and each has a pictogram on the frame). Pure.
 *
 * Only what the text says to wear or take counts: "leave the umbrella at home", "shorts are out of the question",
 * "save the sunscreen for summer", "swap the shorts for jeans" name garments that are not. The service answers in
 * English; the reader understands English only. How (a NegEx-style scoped negation; the triggers and why no NLP
 * package are in negation.ts): the text is cut into clauses (at . ! ? ; : and at "but", "however" ...); in each
 * clause the names of garments are found, longest first (a "rain jacket" is a raincoat, not also a jacket); a name
 * is dropped when a pre-trigger before it in its clause still reaches it (no terminator such as "wear", "for" or
 * "with" in between, and not itself negated: "don't forget"), when a post-trigger follows it ("can wait", "would be
 * a mistake"), or when a hedge or a condition covers it ("might want to consider", "if it rains, an umbrella"):
 * unsure, the reader leaves the pictogram out, since a missing one misleads less than a wrong one. "X alone won't
 * cut it" and "X won't be enough on its own" keep X: it is worn, with more. A plain "hat" is a sun hat only where the
 * text speaks of sun and not of snow or frost.
 */

import { GARMENT_IDS, type GarmentId } from './garment-ids.js';
import { GARMENT_PATTERNS, HAT, namesAGarment, SUN_CONTEXT } from './garment-words.js';
import {
  AWAY,
  CHOOSING,
  COLD_CONTEXT,
  CONDITION,
  DOUBLE,
  LEFT_SOMEWHERE,
  POST,
  PRE_FORMS,
  PSEUDO,
  RESET,
  VERB_AFTER,
} from './negation.js';

export { GARMENT_IDS, type GarmentId } from './garment-ids.js';

/**
 * Where one clause ends and the next begins: sentence marks, words that turn the sense around, and the comma after
 * "instead of X" / "rather than X" (what follows it is the garment chosen: "instead of a raincoat, a softshell jacket").
 */
const CLAUSE_BREAK =
  /[.!?;:\n]+(?!\d)|(?<=\b(?:instead of|rather than)\b[^,.;:!?]{1,40}),|\s*\(|\)|\s*—\s*|\s+-\s+|,?\s+\b(?:but|however|though|although|whereas|otherwise|instead(?! of)|yet|while)\b/g;

const NEGATION = new RegExp(String.raw`\b(?:${PRE_FORMS.join('|')})\b`, 'g');

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

/** A clause, with what its garments are read against: the clause with its pseudo-triggers blanked, and its pre-triggers. */
interface ReadClause {
  text: string;
  blanked: string;
  /** Every pre-trigger of the clause, in order, with the verb that follows it ("no need to bring"): sought once a
   * clause, not once a garment. */
  cues: { index: number; cue: string }[];
}

function readClause(text: string): ReadClause {
  const blanked = text.replace(PSEUDO, (w) => ' '.repeat(w.length));
  const cues = [...blanked.matchAll(NEGATION)].map((m) => {
    const verb = VERB_AFTER.exec(blanked.slice(m.index + m[0].length));
    return { index: m.index, cue: m[0] + (verb?.[0] ?? '') };
  });
  return { text, blanked, cues };
}

/** Whether the garment found at `at` (within the clause) is said not to be worn or taken. */
function negated(clause: ReadClause, at: number, end: number): boolean {
  const before = clause.blanked.slice(0, at);
  const after = clause.text.slice(end);
  if (POST.test(after) || AWAY.test(after)) return true;
  // A condition reaches the end of its clause ("if it gets colder, a scarf"): unsure, so not drawn.
  if (before.search(CONDITION) !== -1) return true;
  if (CHOOSING.test(before)) return true;
  const found = clause.cues.findLast((c) => c.index + c.cue.length <= at);
  if (found === undefined) return false;
  const between = before.slice(found.index + found.cue.length);
  // A negation reaches past a comma only along a list of garments ("no hat, scarf or gloves"), not past other words
  // ("without rain in sight, sandals ...").
  if (
    between
      .split(',')
      .slice(0, -1)
      .some((part) => !namesAGarment(part))
  )
    return false;
  // A gerund right after the negation is what is refused ("instead of carrying an umbrella"), not a new instruction.
  if (RESET.test(between.replace(/^\s*\w+ing\b/, '').replace(/\ba pair of\b/, ''))) return false;
  if (DOUBLE.test(before.slice(0, found.index))) return false;
  if (/^leav/.test(found.cue)) return LEFT_SOMEWHERE.test(after);
  return true;
}

/** Lower case, one kind of apostrophe and hyphen, so the word lists can be written once. */
function normalize(text: string): string {
  // Hyphens inside a word become spaces ("rain-jacket", "flip-flops"): the word lists are written with spaces.
  return text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/[‐‑‒–]/g, '-')
    .replace(/(?<=\p{L})-(?=\p{L})/gu, ' ');
}

/** What to wear or take, in the vocabulary's order (outerwear first, then layers, legs, feet, accessories). */
export function garmentsOf(text: string): GarmentId[] {
  return readGarments(text).worn;
}

/**
 * The garments the text names and says not to wear or take, or is unsure of ("leave the umbrella at home", "an
 * umbrella is not needed", "if it rains, an umbrella"): what the reader's negation took out. The pictogram row cannot
 * show them, so the frame never cuts or shrinks a sentence that names one before the others (outfit-fit.ts).
 */
export function refusedGarmentsOf(text: string): GarmentId[] {
  return readGarments(text).refused;
}

/** The garments named, worn and refused (negated), each in the vocabulary's order. */
function readGarments(text: string): { worn: GarmentId[]; refused: GarmentId[] } {
  const norm = normalize(text);
  const found = new Set<GarmentId>();
  const refused = new Set<GarmentId>();
  const sunny = SUN_CONTEXT.test(norm) && !COLD_CONTEXT.test(norm);
  const parts = clauses(norm).map((c) => ({
    start: c.start,
    end: c.start + c.text.length,
    read: null as ReadClause | null,
  }));
  // Each name is sought once in the whole text, not once a clause, longest first; a span taken by one is blanked so
  // that a shorter name inside it is not found again. No name spans a clause break (a sentence mark, "but", a
  // bracket), so each match lies in one clause, and is read against that clause. Once, because V8 compiles a regular
  // expression to machine code on its second run: a name the text does not have stays a cheap first run.
  let rest = norm;
  for (const [pattern, id] of GARMENT_PATTERNS) {
    let taken = false;
    for (const m of rest.matchAll(pattern)) {
      taken = true;
      const part = parts.find((p) => m.index >= p.start && m.index < p.end);
      if (part === undefined) continue;
      const clause = (part.read ??= readClause(norm.slice(part.start, part.end)));
      const garment: GarmentId = id === HAT ? (sunny ? 'sun-hat' : 'warm-hat') : id;
      if (!negated(clause, m.index - part.start, m.index - part.start + m[0].length)) found.add(garment);
      else refused.add(garment);
    }
    if (taken) rest = rest.replace(pattern, (s) => ' '.repeat(s.length));
  }
  return {
    worn: GARMENT_IDS.filter((id) => found.has(id)),
    refused: GARMENT_IDS.filter((id) => refused.has(id)),
  };
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
