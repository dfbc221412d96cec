import { EpdError } from '../epd-error.js';
import { loadPanel, panelFile, type PanelProfile } from '../../panels/panels.js';
import type { DriverFamily } from '../../panels/panel-controller.js';

/**
 * A panel's profile and its family's entry for the profile's `controller.vendor_driver`: the one way a driver finds
 * what sets its panel apart (init sequence, RAM layout, vendor file), so a profile, not the panel's id, picks it.
 */
export function vendorVariant<V>(
  panelId: string,
  family: DriverFamily,
  familyName: string,
  variants: Readonly<Record<string, V>>,
): { profile: PanelProfile; variant: V } {
  const profile = loadPanel(panelId);
  const c = profile.controller;
  if (c.family !== family)
    throw new Error(`panel ${panelId} is not a ${familyName} panel (its controller.family is ${c.family})`);
  const known = Object.keys(variants);
  const variant =
    c.vendor_driver !== undefined && Object.hasOwn(variants, c.vendor_driver) ? variants[c.vendor_driver] : undefined;
  if (variant === undefined) {
    throw new EpdError(
      'E_PANEL_BUS',
      `${panelFile(panelId)}: controller.vendor_driver: the ${familyName} driver follows ${known.join(', ')}, not "${c.vendor_driver ?? ''}"`,
    );
  }
  return { profile, variant };
}
