/**
 * A TRMNL device's MAC address as the config, the pairing file and the device's requests spell it. Its own file so
 * that the device API (trmnl-api.ts) and the pairing windows (pairing.ts) do not import each other.
 */

/** `aa-bb-cc-dd-ee-ff` → `AA:BB:CC:DD:EE:FF`; null when it is not a MAC. */
export function normalizeMac(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const mac = raw.trim().toUpperCase().replace(/-/g, ':');
  return /^([0-9A-F]{2}:){5}[0-9A-F]{2}$/.test(mac) ? mac : null;
}

/** A TRMNL device's key among its display's devices (topics, Home Assistant node ids): `trmnl-aabbccddeeff`. */
export function trmnlDeviceKey(mac: string): string {
  return `trmnl-${mac.replace(/[:-]/g, '').toLowerCase()}`;
}
