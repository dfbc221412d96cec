/**
 * The device's power model, in simulated (not wall-clock) time.
 *
 * Figures from TRMNL's own documentation (help.usetrmnl.com "Device battery FAQ", the firmware README): one refresh
 * cycle draws 32.8 mA for about 24 s (wake, Wi-Fi, ask the server, download, a full refresh); deep sleep about
 * 0.1 mA; a 1,800 mAh battery (2,500 mAh upgrade); charge ≈ (V − 3.0) / 0.012 %, so 4.2 V full, 3.0 V empty.
 * A wake is modelled as the radio part (24 s less the TRMNL panel's 3 s full refresh = 21 s) plus the panel's own
 * refresh time from its profile; a wake that downloads nothing (unchanged, cached, or an error) is 8 s of radio (our
 * assumption: connect and one request).
 */

export interface PowerProfile {
  capacityMah: number;
  wakeMa: number;
  /** Radio time of a wake that downloads an image, without the panel refresh. */
  downloadWakeMs: number;
  /** Radio time of a wake that downloads nothing. */
  checkWakeMs: number;
  sleepMa: number;
}

export const TRMNL_POWER: PowerProfile = {
  capacityMah: 1800,
  wakeMa: 32.8,
  downloadWakeMs: 21_000,
  checkWakeMs: 8_000,
  sleepMa: 0.1,
};

const MS_PER_HOUR = 3_600_000;

export interface PowerReading {
  /** This wake's charge, mAh. */
  wakeMah: number;
  usedMah: number;
  batteryPct: number;
  batteryVolts: number;
  /** Days a full battery lasts at the average current so far (null before any sleep). */
  estDays: number | null;
}

export class PowerModel {
  readonly profile: PowerProfile;
  #usedMah = 0;
  #awakeMs = 0;
  #sleptMs = 0;

  constructor(profile: Partial<PowerProfile> = {}) {
    this.profile = { ...TRMNL_POWER, ...profile };
  }

  /** How long a wake keeps the device awake. */
  awakeMs(downloaded: boolean, refreshMs: number): number {
    return (downloaded ? this.profile.downloadWakeMs : this.profile.checkWakeMs) + refreshMs;
  }

  /** Charges a wake; returns its charge in mAh. */
  wake(awakeMs: number): number {
    const mah = (this.profile.wakeMa * awakeMs) / MS_PER_HOUR;
    this.#usedMah += mah;
    this.#awakeMs += awakeMs;
    return mah;
  }

  /** Charges a sleep of `ms` simulated milliseconds. */
  sleep(ms: number): void {
    this.#usedMah += (this.profile.sleepMa * ms) / MS_PER_HOUR;
    this.#sleptMs += ms;
  }

  get batteryPct(): number {
    return Math.max(0, 100 * (1 - this.#usedMah / this.profile.capacityMah));
  }

  /** The Battery-Voltage the device reports: 3.0 V empty to 4.2 V full (TRMNL's percent formula, inverted). */
  get batteryVolts(): number {
    return Math.round((3 + 0.012 * this.batteryPct) * 100) / 100;
  }

  /** Days on a full battery at the average current of the wakes and sleeps so far. */
  estimateDays(): number | null {
    const total = this.#awakeMs + this.#sleptMs;
    if (this.#sleptMs === 0 || total === 0) return null;
    const avgMa = (this.#usedMah * MS_PER_HOUR) / total;
    return Math.round((this.profile.capacityMah / avgMa / 24) * 10) / 10;
  }

  /** Days for a steady pattern: one wake of `awakeMs` every `periodS` seconds. */
  static daysFor(p: PowerProfile, awakeMs: number, periodS: number): number {
    const periodMs = periodS * 1000;
    const mahPerPeriod = (p.wakeMa * awakeMs + p.sleepMa * Math.max(0, periodMs - awakeMs)) / MS_PER_HOUR;
    return p.capacityMah / ((mahPerPeriod * MS_PER_HOUR) / periodMs) / 24;
  }

  reading(wakeMah: number): PowerReading {
    return {
      wakeMah: Math.round(wakeMah * 10_000) / 10_000,
      usedMah: Math.round(this.#usedMah * 1000) / 1000,
      batteryPct: Math.round(this.batteryPct * 100) / 100,
      batteryVolts: this.batteryVolts,
      estDays: this.estimateDays(),
    };
  }
}
