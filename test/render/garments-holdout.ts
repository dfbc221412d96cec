import type { GarmentId } from '../../src/domain/garments.js';

/**
 * Texts written after the reader was tuned on GARMENT_CORPUS and never tuned on: its figures here say how it reads
 * text it has not seen.
 */
export const GARMENT_HOLDOUT: readonly (readonly [string, readonly GarmentId[]])[] = [
  ['Bundle up in a long down coat, thick socks and snow boots.', ['coat', 'boots']],
  ['Today calls for a light sweater and chinos; a jacket would be too much.', ['sweater', 'trousers']],
  ['Keep an umbrella handy and wear a water-resistant jacket.', ['umbrella', 'raincoat']],
  ['Shorts and a T-shirt are perfect, and do not forget sunscreen.', ['shorts', 'tshirt', 'sunscreen']],
  ['Pair a knitted jumper with corduroy trousers and ankle boots.', ['sweater', 'trousers', 'boots']],
  ['A rain poncho over your clothes, plus wellington boots.', ['raincoat', 'boots']],
  ['You will want gloves and a woolly hat this morning.', ['gloves', 'warm-hat']],
  ['No coat required: a hoodie will keep you comfortable.', ['sweater']],
  [
    'Wear a summer dress or linen shorts with sandals; leave the jacket behind.',
    ['dress-or-skirt', 'shorts', 'sandals'],
  ],
  ['Sunglasses are a must and a wide-brim hat would help.', ['sunglasses', 'sun-hat']],
  ['Put on a padded coat, a scarf and warm mittens before heading out.', ['coat', 'scarf', 'gloves']],
  ['A light rain jacket is wise; an umbrella is not needed in this wind.', ['raincoat']],
  ['Go with a polo shirt and shorts, and comfortable sneakers.', ['shirt', 'shorts', 'closed-shoes']],
  ['It is chilly: layer a fleece under your windbreaker and wear jeans.', ['sweater', 'jacket', 'trousers']],
  ['Wear trainers rather than sandals on the wet pavement.', ['closed-shoes']],
  ['A cotton blouse with a midi skirt and flats.', ['shirt', 'dress-or-skirt', 'closed-shoes']],
  ['Skip the heavy parka; a quilted jacket is enough.', ['coat']],
  ['Wrap up with a scarf and earmuffs.', ['scarf', 'warm-hat']],
  ['Bring sunglasses, though a hat is not necessary.', ['sunglasses']],
  ['Wear thermal leggings under your trousers and insulated boots.', ['trousers', 'boots']],
  ['A tank top and shorts; take a cap for the sun.', ['tshirt', 'shorts', 'sun-hat']],
  ['An overcoat, a turtleneck and leather gloves will keep you warm.', ['coat', 'sweater', 'gloves']],
  ['You can leave the sunscreen at home; it will stay cloudy.', []],
  ['Choose waterproof boots over trainers today.', ['boots']],
  ['A cardigan is handy for the air-conditioned office; wear a dress underneath.', ['sweater', 'dress-or-skirt']],
  ['Wear a light shirt and carry a compact umbrella in case of showers.', ['shirt', 'umbrella']],
  ["Gloves won't be needed, but a beanie will keep your ears warm.", ['warm-hat']],
  ['Slacks, a button-down shirt and brogues for the office.', ['trousers', 'shirt', 'closed-shoes']],
  ['A denim skirt with a tee and canvas shoes.', ['dress-or-skirt', 'tshirt', 'closed-shoes']],
  ['Swap your sandals for closed shoes; puddles everywhere.', ['closed-shoes']],
];
