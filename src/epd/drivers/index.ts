import type { EpdDriver, EpdDriverOptions } from '../driver.js';
import { EpdError } from '../epd-error.js';

/**
 * Panel id → its controller family's driver, each imported only when that panel is attached: a daemon without an
 * attached panel loads none of them.
 */

export type DriverFactory = (o: EpdDriverOptions) => EpdDriver;

/** Every panel that can be attached to the Pi's header, with its family's module. */
const FAMILIES: Readonly<Record<string, () => Promise<DriverFactory>>> = {
  'waveshare-7in5-v2': async () => uc8179('waveshare-7in5-v2'),
  'waveshare-7in5-b': async () => uc8179('waveshare-7in5-b'),
  'waveshare-2in13': async () => ssd168x('waveshare-2in13'),
  'waveshare-2in9': async () => ssd168x('waveshare-2in9'),
  'waveshare-4in2': async () => ssd168x('waveshare-4in2'),
  'waveshare-7in3-f': async () => {
    const { createAcep7Driver } = await import('./acep7.js');
    return (o) => createAcep7Driver('waveshare-7in3-f', o);
  },
  'inky-impression-7in3': async () => {
    const { createSpectra6Driver } = await import('./spectra6.js');
    return (o) => createSpectra6Driver('inky-impression-7in3', o);
  },
};

async function uc8179(id: string): Promise<DriverFactory> {
  const { createUc8179Driver } = await import('./uc8179.js');
  return (o) => createUc8179Driver(id, o);
}

async function ssd168x(id: string): Promise<DriverFactory> {
  const { createSsd168xDriver } = await import('./ssd168x.js');
  return (o) => createSsd168xDriver(id, o);
}

/** The panel ids a driver exists for. */
export const ATTACHABLE_PANELS: readonly string[] = Object.keys(FAMILIES);

export function isAttachable(panelId: string): boolean {
  return Object.hasOwn(FAMILIES, panelId);
}

/** The driver factory of a panel; E_PANEL_BUS for a panel with no driver (it names those that have one). */
export async function loadDriver(panelId: string): Promise<DriverFactory> {
  const load = isAttachable(panelId) ? FAMILIES[panelId] : undefined;
  if (load === undefined) {
    throw new EpdError('E_PANEL_BUS', `no driver for the ${panelId} panel on the Pi's header; panels that can be attached: ${ATTACHABLE_PANELS.join(', ')}`);
  }
  return load();
}

/** What `panel info` and docs/raspberry-pi.md say of a panel's controller. */
export interface DriverFacts {
  controller: string;
  /** The vendor driver the stream follows. */
  vendorFile: string;
  /** The BUSY level that means busy. */
  busyWhen: 'high' | 'low';
}

/** The controller facts of a panel (its family's module is imported). */
export async function driverFacts(panelId: string): Promise<DriverFacts | null> {
  if (!isAttachable(panelId)) return null;
  if (panelId === 'waveshare-7in3-f') {
    const m = await import('./acep7.js');
    return m.isAcep7Panel(panelId) ? m.acep7PanelFacts(panelId) : null;
  }
  if (panelId === 'inky-impression-7in3') {
    const m = await import('./spectra6.js');
    return m.isSpectra6Panel(panelId) ? m.spectra6PanelFacts(panelId) : null;
  }
  if (panelId.startsWith('waveshare-7in5')) {
    const m = await import('./uc8179.js');
    return m.isUc8179Panel(panelId) ? m.uc8179PanelFacts(panelId) : null;
  }
  const m = await import('./ssd168x.js');
  return m.isSsd168xPanel(panelId) ? m.ssd168xPanelFacts(panelId) : null;
}
