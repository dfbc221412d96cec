import type { CaptureOp } from '../../src/epd/capture-bus.js';
import { listPanelIds, loadPanel, type PanelProfile } from '../../src/panels/panels.js';
import type { DriverFamily } from '../../src/panels/panel-controller.js';
import { Acep7Model } from './acep7.js';
import { Spectra6Model } from './spectra6.js';
import { Ssd168xModel } from './ssd168x.js';
import { Uc8179Model } from './uc8179.js';

/**
 * Panel → the controller model that turns a capture (the command stream a driver sent) into the glass, by the
 * profile's `controller.family`: what the driver tests, the daemon's end-to-end test and the simulator's live view of
 * an attached panel all use.
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

type Make = (panel: PanelProfile, o: ControllerModelOptions) => ControllerModel;

/** A model for each controller family a driver exists for, picked by the profile's `controller.family`. */
const MODELS: Readonly<Record<DriverFamily, Make>> = {
  uc8179: (panel, o) => new Uc8179Model({ panel, ...o }),
  ssd168x: (panel, o) => new Ssd168xModel({ panel, ...o }),
  acep7: (panel, o) => new Acep7Model({ panel, ...o }),
  spectra6: (panel, o) => new Spectra6Model({ panel, ...o }),
};

/** The panels a controller model exists for: every profile whose family has one, sorted. */
export function modelledPanels(): string[] {
  return listPanelIds().filter((id) => loadPanel(id).controller.family !== 'device-firmware');
}

/** A fresh model of the panel's controller (glass white, after power-up); an Error naming the modelled panels else. */
export function controllerModel(panelId: string, o: ControllerModelOptions = {}): ControllerModel {
  const panel = loadPanel(panelId);
  const family = panel.controller.family;
  if (family === 'device-firmware')
    throw new Error(
      `no controller model for panel ${panelId}: its device's firmware drives it (${modelledPanels().join(', ')} have one)`,
    );
  return MODELS[family](panel, o);
}
