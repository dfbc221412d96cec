import type { CaptureOp } from '../../src/epd/capture-bus.js';
import { loadPanel } from '../../src/panels/panels.js';
import { Acep7Model } from './acep7.js';
import { Spectra6Model } from './spectra6.js';
import { Ssd168xModel } from './ssd168x.js';
import { Uc8179Model } from './uc8179.js';

/**
 * Panel id → the controller model that turns a capture (the command stream a driver sent) into the glass: what the
 * driver tests, the daemon's end-to-end test and the simulator's live view of an attached panel all use.
 */

/** What every model offers: ops in, the glass out. */
export interface ControllerModel {
  /** One capture op; throws E_PANEL_PROTOCOL (with a reason) for what the controller would not take. */
  apply(op: CaptureOp): void;
  applyAll(ops: Iterable<CaptureOp>): void;
  /** Palette indices of the panel profile, rows of its width x height (white before the first refresh). */
  glass(): Uint8Array;
  /** Refreshes so far. */
  readonly refreshes: number;
  /** In deep sleep: nothing but a reset wakes it. */
  readonly deepSleep: boolean;
}

export interface ControllerModelOptions {
  /** Called with the new glass after each refresh (the simulator's live view). */
  onRefresh?: (glass: Uint8Array) => void;
}

type Make = (panelId: string, o: ControllerModelOptions) => ControllerModel;

const uc8179: Make = (id, o) => new Uc8179Model({ panel: loadPanel(id), ...o });
const ssd168x: Make = (id, o) => new Ssd168xModel({ panel: loadPanel(id), ...o });

const MODELS: Readonly<Record<string, Make>> = {
  'waveshare-7in5-v2': uc8179,
  'waveshare-7in5-b': uc8179,
  'waveshare-2in13': ssd168x,
  'waveshare-2in9': ssd168x,
  'waveshare-4in2': ssd168x,
  'waveshare-7in3-f': (id, o) => new Acep7Model({ panel: loadPanel(id), ...o }),
  'inky-impression-7in3': (id, o) => new Spectra6Model({ panel: loadPanel(id), ...o }),
};

/** The panels a controller model exists for. */
export const MODELLED_PANELS: readonly string[] = Object.keys(MODELS);

/** A fresh model of the panel's controller (glass white, after power-up); an Error naming the modelled panels else. */
export function controllerModel(panelId: string, o: ControllerModelOptions = {}): ControllerModel {
  const make = Object.hasOwn(MODELS, panelId) ? MODELS[panelId] : undefined;
  if (make === undefined) throw new Error(`no controller model for panel ${panelId} (${MODELLED_PANELS.join(', ')})`);
  return make(panelId, o);
}
