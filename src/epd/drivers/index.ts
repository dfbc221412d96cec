import type { EpdDriver, EpdDriverOptions } from '../driver.js';
import { EpdError } from '../epd-error.js';
import { attachablePanelIds, listPanelIds, loadPanel, panelFile } from '../../panels/panels.js';
import type { DriverFamily } from '../../panels/panel-controller.js';

/**
 * Panel → its controller family's driver, by the profile's `controller` (display/panels/<id>.json): a panel is
 * attachable when its profile says `pi_header: true`, and its family's module is imported only when such a panel is
 * attached (a daemon without one loads none of them). Nothing here names a panel.
 */

export type DriverFactory = (o: EpdDriverOptions) => EpdDriver;

/** What `panel info` and docs/guides/panels.md say of a panel's controller. */
export interface DriverFacts {
  controller: string;
  /** The vendor driver the stream follows. */
  vendorFile: string;
  /** The BUSY level that means busy. */
  busyWhen: 'high' | 'low';
}

/** What each family's module offers, by panel id; both throw E_PANEL_BUS for a vendor driver the family does not know. */
interface FamilyModule {
  create(panelId: string, o: EpdDriverOptions): EpdDriver;
  facts(panelId: string): DriverFacts;
}

const FAMILIES: Readonly<Record<DriverFamily, () => Promise<FamilyModule>>> = {
  uc8179: async () => {
    const m = await import('./uc8179.js');
    return { create: m.createUc8179Driver, facts: m.uc8179PanelFacts };
  },
  ssd168x: async () => {
    const m = await import('./ssd168x.js');
    return { create: m.createSsd168xDriver, facts: m.ssd168xPanelFacts };
  },
  acep7: async () => {
    const m = await import('./acep7.js');
    return { create: m.createAcep7Driver, facts: m.acep7PanelFacts };
  },
  spectra6: async () => {
    const m = await import('./spectra6.js');
    return { create: m.createSpectra6Driver, facts: m.spectra6PanelFacts };
  },
};

/** The panel ids a driver exists for (the profiles with `controller.pi_header: true`). */
export function attachablePanels(): string[] {
  return attachablePanelIds();
}

export function isAttachable(panelId: string): boolean {
  return listPanelIds().includes(panelId) && loadPanel(panelId).controller.pi_header;
}

/** The controller family of an attachable panel; E_PANEL_BUS for a panel with no driver (it names those that have one). */
function driverFamily(panelId: string): DriverFamily {
  if (!isAttachable(panelId)) {
    throw new EpdError(
      'E_PANEL_BUS',
      `no driver for the ${panelId} panel on the Pi's header; panels that can be attached: ${attachablePanels().join(', ')}`,
    );
  }
  const family = loadPanel(panelId).controller.family;
  // The profile's schema allows pi_header only with a driver family.
  if (family === 'device-firmware')
    throw new EpdError('E_PANEL_BUS', `${panelFile(panelId)}: controller.family: device-firmware has no driver`);
  return family;
}

/** The driver factory of a panel; E_PANEL_BUS for a panel with no driver, or a vendor driver its family does not follow. */
export async function loadDriver(panelId: string): Promise<DriverFactory> {
  const family = await FAMILIES[driverFamily(panelId)]();
  // Refuses an unknown vendor driver now, when the panel is set up, not at its first frame.
  family.facts(panelId);
  return (o) => family.create(panelId, o);
}

/** The controller facts of a panel (its family's module is imported), or null for a panel with no driver. */
export async function driverFacts(panelId: string): Promise<DriverFacts | null> {
  if (!isAttachable(panelId)) return null;
  return (await FAMILIES[driverFamily(panelId)]()).facts(panelId);
}
