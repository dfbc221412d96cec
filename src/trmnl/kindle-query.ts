import type { DeviceReport } from '../state/device-book.js';
import { flagOrNull, numberIn, percentOrNull } from './device-headers.js';

/**
 * A Kindle on the online-screensaver extension asks `frame.png?batteryLevel=N&isCharging=Yes|No`
 * (../shared/facts/esphome-and-kindle.md): the first such request makes the display's Kindle appear, with no
 * configuration. One Kindle a display: the query names no device, so two Kindles of one display are one device.
 */
export function kindleReport(
  query: URLSearchParams,
  displayId: string,
  periodS: number,
  at: Date,
): DeviceReport | null {
  const level = query.get('batteryLevel');
  const charging = query.get('isCharging');
  if (level === null && charging === null) return null;
  return {
    key: 'kindle',
    display: displayId,
    kind: 'kindle',
    mac: null,
    model: null,
    panel: null,
    batteryPct: percentOrNull(numberIn(level)),
    batteryVoltage: null,
    charging: flagOrNull(charging),
    usbPower: null,
    rssi: null,
    fwVersion: null,
    wakeReason: null,
    sensors: [],
    periodS,
    at,
  };
}
