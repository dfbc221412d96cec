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

/**
 * TRMNL X. Capacity: the lower end of "a 5000-7000 mAh battery" (the awesome-TRMNL list, github.com/eindpunt/
 * awesome-TRMNL; TRMNL's own pages we could reach give no figure). Currents: assumption, not a measurement: the
 * ESP32-S3 with PSRAM and the 10.3" panel's driver draw about twice the original's 32.8 mA while awake, and a
 * download of an image up to 750 KB keeps the radio up longer (30 s rather than 21 s); deep sleep as the original.
 */
export const TRMNL_X_POWER: PowerProfile = {
  capacityMah: 5000,
  wakeMa: 65,
  downloadWakeMs: 30_000,
  checkWakeMs: 8_000,
  sleepMa: 0.1,
};

/**
 * A Kindle Paperwhite on the online-screensaver extension. Assumption, not a measurement: a 1,420 mAh cell (the
 * figure commonly given for the Paperwhite 3), about 100 mA awake with Wi-Fi for a 15 s wake, and about 1.5 mA in
 * its suspend with the RTC alarm armed: a Kindle never sleeps as deeply as an ESP32.
 */
export const KINDLE_POWER: PowerProfile = {
  capacityMah: 1420,
  wakeMa: 100,
  downloadWakeMs: 15_000,
  checkWakeMs: 8_000,
  sleepMa: 1.5,
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
  /** What was used before the run (a battery not full at the start); not counted in the estimate of days. */
  readonly #spentMah: number;
  #awakeMs = 0;
  #sleptMs = 0;

  /** `startPct`: the charge at the start (default 100). */
  constructor(profile: Partial<PowerProfile> = {}, startPct = 100) {
    this.profile = { ...TRMNL_POWER, ...profile };
    this.#spentMah = this.profile.capacityMah * (1 - Math.min(100, Math.max(0, startPct)) / 100);
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
    return Math.max(0, 100 * (1 - (this.#spentMah + this.#usedMah) / this.profile.capacityMah));
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
