import { z } from '../shared/zod.js';

/**
 * The `controller` of a panel profile: which controller family drives the glass, and whether (and on which board)
 * it can sit on the Pi's header. The drivers (src/epd/drivers/), the simulator's controller models
 * (display/controllers/) and the board's default pins all pick by these keys, never by the panel's id: a new profile
 * for a controller that is already here needs no code.
 */

/**
 * The controller families with a driver for the Pi's header and a model in the simulator, and `device-firmware`: the
 * panel is part of a device that pulls its frame (a TRMNL, a Kindle, an Inkplate, an OpenEPaperLink tag) and whose
 * own firmware drives the controller, so nothing here speaks to it.
 */
export const CONTROLLER_FAMILIES = ['uc8179', 'ssd168x', 'acep7', 'spectra6', 'device-firmware'] as const;
export type ControllerFamily = (typeof CONTROLLER_FAMILIES)[number];
/** The families a driver exists for. */
export type DriverFamily = Exclude<ControllerFamily, 'device-firmware'>;

/** The boards that sit on the Pi's 40-pin header (their pins are in src/epd/pins.ts). */
export const HEADER_BOARDS = ['waveshare-hat', 'inky'] as const;
export type HeaderBoard = (typeof HEADER_BOARDS)[number];

export const ControllerSchema = z
  .object({
    family: z.enum(CONTROLLER_FAMILIES),
    /**
     * The vendor's driver whose command stream ours sends (`epd7in5_V2` for waveshare_epd/epd7in5_V2.py): it picks
     * the init sequence and how the glass is wired within the family. Every family but `device-firmware` names one.
     */
    vendor_driver: z
      .string()
      .regex(/^[A-Za-z0-9_]+$/, 'must be the vendor file name without .py (letters, digits, _)')
      .optional(),
    /** Whether a driver of ours can drive the panel on the Pi's header (`attached` in the config, `panel show`). */
    pi_header: z.boolean(),
    /** The board the panel comes on, for the header's pins when the config names none; with `pi_header` only. */
    board: z.enum(HEADER_BOARDS).optional(),
  })
  .strict();

export type PanelController = z.infer<typeof ControllerSchema>;

/** The rules between the keys, as issues at `controller.<key>`. */
export function controllerIssues(c: PanelController): { path: string[]; message: string }[] {
  const issues: { path: string[]; message: string }[] = [];
  const at = (key: string, message: string): void => void issues.push({ path: ['controller', key], message });
  if (c.family === 'device-firmware') {
    if (c.pi_header)
      at('pi_header', "a device-firmware panel is driven by its device, not from the Pi's header: must be false");
    if (c.vendor_driver !== undefined) at('vendor_driver', 'a device-firmware panel has no vendor driver of ours');
  } else if (c.vendor_driver === undefined) {
    at('vendor_driver', `required for the ${c.family} family (the vendor driver whose stream ours sends)`);
  }
  if (c.pi_header && c.board === undefined)
    at('board', `required with pi_header: true (one of ${HEADER_BOARDS.join(', ')})`);
  if (!c.pi_header && c.board !== undefined) at('board', 'only with pi_header: true');
  return issues;
}
