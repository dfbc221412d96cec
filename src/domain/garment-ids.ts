/**
 * The garment vocabulary: the ids the outfit reader (garments.ts) finds by the names in garment-words.ts. A contract:
 * they appear in `<id>.json`, `state.json`, the MQTT state and Home Assistant, and each has a pictogram on the frame.
 * Its own file so that the reader and its word list do not import each other.
 */
export const GARMENT_IDS = [
  'coat',
  'jacket',
  'raincoat',
  'sweater',
  'tshirt',
  'shirt',
  'trousers',
  'shorts',
  'dress-or-skirt',
  'boots',
  'closed-shoes',
  'sandals',
  'scarf',
  'gloves',
  'warm-hat',
  'sun-hat',
  'sunglasses',
  'umbrella',
  'sunscreen',
] as const;
export type GarmentId = (typeof GARMENT_IDS)[number];
