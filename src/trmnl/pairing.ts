import { chown, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { WarningCode } from '../shared/codes.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { normalizeMac } from './mac.js';
import type { Clock } from '../time/clock.js';

/**
 * When a TRMNL device may fetch its access token (GET /api/setup). A MAC is no secret, so setup hands out the token
 * only while the owner has opened pairing for that device: for a few minutes (default 5), and only until the device
 * has paired. Openers:
 *   - `outfit-display pair` (another process) writes `<state_dir>/pairing.json`, atomically; the daemon reads it
 *     when a setup request comes, so only a user who may write the daemon's state folder can open pairing;
 *   - the status page's button and the Home Assistant button call open() in the daemon.
 * The file: {"version":1,"devices":[{"mac":"AA:BB:CC:DD:EE:FF","opened_at":"<ISO>","until":"<ISO>"}]}.
 */

export const PAIRING_FILE = 'pairing.json';
export const PAIRING_DEFAULT_MINUTES = 5;
export const PAIRING_MAX_MINUTES = 60;
/**
 * Warning: a pairing file that is not used (not JSON, writable by others) or could not be updated
 * (docs/reference/http.md).
 */
export const W_PAIRING_FILE = 'W_PAIRING_FILE' satisfies WarningCode;

export interface PairingWindow {
  /** Upper case, `:`. */
  mac: string;
  /** ms since epoch. */
  openedAt: number;
  until: number;
}

export interface TrmnlPairingOptions {
  /** `<state_dir>/pairing.json`; null: only the in-process openers. */
  file: string | null;
  /** Dates pairing windows and their expiry. */
  clock: Clock;
  logger?: Logger;
}

/** Reads a pairing file; liberal: entries it cannot use are skipped. Missing file: no windows. */
function parsePairingFile(text: string): PairingWindow[] | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const list = (raw as { devices?: unknown } | null)?.devices;
  if (!Array.isArray(list)) return null;
  const out: PairingWindow[] = [];
  for (const e of list as unknown[]) {
    const o = (e ?? {}) as { mac?: unknown; opened_at?: unknown; until?: unknown };
    const mac = typeof o.mac === 'string' ? normalizeMac(o.mac) : null;
    const openedAt = typeof o.opened_at === 'string' ? Date.parse(o.opened_at) : NaN;
    const until = typeof o.until === 'string' ? Date.parse(o.until) : NaN;
    if (mac !== null && Number.isFinite(openedAt) && Number.isFinite(until)) out.push({ mac, openedAt, until });
  }
  return out;
}

function serialize(windows: readonly PairingWindow[]): string {
  const devices = windows.map((w) => ({
    mac: w.mac,
    opened_at: new Date(w.openedAt).toISOString(),
    until: new Date(w.until).toISOString(),
  }));
  return `${JSON.stringify({ version: 1, devices }, null, 2)}\n`;
}

/**
 * Writes `file` with pairing opened for `macs` from `now` for `minutes` (other unexpired windows kept), mode 0600.
 * Run as root for a daemon under another user (systemd's DynamicUser), the file is given to the folder's owner.
 */
export async function openPairingFile(
  file: string,
  macs: readonly string[],
  minutes: number,
  now: number,
): Promise<PairingWindow[]> {
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '';
    throw err;
  });
  const kept = (parsePairingFile(text) ?? []).filter((w) => w.until > now && !macs.includes(w.mac));
  const opened = macs.map((mac) => ({ mac, openedAt: now, until: now + minutes * 60_000 }));
  await writeFileAtomic(file, serialize([...kept, ...opened]), { mode: 0o600 });
  const dir = await stat(path.dirname(file));
  if (process.getuid?.() === 0 && dir.uid !== 0) await chown(file, dir.uid, dir.gid);
  return opened;
}

export class TrmnlPairing {
  readonly #o: TrmnlPairingOptions;
  /** Opened in this process (status page, Home Assistant). */
  readonly #open = new Map<string, PairingWindow>();
  /** When each device last paired: a window opened before that is used up. */
  readonly #pairedAt = new Map<string, number>();
  #fileWindows: PairingWindow[] = [];
  #fileStamp = '';

