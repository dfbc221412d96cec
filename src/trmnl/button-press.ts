import type { Clock } from '../time/clock.js';

/**
 * A device's button is a refresh, like Home Assistant's. The wake that carries the press waits a while for the
 * purchase, so that the person who pressed sees the new outfit on this very wake; a purchase still running then
 * (the rate limit, a slow service) is fetched on a wake soon after.
 */

/** What a press came to when the answer to its wake was sent. */
export type ButtonOutcome =
  /** The refresh gate or the budget said no: the device keeps its frame; the refusal is on the status page and in HA. */
  | { kind: 'refused' }
  /** The refresh ended (a new outfit, or a failure shown on the frame) before the answer. */
  | { kind: 'done' }
  /** Still running when the answer had to go: the device comes back in PRESS_PENDING_REFRESH_S. */
  | { kind: 'pending' };

/**
 * The wakes a person caused: `Update-Source` names the ESP32's wake cause (the firmware's `logging_parsers.cpp`):
 * `button` for a GPIO wake (the original), `EXT0`/`EXT1` on the boards whose button wakes them that way. A
 * double-click is a special function (its own header), not a press.
 */
export function isButtonWake(wakeReason: string | null): boolean {
  return wakeReason === 'button' || wakeReason === 'ext0' || wakeReason === 'ext1';
}

/**
 * How long the wake waits: well under the firmware's 15 s wait for the answer (`src/api-client/display.cpp`), and
 * enough for a purchase that the rate limit does not hold back.
 */
export const PRESS_WAIT_MS = 8_000;
/** A press still running when answered: the device asks again this soon, and then gets the new frame. */
export const PRESS_PENDING_REFRESH_S = 30;

/** `refresh` resolves false when the press was refused (the gate, or the budget in the cycle). */
export async function waitForPress(refresh: Promise<boolean>, clock: Clock, waitMs: number): Promise<ButtonOutcome> {
  let timer: unknown = null;
  const waited = new Promise<ButtonOutcome>((resolve) => {
    timer = clock.setTimeout(() => resolve({ kind: 'pending' }), waitMs);
  });
  try {
    return await Promise.race([
      refresh.then((ok): ButtonOutcome => (ok ? { kind: 'done' } : { kind: 'refused' })),
      waited,
    ]);
  } finally {
    clock.clearTimeout(timer);
  }
}
