import { ColourControllerModel, type ColourModelOptions } from './colour-controller.js';
import type { CommandTable } from './protocol-model.js';

/**
 * The 7-colour ACeP controller of the Waveshare 7.3" e-Paper (F) (`waveshare-7in3-f`), as its vendor driver speaks
 * to it (waveshare_epd/epd7in3f.py, commit 86aa993): RAM values BLACK 0 WHITE 1 GREEN 2 BLUE 3 RED 4 YELLOW 5
 * ORANGE 6 (7, "clean", is no colour a frame may hold). The shared behaviour, and the commands both colour
 * controllers take, are in colour-controller.ts.
 */
const COMMANDS: CommandTable = new Map([
  [0x13, { name: 'IPC', bytes: [2, 2] as const }],
  [0x41, { name: 'TSE', bytes: [1, 1] as const }],
  [0x84, { name: 'T_VDCS', bytes: [1, 1] as const }],
  [0x86, { name: 'AGID', bytes: [1, 1] as const }],
  [0xe0, { name: 'CCSET', bytes: [1, 1] as const }],
  [0xe6, { name: 'TSSET', bytes: [1, 1] as const }],
]);

export class Acep7Model extends ColourControllerModel {
  constructor(o: ColourModelOptions) {
    super({ name: 'ACeP 7-colour', commands: COMMANDS }, o);
  }
}
