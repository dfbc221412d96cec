import { readFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { WarningCode } from '../shared/codes.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import type { Clock } from '../time/clock.js';
import { FirmwareFolder, type OpenFirmware } from './firmware-files.js';
import { normalizeMac } from './mac.js';

/**
 * Self-hosted firmware updates for TRMNL devices, opt-in (docs/guides/devices.md): which device /api/display tells to
 * update (`update_firmware: true`, `firmware_url`) and what became of each offer.
 *
 * The firmware (facts, section 8) downloads `firmware_url` with a plain GET right after the display answer, flashes
 * it and restarts; it reads no checksum, and after a FAILED attempt it ignores offers for 24 h. So an offer's outcome
 * shows at the device's next wake: its FW-Version is the offered one (succeeded) or still another (failed). After a
 * failure we do not offer again until that 24 h has passed: an offer the device would ignore would only come back
 * as another "failure" and make the count say nothing.
 *
 * Persisted per MAC in `<state_dir>/firmware-offers.json`, so that an offer made before a restart is judged after it.
 */

/** Warning: a device came back on another version than the one offered at its previous wake. */
export const W_FIRMWARE_UPDATE_FAILED = 'W_FIRMWARE_UPDATE_FAILED' satisfies WarningCode;
/** Warning: the offers' state file could not be read (then starts empty) or written (kept in memory). */
export const W_FIRMWARE_STATE = 'W_FIRMWARE_STATE' satisfies WarningCode;

export const FIRMWARE_OFFERS_FILE = 'firmware-offers.json';
/** The firmware's OTA_RETRY_INTERVAL_SECONDS (lib/trmnl/src/ota_schedule.cpp). */
export const FIRMWARE_RETRY_MS = 24 * 3_600_000;

export type OfferOutcome = 'offered' | 'succeeded' | 'failed';

/** What became of the last offer to one device. */
export interface OfferRecord {
  version: string;
  /** ms since epoch: when it was offered, or when its outcome was seen. */
  at: number;
  outcome: OfferOutcome;
  /** Failed offers of this device, all versions. */
  failures: number;
}

export interface FirmwareOfferRow extends OfferRecord {
  mac: string;
}

export interface DeviceWake {
  mac: string;
  fwVersion: string | null;
  batteryPct: number | null;
  charging: boolean | null;
}

export type FirmwareDecision = { offer: { version: string; path: string } } | { offer: null; why: string };

export interface FirmwareOffersOptions {
  /** The folder of `<version>.bin` files (trmnl.firmware.dir). */
  dir: string;
  /** trmnl.firmware.battery_floor_pct. */
  batteryFloorPct: number;
  /** The devices with `firmware_updates: true` (any case, `:` or `-`). */
  allowed: readonly string[];
  /** `<state_dir>/firmware-offers.json`; null: kept in memory only. */
  stateFile: string | null;
  clock: Clock;
  logger?: Logger;
}

function parseState(text: string): Map<string, OfferRecord> {
  const out = new Map<string, OfferRecord>();
  const raw = JSON.parse(text) as { devices?: unknown };
  for (const e of Array.isArray(raw.devices) ? (raw.devices as unknown[]) : []) {
    const o = (e ?? {}) as Record<string, unknown>;
    const mac = typeof o.mac === 'string' ? normalizeMac(o.mac) : null;
    const at = typeof o.at === 'string' ? Date.parse(o.at) : NaN;
    const outcome = o.outcome === 'offered' || o.outcome === 'succeeded' || o.outcome === 'failed' ? o.outcome : null;
    if (mac === null || typeof o.version !== 'string' || !Number.isFinite(at) || outcome === null) continue;
    out.set(mac, {
      version: o.version.slice(0, 40),
      at,
      outcome,
      failures: typeof o.failures === 'number' && o.failures >= 0 ? Math.floor(o.failures) : 0,
    });
  }
  return out;
}

export class FirmwareOffers {
  readonly #o: FirmwareOffersOptions;
  readonly #folder: FirmwareFolder;
  readonly #allowed: Set<string>;
  #records: Map<string, OfferRecord> | null = null;
  /** Writes one after the other, so that an older state never lands after a newer one. */
  #writing: Promise<void> = Promise.resolve();
  /** Decisions one at a time: a device's retried request must not judge one offer twice (two failures counted). */
  #deciding: Promise<unknown> = Promise.resolve();

  constructor(opts: FirmwareOffersOptions) {
    this.#o = opts;
    this.#folder = new FirmwareFolder({ dir: opts.dir, ...(opts.logger !== undefined && { logger: opts.logger }) });
    this.#allowed = new Set(opts.allowed.map((m) => normalizeMac(m)).filter((m): m is string => m !== null));
  }

  async #state(): Promise<Map<string, OfferRecord>> {
    if (this.#records !== null) return this.#records;
    let records = new Map<string, OfferRecord>();
    if (this.#o.stateFile !== null) {
      try {
        records = parseState(await readFile(this.#o.stateFile, 'utf8'));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
          this.#o.logger?.warn(
            {
              code: W_FIRMWARE_STATE,
              file: this.#o.stateFile,
              reason: err instanceof Error ? err.message : String(err),
            },
            'the firmware offers file cannot be used: starting without it',
          );
        }
      }
    }
    // Another decide() may have loaded it while this one read.
    this.#records ??= records;
    return this.#records;
  }

  #save(): Promise<void> {
    const file = this.#o.stateFile;
    if (file === null || this.#records === null) return Promise.resolve();
    const devices = [...this.#records].map(([mac, r]) => ({
      mac,
      version: r.version,
      at: new Date(r.at).toISOString(),
      outcome: r.outcome,
      failures: r.failures,
    }));
    const text = `${JSON.stringify({ version: 1, devices }, null, 2)}\n`;
    this.#writing = this.#writing.then(() =>
      writeFileAtomic(file, text).catch((err: unknown) => {
        this.#o.logger?.warn(
          { code: W_FIRMWARE_STATE, file, reason: err instanceof Error ? err.message : String(err) },
          'the firmware offers file cannot be written: kept in memory',
        );
      }),
    );
    return this.#writing;
  }

  /** Whether `mac` may be offered an update at all (firmware_updates: true). */
  allows(mac: string): boolean {
    const m = normalizeMac(mac);
    return m !== null && this.#allowed.has(m);
  }

  /** The offer (or why none) for a device at this wake; records the outcome of its previous offer first. */
  decide(d: DeviceWake): Promise<FirmwareDecision> {
    const next = this.#deciding.then(() => this.#decide(d));
    this.#deciding = next.catch(() => undefined);
    return next;
  }

  async #decide(d: DeviceWake): Promise<FirmwareDecision> {
    const mac = normalizeMac(d.mac);
    if (mac === null || !this.#allowed.has(mac)) return { offer: null, why: 'not allowed (firmware_updates is off)' };
    if (d.fwVersion === null) return { offer: null, why: 'firmware version unknown' };
    const records = await this.#state();
    const now = this.#o.clock.now();
    const last = records.get(mac);
    let changed = false;
    if (last !== undefined && last.outcome !== 'succeeded' && d.fwVersion === last.version) {
      records.set(mac, { ...last, at: now, outcome: 'succeeded' });
      this.#o.logger?.info({ mac, version: last.version }, 'TRMNL firmware update succeeded');
      changed = true;
    } else if (last?.outcome === 'offered') {
      const failed = { ...last, at: now, outcome: 'failed' as const, failures: last.failures + 1 };
      records.set(mac, failed);
      this.#o.logger?.warn(
        {
          code: W_FIRMWARE_UPDATE_FAILED,
          mac,
          offered: last.version,
          reported: d.fwVersion,
          failures: failed.failures,
        },
        'a TRMNL device came back on another firmware than the one offered: the update failed; not offered again for 24 h',
      );
      await this.#save();
      return { offer: null, why: `the update to ${last.version} failed` };
    }
    const decision = await this.#offer(d, records.get(mac), now);
    if (decision.offer !== null) {
      const prev = records.get(mac);
      records.set(mac, { version: decision.offer.version, at: now, outcome: 'offered', failures: prev?.failures ?? 0 });
      this.#o.logger?.info(
        { mac, version: decision.offer.version, from: d.fwVersion },
        'TRMNL firmware update offered',
      );
      changed = true;
    }
    if (changed) await this.#save();
    return decision;
  }

  async #offer(d: DeviceWake, last: OfferRecord | undefined, now: number): Promise<FirmwareDecision> {
    const file = await this.#folder.newest();
    if (file === null) return { offer: null, why: 'no firmware file' };
    if (file.version === d.fwVersion) return { offer: null, why: 'already on the newest firmware' };
    if (last?.outcome === 'failed' && now - last.at < FIRMWARE_RETRY_MS) {
      return { offer: null, why: `waiting 24 h after the failed update to ${last.version}` };
    }
    if (d.charging !== true) {
      if (d.batteryPct === null) return { offer: null, why: 'battery unknown' };
      if (d.batteryPct < this.#o.batteryFloorPct)
        return { offer: null, why: `battery ${Math.round(d.batteryPct)} % under ${this.#o.batteryFloorPct} %` };
    }
    return { offer: { version: file.version, path: file.path } };
  }

  /**
   * A file to serve at /trmnl/firmware/<version>.bin: only a version some device was offered, never any other file
   * of the folder (the folder may hold versions the owner keeps for later).
   */
  async open(version: string): Promise<OpenFirmware | null> {
    const records = await this.#state();
    const offered = [...records.values()].some((r) => r.version === version);
    return offered ? this.#folder.open(version) : null;
  }

  /** What was offered to whom, for the status page and state.json. */
  async rows(): Promise<FirmwareOfferRow[]> {
    return [...(await this.#state())].map(([mac, r]) => ({ mac, ...r }));
  }

  /** Waits for the writes under way (tests; stop). */
  flush(): Promise<void> {
    return this.#writing;
  }
}
