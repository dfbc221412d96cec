import type { GarmentId } from '../../src/domain/garments.js';

/**
 * Outfit advice written the way language models write it: negation in its many phrasings, contrast
 * ("instead of", "swap X for Y"), hedging ("might want to consider", "would not hurt"), conditionals, double negation.
 * Expected ids are what a person should see drawn: what the text says to wear or take. Hedges and conditionals
 * expect nothing (a missing pictogram misleads less than a wrong one); "X alone won't cut it" and "X won't be enough
 * on its own" expect X (it is worn, with more).
 *
 * GARMENT_NEGATION was written first and the reader tuned on it; GARMENT_NEGATION_HOLDOUT was written with it and never
 * tuned on.
 */
type Corpus = readonly (readonly [string, readonly GarmentId[]])[];

export const GARMENT_NEGATION: Corpus = [
  // Plain refusals in the phrasings models use.
  ['Shorts are out of the question today, so reach for thermal leggings.', ['trousers']],
  ['You will not want shorts in this wind; jeans are the better call.', ['trousers']],
  ["You won't want sandals on these icy pavements.", []],
  ['Save the sunscreen for summer; a scarf and gloves are what you need.', ['scarf', 'gloves']],
  ['A T-shirt alone would be a mistake, so layer a sweater over it.', ['sweater']],
  ['Sandals would be a mistake on wet cobbles.', []],
  ['Hold off on the shorts until the afternoon warms up.', []],
  ["There's no call for an umbrella today.", []],
  ['A heavy coat is not on the cards this afternoon; a light jacket will do.', ['jacket']],
  ['Forget about the sun hat, the sky will stay grey.', []],
  ['Resist the urge to wear shorts; it is only 9 °C.', []],
  ['Keep the linen dress for the weekend and wear trousers with a jumper.', ['trousers', 'sweater']],
  ['Save your sandals for a warmer day.', []],
  ['The sunglasses can wait, there is no sun in sight.', []],
  ['You can get away without a coat this afternoon.', []],
  ['A parka would be overkill at 14 °C.', []],
  ["There's no point in an umbrella in this gale.", []],
  ["You'll regret the flip-flops when the rain starts.", []],
  ["It's too warm for a heavy coat today.", []],
  ['A sweater would be too warm by lunchtime.', []],
  ['Shorts would be chilly this morning.', []],
  ['Gloves are surplus to requirements today.', []],
  ['You really do not need a scarf.', []],
  ['There is no reason to bring an umbrella.', []],
  ['Steer clear of suede shoes in this rain.', []],
  ['Avoid sandals and wear waterproof boots.', ['boots']],
  ['Leave the heavy coat in the wardrobe.', []],
  ['The umbrella can stay in the hallway.', []],
  ['A hat is not required.', []],
  ['No scarf needed.', []],
  // Contrast: one garment for another.
  ['Swap the shorts for jeans.', ['trousers']],
  ['Trade your sandals for trainers today.', ['closed-shoes']],
  ['Opt for a raincoat instead of an umbrella.', ['raincoat']],
  ['Choose boots rather than sneakers.', ['boots']],
  ['Go for a light jacket over a heavy coat.', ['jacket']],
  ['Instead of a parka, a fleece and a scarf will be plenty.', ['sweater', 'scarf']],
  ['Pick trousers over shorts this morning.', ['trousers']],
  ['Exchange the T-shirt for a long-sleeved shirt.', ['shirt']],
  ['Replace your trainers with waterproof boots.', ['boots']],
  ['Favour a rain jacket over an umbrella in this wind.', ['raincoat']],
  // Worn, but not enough alone.
  ["A T-shirt alone won't cut it, so add a cardigan.", ['tshirt', 'sweater']],
  ["A light jacket won't be enough on its own; add a scarf.", ['jacket', 'scarf']],
  ['A sweater by itself will not be enough, so wear a coat over it.', ['sweater', 'coat']],
  // Pseudo-negations: not a refusal.
  ['Not only a coat but also gloves will be essential.', ['coat', 'gloves']],
  ['No doubt you will want a warm coat this morning.', ['coat']],
  ['A scarf is not just stylish, it will keep the wind off.', ['scarf']],
  ['It is not too cold, so a light jacket and jeans will do.', ['jacket', 'trousers']],
  ['Nothing beats a waterproof jacket in this drizzle.', ['raincoat']],
  // Double negation.
  ["Don't forget your gloves.", ['gloves']],
  ['Never leave without an umbrella on a day like this.', ['umbrella']],
  ["Don't leave home without sunscreen.", ['sunscreen']],
  ['Do not skip the sunscreen, even with clouds.', ['sunscreen']],
  ["You won't regret bringing a scarf.", ['scarf']],
  ["It wouldn't hurt to wear a warm hat.", []],
  // Hedging: not drawn.
  ['You might want to consider a light scarf.', []],
  ['A hat would not hurt.', []],
  ['Perhaps a cardigan, just in case.', []],
  ['You could possibly bring an umbrella.', []],
  ['Maybe throw in a pair of sunglasses.', []],
  ['Wear a coat; you may want to consider gloves as well.', ['coat']],
  // Conditionals: not drawn.
  ['If it rains, an umbrella will help.', []],
  ['If it gets colder, a scarf would be welcome.', []],
  ['Wear a sweater, and if the sun comes out, sunglasses.', ['sweater']],
  ['Should the wind pick up, add a windbreaker.', []],
  ['In case of showers later, pack a compact umbrella.', ['umbrella']],
  ['Wear jeans and a T-shirt; if you are out late, take a jacket.', ['trousers', 'tshirt']],
  // Lists and mixed texts.
  [
    'Layer up with a thermal top, a wool jumper and a down coat, and do not forget gloves and a beanie.',
    ['sweater', 'coat', 'gloves', 'warm-hat'],
  ],
  ['For today: jeans, a long-sleeve top and trainers. No need for a jacket.', ['trousers', 'shirt', 'closed-shoes']],
  [
    'Wear a light dress with sandals; a cardigan is optional, and the umbrella can stay home.',
    ['dress-or-skirt', 'sandals'],
  ],
  ['Grab your raincoat and wellies, but skip the umbrella; the wind will only wreck it.', ['raincoat', 'boots']],
  [
    'Bundle up: a parka, a scarf, gloves and snow boots. Sunglasses are unnecessary under this overcast sky.',
    ['coat', 'scarf', 'gloves', 'boots'],
  ],
  [
    'Sunny and 28 °C: shorts, a tee, sunscreen and a sun hat. Leave the jacket behind.',
    ['shorts', 'tshirt', 'sunscreen', 'sun-hat'],
  ],
  [
    'Brisk but dry. A fleece over a shirt, chinos and loafers; no coat or umbrella needed.',
    ['sweater', 'shirt', 'trousers', 'closed-shoes'],
  ],
  ['Wear comfortable walking shoes rather than sandals, and bring a light jacket.', ['closed-shoes', 'jacket']],
  [
    'It is −6 °C with snow falling. Wear a down coat, a beanie and insulated gloves, and steer clear of trainers.',
    ['coat', 'warm-hat', 'gloves'],
  ],
];

