/**
 * The trigger lists of the outfit reader's scoped negation (garments.ts), in the style of NegEx (Chapman et al. 2001):
 * pre-triggers whose scope runs forward to a garment ("no need for", "save", "hold off on"), post-triggers that look
 * back at the garment just named ("out of the question", "can wait"), pseudo-triggers that look like a negation and
 * are not ("not only", "no doubt"), and terminators that end a pre-trigger's scope (clause marks and "but", "instead"
 * in CLAUSE_BREAK; a new verb of wearing, "for", "with", "so" in RESET). Hedges ("might want to consider", "would not
 * hurt") and conditionals ("if it rains, ...") are triggers too: the reader leaves out what it is unsure of, because a
 * missing pictogram misleads less than a wrong one.
 *
 * Why a home-made reader and not an NLP package: on npm, `negation` (0.0.2) finds a negated term in medical text
 * without scope rules for this vocabulary, `compromise` (14.x) and `wink-nlp` (2.x) tag parts of speech and
 * negated verbs but not what a negation's scope reaches; each would add megabytes and start-up time on a Pi for a
 * vocabulary of nineteen garments. A few regexes run in microseconds per answer.
 */

/**
 * Verbs of wearing and taking, after which a negation names what it refuses ("no need to bring"): taken into the
 * trigger when one follows it (garments.ts), rather than written after each form, which made the trigger regex large
 * enough that compiling it was a noticeable part of a cold `render`.
 */
export const VERB_AFTER =
  /^ (?:wear|wearing|bring|bringing|take|taking|pack|carry|put on|grab|use|apply|go for|opt for)\b/;

/** Pre-triggers: a negation, hedge or condition whose scope runs forward to the garment. Longest forms first. */
export const PRE_FORMS = [
  'no need (?:for|to)',
  `no (?:call|reason|point|sense) (?:for|in|to)`,
  `(?:do ?n[o']?t|does ?n[o']?t|won'?t|will not|would ?n[o']?t|need ?n[o']?t|should ?n[o']?t|shan'?t|ca ?n[o']?t|never) (?:\\w+ )?(?:need|require|bother|have|want)(?: (?:to|with|for))?`,
  "(?:do ?n[o']?t|never|avoid|stop|need ?n[o']?t|should ?n[o']?t|no need to)",
  'too (?:cold|chilly|cool|warm|hot|wet|windy|mild) for',
  String.raw`not (?:\w+ ){0,2}enough (?:for|to \w+)`,
  `resist the urge to`,
  `think twice (?:about|before)`,
  'steer clear of|hold off(?: on)?|forget about|give up|get away without',
  String.raw`(?:better|wiser|smarter|warmer) (?:\w+ )?than`,
  // Hedges: unsure, so not drawn.
  `(?:might|may|could) (?:want to |wish to )?consider`,
  `(?:might|may) want to`,
  `(?:may|might|could) be worth`,
  `(?:would ?n[o']?t|would not|does ?n[o']?t|will not|won'?t) hurt to`,
  `could possibly`,
  `(?:perhaps|maybe|possibly)(?: (?:throw|toss|grab|pack|bring|take|add|wear)(?: in| on)?)?`,
  // Single words last: at one place the alternation takes the first form that fits.
  'skip|skipping|ditch|ditching|forget|forgo|without|instead of|rather than|put away|pack away|swap(?: out)?|trade|exchange|replace|substitute|save|avoid|regret|no|not|nor|neither|none of|leave|leaving',
];

/**
 * A condition: its scope runs to the end of the clause, past commas and verbs ("if it rains, take an umbrella"), unless
 * ", and" starts a new instruction ("gloves if you cycle, and bring a scarf").
 */
export const CONDITION = /\b(?:if|should (?:the|it)|in the event)\b(?![^]*,\s+and\b)/;

/** Look like a negation and are not: blanked before the triggers are sought. */
export const PSEUDO = /\b(?:not only|not just|no doubt|not too|no matter|not forget|never forget)\b/g;