  constructor(opts: TrmnlPairingOptions) {
    this.#o = opts;
  }

  /** Opens pairing for `macs` in this process. */
  open(macs: readonly string[], minutes = PAIRING_DEFAULT_MINUTES): PairingWindow[] {
    const now = this.#o.clock.now();
    const m = Math.min(PAIRING_MAX_MINUTES, Math.max(1, minutes));
    return macs.flatMap((raw) => {
      const mac = normalizeMac(raw);
      if (mac === null) return [];
      const w = { mac, openedAt: now, until: now + m * 60_000 };
      this.#open.set(mac, w);
      this.#o.logger?.info({ mac, until: new Date(w.until).toISOString() }, 'TRMNL pairing opened');
      return w;
    });
  }

  /** Reads the pairing file if it changed (before showing the status page). */
  async reload(): Promise<void> {
    await this.#readFile();
  }

  /** The open window as last read, without touching the disk (for the status page). */
  openUntil(mac: string): number | null {
    return this.#current(mac)?.until ?? null;
  }

  #current(mac: string): PairingWindow | null {
    const now = this.#o.clock.now();
    const paired = this.#pairedAt.get(mac) ?? -Infinity;
    // A window opened here is deleted when the device pairs; one from the file is used up by a later pairing.
    const fromFile = this.#fileWindows.filter((w) => w.mac === mac && w.openedAt > paired);
    const all = [this.#open.get(mac), ...fromFile];
    let best: PairingWindow | null = null;
    for (const w of all) {
      if (w === undefined || w.until <= now) continue;
      // A hand-made file cannot open pairing for longer than the CLI may, nor from the future.
      if (w.openedAt > now + 60_000 || w.until - w.openedAt > PAIRING_MAX_MINUTES * 60_000) continue;
      if (best === null || w.until > best.until) best = w;
    }
    return best;
  }

  /**
   * Whether `mac` may have its token now; if so its window is closed at once (before any other request can see it
   * open) and dropped from the file, so a restart does not reopen it.
   */
  async take(mac: string): Promise<boolean> {
    await this.#readFile();
    if (this.#current(mac) === null) return false;
    const now = this.#o.clock.now();
    this.#pairedAt.set(mac, now);
    this.#open.delete(mac);
    const file = this.#o.file;
    if (file === null || !this.#fileWindows.some((w) => w.mac === mac)) return true;
    try {
      const text = await readFile(file, 'utf8');
      const rest = (parsePairingFile(text) ?? []).filter((w) => w.until > now && !(w.mac === mac && w.openedAt <= now));
      await writeFileAtomic(file, serialize(rest), { mode: 0o600 });
    } catch (err) {
      // The window is closed in memory all the same; a restart within its minutes would reopen it.
      this.#o.logger?.warn({ code: W_PAIRING_FILE, file, err }, 'pairing file could not be updated');
    }
    return true;
  }

  async #readFile(): Promise<void> {
    const file = this.#o.file;
    if (file === null) return;
    let stamp: string;
    let mode: number;
    try {
      const st = await stat(file);
      stamp = `${st.ino}:${st.mtimeMs}:${st.size}`;
      mode = st.mode;
    } catch {
      this.#fileWindows = [];
      this.#fileStamp = '';
      return;
    }
    if (stamp === this.#fileStamp) return;
    this.#fileStamp = stamp;
    this.#fileWindows = [];
    if ((mode & 0o022) !== 0) {
      this.#o.logger?.warn({ code: W_PAIRING_FILE, file }, 'pairing file ignored: others may write it (chmod 600)');
      return;
    }
    const parsed = parsePairingFile(await readFile(file, 'utf8').catch(() => ''));
    if (parsed === null) {
      this.#o.logger?.warn({ code: W_PAIRING_FILE, file }, 'pairing file ignored: not {"devices":[…]} JSON');
      return;
    }
    this.#fileWindows = parsed;
  }
}
