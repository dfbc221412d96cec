import type { GarmentId } from './garment-ids.js';

/**
 * The English names of each garment, as the outfit reader finds them: longest and most specific first, because the
 * reader blanks what a name matched before it tries the next (a "rain jacket" is a raincoat, "dress shoes" are
 * shoes, and neither is found again as a jacket or a dress). Text is lower case, hyphens plain.
 */

/** A plain "hat": a sun hat when the text speaks of sun, a warm hat otherwise. */
export const HAT = 'hat' as const;

export const SUN_CONTEXT = /\b(?:sun|sunny|sunshine|uv|spf|sunscreen|sunglasses|shade|heat|hot|scorching|brim)\b/;

const words = (list: string): RegExp => new RegExp(`\\b(?:${list})\\b`, 'g');

/** Optional plural ending. */
const S = '(?:s|es)?';

export const GARMENT_PATTERNS: readonly (readonly [RegExp, GarmentId | typeof HAT])[] = [
  [
    words(`(?:shirt|jumper|sweater|t[- ]?shirt|knit|knitted|wool|slip|summer|maxi|midi) ?dress(?:es)?`),
    'dress-or-skirt',
  ],
  [words(`sun ?screen${S}|sun ?block${S}|sun ?cream|spf(?: ?\\d+)?|sun lotion`), 'sunscreen'],
  [words(`sun ?glasses|shades|sunnies`), 'sunglasses'],
  [words(`umbrella${S}|brolly|brollies`), 'umbrella'],
  [
    words(
      `rain ?coat${S}|rain ?jacket${S}|rain shell${S}|waterproof (?:coat|jacket|shell|layer|outer layer)${S}|waterproof and windproof (?:coat|jacket|shell)${S}|(?:hard ?)?shell jacket${S}|poncho${S}|mackintosh(?:es)?|mac|macs|anorak${S}|cagoule${S}|trench ?coat${S}|trench`,
    ),
    'raincoat',
  ],
  [
    words(
      `fleece(?![- ]lined)(?: jacket| top| pullover)?${S}|hoodie${S}|hoody|sweat ?shirt${S}|sweater${S}|jumper${S}|cardigan${S}|cardi|turtle ?neck${S}|roll ?neck${S}|pullover${S}|knit(?:ted)? (?:top|sweater|jumper)${S}|(?:light|fine|chunky|thin|warm|soft) knit${S}|knitwear`,
    ),
    'sweater',
  ],
  [
    words(
      `(?:down|puffer|puffy|padded|quilted|ski|snow|winter|insulated|heavy|warm|thick|thermal|lined|wool(?:len)?) (?:coat|jacket|parka)${S}|puffer${S}|overcoat${S}|over ?coat${S}|parka${S}|pea ?coat${S}|duffle ?coat${S}|coat${S}(?! of)`,
    ),
    'coat',
  ],
  [
    words(
      `(?:light(?:weight)?|thin|denim|jean|suede|leather|linen|cotton|casual|spring|summer|bomber|utility|field|shacket|soft ?shell) jacket${S}|soft ?shell${S}|blazer${S}|wind ?breaker${S}|wind ?cheater${S}|bomber${S}|jacket${S}|shacket${S}|gilet${S}|body ?warmer${S}`,
    ),
    'jacket',
  ],
  [
    words(
      `(?:rain|rubber|wellington|snow|winter|hiking|ankle|chelsea|walking|waterproof|warm|insulated|lined) boots|boots|boot|wellies|wellingtons|galoshes`,
    ),
    'boots',
  ],
  [words(`sandal${S}|flip ?-?flops?|thongs|slides|sliders`), 'sandals'],
  [
    words(
      `(?:dress|canvas|running|walking|tennis|deck|boat|leather|suede|sturdy|comfortable|closed|closed[- ]toe|waterproof|water[- ]resistant|sensible|light|lightweight|casual) shoes|sneaker${S}|trainer${S}|loafer${S}|brogue${S}|plimsoll${S}|espadrille${S}|oxfords|shoes|shoe|flats|moccasin${S}`,
    ),
    'closed-shoes',
  ],
  [words(`scar(?:f|ves|fs)|neck ?warmer${S}|neck gaiter${S}|snood${S}|buff${S}`), 'scarf'],
  [words(`gloves?|mittens?|mitts`), 'gloves'],
  [
    words(
      `beanie${S}|wool(?:len|ly)? (?:hat|cap)${S}|knit(?:ted)? (?:hat|cap)${S}|winter (?:hat|cap)${S}|warm (?:hat|cap)${S}|bobble hat${S}|toque${S}|ear ?muffs|ear ?warmers|balaclava${S}|thermal hat${S}`,
    ),
    'warm-hat',
  ],
  [
    words(
      `sun ?hat${S}|(?:wide[- ])?brimmed hat${S}|wide[- ]brim(?:med)? hat${S}|bucket hat${S}|panama(?: hat)?${S}|straw hat${S}|baseball cap${S}|cap${S}|visor${S}`,
    ),
    'sun-hat',
  ],
  [words(`hat${S}`), HAT],
  [
    words(
      `t ?-?shirt${S}|tee ?-?shirt${S}|tees?|tank ?top${S}|sleeveless (?:top|shirt|blouse)${S}|vest top${S}|camisole${S}|cami${S}|short[- ]sleeved? (?:shirt|top|tee|blouse)${S}`,
    ),
    'tshirt',
  ],
  [
    words(
      `long[- ]sleeved? (?:shirt|top|tee|t-shirt)${S}|(?:dress|oxford|flannel|button[- ]down|button[- ]up|linen|cotton|collared) shirt${S}|shirt${S}|blouse${S}|polo(?: shirt)?${S}|henley${S}`,
    ),
    'shirt',
  ],
  [words(`(?:board|cargo|denim|linen|running|cycling|bermuda) shorts|shorts`), 'shorts'],
  [
    words(
      `(?:dress|rain|waterproof|sweat|track|cargo|linen|cotton|wool|thermal|warm) (?:pants|trousers)|trouser${S}|pants|jeans|chinos|corduroys|cords|leggings|slacks|joggers|sweatpants|jeggings`,
    ),
    'trousers',
  ],
  [
    words(
      `skirt${S}|sun ?dress(?:es)?|(?:a|an|your|the|light|summer|maxi|midi|mini|cotton|linen|floaty|flowy|airy|short|long|casual|breezy|wrap|shirt|jumper|sweater|knit|wool) dress(?:es)?|dresses`,
    ),
    'dress-or-skirt',
  ],
];

/**
 * Whether `text` names any garment at all (to tell a list of garments from other words after a negation). The
 * patterns above one by one, not one alternation of them all: V8 would compile that alternation afresh on its first
 * use, a large part of a cold `render`'s reading of the answer, where these are compiled already. `search` ignores the
 * patterns' `g` state.
 */
export function namesAGarment(text: string): boolean {
  return GARMENT_PATTERNS.some(([pattern]) => text.search(pattern) !== -1);
}