/** A negation that is itself negated ("don't forget", "never leave home without", "won't regret"): wanted. */
export const DOUBLE = /\b(?:do ?n[o']?t|never|not|won'?t|will not)\s+(?:\w+\s+){0,2}$/;

/** "Over" refuses only after a verb of choosing ("pick trousers over shorts"); elsewhere it layers. */
export const CHOOSING = /\b(?:choose|pick|favou?r|prefer|go for|opt for)\b[^,]*\bover\s+(?:[\w'-]+\s+){0,3}$/;

/** A verb that starts a new instruction: a pre-trigger before it no longer reaches what follows. */
export const RESET =
  /\b(?:wear|wearing|bring|take|pack|add|grab|carry|put on|throw on|opt for|go for|go with|choose|pick|consider|don|layer|pair|stick (?:to|with)|keep|use|apply|need|want|will do|is|are|for|with|so|then|plus|and (?:a|an|your|some))\b/;

/** Post-triggers: after the garment (within its clause, a few words on), it is not needed, or unsure. */
export const POST = new RegExp(
  String.raw`^[\s\w'-]{0,30}?\b(?:` +
    [
      String.raw`(?:is|are|'s|'re|will be|would be|seems?|feels?)\s+(?:\w+\s+)?(?:not\s+(?:\w+\s+)?(?:needed|necessary|required)|unnecessary|overkill|optional|too (?:cold|chilly|cool|warm|hot|heavy|much))`,
      String.raw`(?:isn'?t|aren'?t|won'?t be|would ?n'?t be|will not be|is not|are not)\s+(?:\w+\s+)?(?:needed|necessary|required)`,
      String.raw`(?:can|could|should|may|might)\s+(?:\w+\s+)?(?:stay|remain|be left|rest|wait)\b`,
      String.raw`not (?:needed|necessary|required)|unnecessary|optional\b`,
      String.raw`(?:will|would|'ll|can)\s*(?:not|n't)\s+(?:survive|last|help|cope|work)|won'?t (?:survive|last|help|cope|work)|(?:is|are|will be|would be)\s+(?:\w+\s+)?(?:useless|pointless|no use|no good)|will only (?:turn|blow|break|get)`,
      String.raw`at home|behind|in the (?:closet|wardrobe|drawer|cupboard|hall|hallway)`,
      // Refusals as language models write them: "out of the question", "would be a mistake", "would be chilly", "keep X for the weekend".
      String.raw`out of the question|not on the cards|off the (?:table|cards)|surplus to requirements|a miss\b`,
      String.raw`(?:is|are|will be|would be|'d be)\s+(?:\w+\s+)?(?:a (?:\w+ )?mistake|a (?:poor|bad) (?:choice|idea|call)|chilly|cold|freezing)`,
      String.raw`(?:for|until) (?:the weekend|summer|(?:a )?(?:warmer|colder|sunnier|drier|hotter) (?:day|days|weather)|(?:next|another) (?:week|day|time))`,
      // Hedges after the garment.
      String.raw`(?:would ?n'?t|would not|won'?t|will not) hurt|(?:could|might|may) (?:\w+ )?(?:come in handy|be (?:useful|handy|nice|wise|welcome))|would be welcome|will help`,
    ].join('|') +
    ')',
);

/** Right after the garment: "put the sunglasses away". */
export const AWAY = /^\s*away\b/;

/** Words after a garment under "leave" that mean it is worn, not left ("leave your coat open"). */
export const LEFT_SOMEWHERE =
  /^\s*(?:[\w'-]+\s+){0,3}?(?:at home|home|behind|in the \w+|inside|indoors)\b|^\s*[.,;!?]?\s*$/;

/** Words that make a plain "hat" a warm one even under sun: no sun hat is drawn in snow. */
export const COLD_CONTEXT = /\b(?:snow|snowing|snowy|freezing|frost|frosty|icy|sleet|blizzard)\b|[−-]\d+\s*°/;
