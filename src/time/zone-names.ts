import { readlinkSync } from 'node:fs';
import { UTC_NAMES } from './zone-table.js';

/**
 * Time zone names: which ones Intl knows, and the host's zone, without building an `Intl.DateTimeFormat` where a name
 * is one Intl lists: V8's first Intl formatter in a process keeps about 8 MB resident (zone-table.ts), and the daemon
 * checks its zone at every start. Intl's list of zones costs about 1 MB.
 */

let canonical: ReadonlySet<string> | null = null;

/** Whether `name` is one of Intl's own zone names (ICU's canonical ones) or of UTC's, exactly as written. */
function isListedZone(name: string): boolean {
  canonical ??= new Set(Intl.supportedValuesOf('timeZone'));
  return UTC_NAMES.has(name) || canonical.has(name);
}

/** Whether Intl knows zone `name` (any case, any alias: what `Intl.DateTimeFormat` accepts). */
export function isTimeZone(name: string): boolean {
  if (isListedZone(name)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export interface HostZoneOptions {
  /** Where TZ is read; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** The link that names the system's zone; default /etc/localtime. */
  localtime?: string;
}

/**
 * The host's zone, found the way ICU finds it (TZ, else the zone /etc/localtime links to), without building an Intl
 * formatter where that gives a name Intl knows; else Intl's own answer (a copied /etc/localtime, a POSIX TZ rule).
 * A UTC alias is "UTC", as Intl says it.
 */
export function hostZoneName(opts: HostZoneOptions = {}): string {
  const tz = (opts.env ?? process.env).TZ?.replace(/^:/, '');
  const named = tz !== undefined && tz !== '' ? tz : linkedZone(opts.localtime ?? '/etc/localtime');
  if (named !== null && isListedZone(named)) return UTC_NAMES.has(named) ? 'UTC' : named;
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The zone a zoneinfo link names ("Europe/Berlin" of /usr/share/zoneinfo/Europe/Berlin); null if not such a link. */
function linkedZone(path: string): string | null {
  try {
    return /\/zoneinfo\/(.+)$/.exec(readlinkSync(path))?.[1] ?? null;
  } catch {
    // Absent, or a copied file rather than a link.
    return null;
  }
}
