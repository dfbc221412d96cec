import path from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { normalizeMac } from './mac.js';
import { openPairingFile, PAIRING_DEFAULT_MINUTES, PAIRING_FILE, PAIRING_MAX_MINUTES } from './pairing.js';

/**
 * Opens TRMNL pairing for the chosen devices (default: every device in trmnl.devices) by writing
 * `<state_dir>/pairing.json`, which the running daemon reads at the device's next /api/setup: what
 * `outfit-display pair --config F [--display ID | --mac MAC] [--minutes N]` (src/cli/pair-command.ts) does.
 */

/** Bad flags for this config: exit 2. */
export class PairUsageError extends Error {}

export interface OpenPairingFlags {
  display?: string;
  mac?: string;
  /** Whole minutes, 1 to 60; default 5. */
  minutes?: string;
  /** ms since epoch. */
  now: number;
}

/** Returns the lines to print. */
export async function openPairing(loaded: LoadedConfig, f: OpenPairingFlags): Promise<string[]> {
  const { config, file } = loaded;
  const devices = config.trmnl?.devices ?? [];
  // Decimal digits only: Number() would take `0x10` or `1e1` for a count of minutes.
  const minutes =
    f.minutes === undefined ? PAIRING_DEFAULT_MINUTES : /^\d{1,4}$/.test(f.minutes.trim()) ? Number(f.minutes) : NaN;
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > PAIRING_MAX_MINUTES) {
    throw new PairUsageError(`--minutes must be a whole number from 1 to ${PAIRING_MAX_MINUTES}, not "${f.minutes}"`);
  }
  if (f.display !== undefined && f.mac !== undefined)
    throw new PairUsageError('pair takes --display or --mac, not both');
  if (!config.http)
    throw new PairUsageError(`${file} has no http section: TRMNL devices are served by the HTTP server`);
  let chosen = devices;
  if (f.mac !== undefined) {
    const mac = normalizeMac(f.mac);
    if (mac === null)
      throw new PairUsageError(`--mac must be a MAC address like AA:BB:CC:DD:EE:FF, not "${f.mac.slice(0, 40)}"`);
    chosen = devices.filter((d) => normalizeMac(d.mac) === mac);
    if (chosen.length === 0) throw new PairUsageError(`no trmnl.devices entry has the MAC ${mac} in ${file}`);
  } else if (f.display !== undefined) {
    if (!config.displays.some((d) => d.id === f.display))
      throw new PairUsageError(`no display with id "${f.display}" in ${file}`);
    chosen = devices.filter((d) => d.display === f.display);
    if (chosen.length === 0) throw new PairUsageError(`display "${f.display}" has no TRMNL device in trmnl.devices`);
  }
  if (chosen.length === 0) throw new PairUsageError(`${file} lists no trmnl.devices to pair`);

  const pairingFile = path.join(config.state_dir, PAIRING_FILE);
  const macs = [...new Set(chosen.map((d) => normalizeMac(d.mac)!))];
  try {
    await openPairingFile(pairingFile, macs, minutes, f.now);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    const hint =
      code === 'EACCES' || code === 'EPERM'
        ? ': run it as the daemon’s user, or as root'
        : code === 'ENOENT'
          ? ': state_dir does not exist yet (start the daemon once)'
          : '';
    throw new Error(`cannot write ${pairingFile} (${code})${hint}`);
  }
  const until = new Date(f.now + minutes * 60_000).toISOString();
  return [
    ...chosen.map((d) => `pairing open for ${normalizeMac(d.mac)} (display ${d.display}) until ${until}`),
    'Wake the device (press its button) within that time: it fetches its token once, then pairing closes.',
  ];
}