export const GARMENT_NEGATION_HOLDOUT: Corpus = [
  ['Leave the shorts in the drawer; it is far too chilly.', []],
  ['You can forgo the umbrella; the rain should hold off.', []],
  ["Sunscreen won't be necessary with this cloud cover.", []],
  ['A heavy jumper would be too much in this warmth.', []],
  ['Think twice before wearing sandals today.', []],
  ['Put the sunglasses away; the sky is leaden.', []],
  ['Give the heavy boots a miss and wear trainers.', ['closed-shoes']],
  ['Rather than a puffer, go with a quilted gilet.', ['jacket']],
  ['Substitute the sandals with canvas shoes.', ['closed-shoes']],
  ['Swap your tee for a warm sweater.', ['sweater']],
  ['Wear a raincoat, not an umbrella, in this wind.', ['raincoat']],
  ['Chinos are a better bet than shorts this morning.', ['trousers']],
  ["Don't go out without your scarf.", ['scarf']],
  ['Make sure you never forget your sunglasses on a day this bright.', ['sunglasses']],
  ['Remember a hat and gloves; it is freezing.', ['warm-hat', 'gloves']],
  ['It may be worth taking an umbrella.', []],
  ['You might consider a light jacket for the evening.', []],
  ['A scarf could come in handy if the wind picks up.', []],
  ['If the sun breaks through, a cap and sunglasses.', []],
  ['Unless it warms up, stick with a coat.', ['coat']],
  ['A shirt on its own will not cut it; add a blazer.', ['shirt', 'jacket']],
  ['Not only an umbrella but a raincoat too.', ['umbrella', 'raincoat']],
  ['No doubt a coat will be needed.', ['coat']],
  ['Wear jeans, a T-shirt and sneakers; no jacket is required.', ['trousers', 'tshirt', 'closed-shoes']],
  ['Your winter coat can stay on its hook today; a fleece is enough.', ['sweater']],
  [
    'Warm and bright: a sundress, sandals and sunglasses, with no need for a cardigan.',
    ['dress-or-skirt', 'sandals', 'sunglasses'],
  ],
  ['Sleet and wind: a waterproof jacket, boots and gloves. Forget the umbrella.', ['raincoat', 'boots', 'gloves']],
  ['Cool start: a jumper and jeans, but the scarf can wait until next week.', ['sweater', 'trousers']],
  ['Heavy rain: wellies and a mac; sandals would be a poor choice.', ['boots', 'raincoat']],
  ['It is −6 °C and snowing. Shorts are out of the question today, and a hat would not hurt.', []],
];

