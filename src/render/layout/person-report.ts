import type { GarmentId } from '../../domain/garments.js';

/** What a frame drew of one person (a household frame's column, or a one-person frame), for `render --out x.json`. */
export interface PersonReport {
  id: string;
  name: string;
  /** What their outfit names (the answer's reading), in the vocabulary's order. */
  garments: readonly GarmentId[];
  /** Their pictogram row as drawn ('nothing-extra': the tick). */
  pictograms: string[];
  /** Garments left off their row for want of room, counted on the frame as "+N". */
  pictogramsMore: number;
  /** The garments added at their own feels-like (FramePerson.additions). */
  additions: readonly GarmentId[];
  /** Of those, the pictograms drawn after "+ for <name>" (fewer only where their room ends). */
  additionsDrawn: string[];
  offsetC: number;
  away: boolean;
  /** Their column is marked as old (their answer, or the display's, out of date). */
  old: boolean;
  /** Their outfit as shown, its lines joined; null: none (no answer yet). */
  outfit: string | null;
  /** Words of the outfit were left out (whole sentences, never inside one where the room allows it). */
  outfitTruncated: boolean;
  /** Sizes drawn, px (null: not drawn): the name, a garment pictogram, an added one, the outfit (its lead) and its rest. */
  sizes: {
    name: number | null;
    pictogram: number | null;
    additions: number | null;
    outfit: number | null;
    outfitRest: number | null;
  };
  /** The person's box on the frame, px. */
  box: { x: number; y: number; w: number; h: number };
}
