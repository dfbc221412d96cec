/**
 * The wires between the Pi and an e-paper controller, as a driver uses them: a reset pulse, a command byte (DC low)
 * followed by its data bytes (DC high), and waits on BUSY. Two implementations: the capture bus (capture-bus.ts),
 * which writes what a logic analyser on the header would decode, and the real bus (SPI and GPIO character device).
 * Drivers (drivers/) speak only this interface, so the stream a driver sends is the same on both.
 */

/** How long RST is held at each level of a reset pulse, ms (the vendor driver's timings). */
export interface ResetPulse {
  /** High before the pulse. */
  highMs: number;
  /** Low: the reset itself. */
  lowMs: number;
  /** High after the pulse, before the first command. */
  afterMs: number;
}

/** Which level of the BUSY line means busy: the SSD16xx family drive it high while busy, the UC81xx family low. */
export type BusyLevel = 'high' | 'low';

export interface BusyWait {
  /** The level that means busy on this controller. */
  busyWhen: BusyLevel;
  /** After this many ms of busy the wait fails with E_PANEL_BUSY_TIMEOUT. */
  timeoutMs: number;
  /**
   * A status command the vendor driver sends before each read of BUSY (the UC8179's 0x71); the capture records the
   * wait once, without the polls ("the vendor's status polls aside").
   */
  pollCommand?: number;
}

export interface EpdBus {
  /** Pulses RST. */
  reset(pulse: ResetPulse): Promise<void>;
  /** Sends `cmd` with DC low, then `data` (if any) with DC high, in one chip-select frame per byte run. */
  command(cmd: number, data?: Uint8Array): Promise<void>;
  /** Waits until BUSY is idle; rejects with an EpdError E_PANEL_BUSY_TIMEOUT after `timeoutMs`. */
  waitIdle(wait: BusyWait): Promise<void>;
  /** A pause the vendor driver makes (delay_ms); the capture bus records nothing and does not wait. */
  delay(ms: number): Promise<void>;
  /** Releases the lines (and turns the HAT's power pin off where it has one). */
  close(): Promise<void>;
}
