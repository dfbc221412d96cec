import type { DeviceEntry } from '../state/device-book.js';
import { deviceModel } from '../panels/device-models.js';
import { formatWhen } from './status-page-model.js';
import type { StatusPageDevice } from './status-page.js';

export function deviceRow(d: DeviceEntry, tz: string, now: number): StatusPageDevice {
  const facts: string[] = [];
  if (d.batteryPct !== null || d.batteryVoltage !== null) {
    const pct = d.batteryPct === null ? null : `${Math.round(d.batteryPct)} %`;
    const volts = d.batteryVoltage === null ? null : `${d.batteryVoltage.toFixed(2)} V`;
    facts.push(
      `Battery ${[pct, volts].filter((x) => x !== null).join(', ')}${d.charging === true ? ', charging' : ''}`,
    );
  } else if (d.charging !== null) {
    facts.push(d.charging ? 'Charging' : 'Not charging');
  }
  if (d.usbPower !== null) facts.push(d.usbPower ? 'on USB power' : 'on battery');
  if (d.rssi !== null) facts.push(`Wi-Fi ${d.rssi} dBm`);
  if (d.fwVersion !== null) facts.push(`firmware ${d.fwVersion}`);
  if (d.panel !== null) facts.push(`drawn for ${d.panel}`);
  for (const s of d.sensors)
    facts.push(`${s.kind.replace(/_/g, ' ')} ${Math.round(s.value * 10) / 10}${s.unit === null ? '' : ` ${s.unit}`}`);
  const label =
    d.kind === 'kindle'
      ? 'Kindle'
      : `${deviceModel(d.model)?.label ?? (d.model === null ? 'TRMNL' : `TRMNL (${d.model})`)} ${d.mac ?? ''}`.trim();
  const woke =
    d.wakeReason === null || d.wakeReason === 'timer'
      ? ''
      : d.wakeReason === 'button'
        ? ', woken by its button'
        : `, woken by ${d.wakeReason}`;
  return { name: label, facts, seen: `${formatWhen(d.at, tz, now) ?? '—'}${woke}`, available: d.available };
}
