import { ColourControllerModel, type ColourModelOptions } from './colour-controller.js';

/**
 * The Spectra 6 (E6) controller of the Pimoroni Inky Impression 7.3" 2025 (`inky-impression-7in3`), as its vendor
 * driver speaks to it (inky/inky_e673.py, commit 07035b3): RAM values BLACK 0 WHITE 1 YELLOW 2 RED 3 BLUE 5 GREEN 6;
 * 4 is no colour. It takes only the commands both colour controllers take (colour-controller.ts, where the shared
 * behaviour is); inky_e673 calls DTM (0x10) DTM1.
 */
export class Spectra6Model extends ColourControllerModel {
  constructor(o: ColourModelOptions) {
    super({ name: 'Spectra 6', commands: new Map([[0x10, { name: 'DTM1', bytes: [0, Infinity] as const }]]) }, o);
  }
}