/**
 * Twenty more, written by another hand after the reader was done, without reading its word lists: a held-out set no
 * trigger was added for. The one it gets wrong ("little point in carrying an umbrella") is kept as found.
 */
export const GARMENT_NEGATION_FRESH: Corpus = [
  ['Leave the shorts in the drawer; jeans and a warm sweater are the way to go.', ['trousers', 'sweater']],
  ["It's far too cold for sandals, so stick with waterproof boots.", ['boots']],
  ['Skip the sunglasses today — the clouds are thick — but do bring an umbrella.', ['umbrella']],
  ['A light jacket should be plenty; a heavy winter coat would be overkill.', ['jacket']],
  ['No need for sunscreen this evening, though a scarf will keep the wind off.', ['scarf']],
  ['Pair a long-sleeved shirt with chinos rather than shorts.', ['shirt', 'trousers']],
  ['Opt for trainers instead of sandals, as the paths are muddy.', ['closed-shoes']],
  ['You can safely leave the gloves at home.', []],
  ['Bring a raincoat; an umbrella will only turn inside out in this wind.', ['raincoat']],
  ["Don't forget your sunglasses and a sun hat — the UV is high.", ['sunglasses', 'sun-hat']],
  ['A T-shirt and shorts are perfect for this warm afternoon.', ['tshirt', 'shorts']],
  ['Wrap up in a thick coat, a woolly hat and gloves; the wind chill is brutal.', ['coat', 'warm-hat', 'gloves']],
  ['Boots are unnecessary today; comfortable shoes will do.', ['closed-shoes']],
  ["You'll be fine without a jacket until the evening.", []],
  ['Swap the sweater for a breathable T-shirt.', ['tshirt']],
  ['A dress with sandals works well, and sunscreen is a must.', ['dress-or-skirt', 'sandals', 'sunscreen']],
  ['There is little point in carrying an umbrella; the rain should hold off.', []],
  ['Wear jeans and a sweater; gloves are optional.', ['trousers', 'sweater']],
  ['Never head out without sunscreen on a day like this.', ['sunscreen']],
  ['A scarf is not really necessary, but a warm coat certainly is.', ['coat']],
];
