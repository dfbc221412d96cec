import type { BusyLevel, ResetPulse } from '../bus.js';
import type { EpdDriverOptions, PanelImage } from '../driver.js';
import { EpdError } from '../epd-error.js';
import type { PanelProfile } from '../../panels/panels.js';
import { packPlane } from '../../render/encode/raw.js';
import { checkPanelImage } from './check-panel-image.js';
import { SleepingDriver } from './sleeping-driver.js';

/**
 * The colour controllers (ACeP 7-colour, Spectra 6) take a whole frame in one data command, 4 bits a pixel, and do
 * everything else with fixed register writes. So a family is data: the steps its vendor driver sends, run here.
 * The pixels become RAM bytes as the vendors' code does it (epd7in3f.getbuffer, inky_e673.show): rows of the panel as
 * the profile is written (no rotation), two pixels a byte, the left one in the high nibble, each pixel the native
 * value the profile's plane gives its palette index. That is exactly src/render/encode/raw.ts's packPlane for these
 * profiles (one 4-bit plane, rows of an even width), which the vendor fixtures check.
 */

/** One step of a vendor stream. `frame` is the data command that carries the picture. */
export type ColourStep =
  | { do: 'reset'; pulse: ResetPulse }
  | { do: 'cmd'; cmd: number; data?: readonly number[] }
  | { do: 'frame'; cmd: number }
  | { do: 'busy'; after: string; refresh?: true }
  | { do: 'delay'; ms: number };

export interface ColourFamily {
  /** The vendor driver this family's steps come from, for messages. */
  vendor: string;
  /** The BUSY level that means busy. */
  busyWhen: BusyLevel;
  /** Default BUSY timeout of a refresh wait, ms (a few times the vendor's refresh time). */
  refreshTimeoutMs: number;
  /** Default BUSY timeout of the other waits (reset, power on/off), ms. */
  shortTimeoutMs: number;
  /** A pause the vendor makes before every command, ms (inky_e673._send_command: 0.3 s); the capture shows none. */
  commandDelayMs: number;
  /** Wakes the controller and writes the frame, up to where the vendor's `display()`/`show()` returns. */
  show: readonly ColourStep[];
  /** Whether `show` leaves the controller in deep sleep (epd7in3f: display then sleep) or only powered off (Inky). */
  showSleeps: boolean;
  /** Deep sleep; no BUSY wait in it (it is also what a timed-out refresh ends with). */
  sleep: readonly ColourStep[];
}

export class ColourDriver extends SleepingDriver {
  readonly panelId: string;
  readonly #family: ColourFamily;
  readonly #panel: PanelProfile;
  readonly #busyTimeoutMs: number | undefined;

  constructor(panel: PanelProfile, family: ColourFamily, o: EpdDriverOptions) {
    // Awake until known otherwise: a fresh driver does not know whether the controller sleeps, so it sends sleep.
    super(o.bus, true);
    this.panelId = panel.id;
    this.#family = family;
    this.#panel = panel;
    this.#busyTimeoutMs = o.busyTimeoutMs;
  }

  /** The RAM bytes of a frame, as the vendor's code packs them. */
  ramBytes(image: PanelImage): Uint8Array {
    const p = this.#panel;
    checkPanelImage(p, image);
    const plane = p.framebuffer.planes[0]!;
    return packPlane(
      image.indices,
      p.width,
      p.height,
      plane.bits_per_pixel,
      plane.values,
      p.framebuffer.row_align_bytes,
    );
  }

  async showFull(image: PanelImage): Promise<void> {
    await this.#run(this.#family.show, this.ramBytes(image), 'showing a frame');
    this.awake = !this.#family.showSleeps;
  }

  /** The vendors' clear: every pixel white (epd7in3f.Clear's 0x11 bytes), then deep sleep. */
  async clear(): Promise<void> {
    const p = this.#panel;
    const white = p.palette.findIndex((e) => e.name === 'white');
    await this.#run(
      this.#family.show,
      this.ramBytes({ width: p.width, height: p.height, indices: new Uint8Array(p.width * p.height).fill(white) }),
      'clearing',
    );
    this.awake = !this.#family.showSleeps;
    await this.sleep();
  }

  protected async sendSleep(): Promise<void> {
    await this.#run(this.#family.sleep, null, 'going to deep sleep');
  }

  async #run(steps: readonly ColourStep[], frame: Uint8Array | null, what: string): Promise<void> {
    this.awake = true;
    try {
      for (const step of steps) await this.#step(step, frame);
    } catch (err) {
      if (!(err instanceof EpdError) || err.code !== 'E_PANEL_BUSY_TIMEOUT') throw err;
      // A controller that never finishes is reset (a busy chip takes no command) and put to deep sleep, so it does
      // not sit powered; the caller keeps the frame.
      await this.#sleepAfterTimeout();
      throw new EpdError(
        'E_PANEL_BUSY_TIMEOUT',
        `${this.panelId}: BUSY stayed ${this.#family.busyWhen} (busy) while ${what}: ${err.message}. The panel was reset and sent to deep sleep ` +
          `and the frame is kept for the next try. Check that the board sits on all 40 header pins and that the BUSY pin is the one configured`,
        { cause: err },
      );
    }
  }

  async #sleepAfterTimeout(): Promise<void> {
    try {
      const reset = this.#family.show.find((s) => s.do === 'reset');
      for (const step of [...(reset ? [reset] : []), ...this.#family.sleep]) await this.#step(step, null);
      this.awake = false;
    } catch {
      // the timeout is the error worth reporting; a bus that also fails the sleep command is in it as its cause
    }
  }

  async #step(step: ColourStep, frame: Uint8Array | null): Promise<void> {
    const bus = this.bus;
    switch (step.do) {
      case 'reset':
        return bus.reset(step.pulse);
      case 'cmd':
        if (this.#family.commandDelayMs > 0) await bus.delay(this.#family.commandDelayMs);
        return bus.command(step.cmd, step.data === undefined ? undefined : Uint8Array.from(step.data));
      case 'frame':
        if (frame === null) throw new Error(`${this.panelId}: a frame step with no frame`);
        if (this.#family.commandDelayMs > 0) await bus.delay(this.#family.commandDelayMs);
        return bus.command(step.cmd, frame);
      case 'busy': {
        const f = this.#family;
        const timeoutMs = this.#busyTimeoutMs ?? (step.refresh ? f.refreshTimeoutMs : f.shortTimeoutMs);
        try {
          return await bus.waitIdle({ busyWhen: f.busyWhen, timeoutMs });
        } catch (err) {
          if (err instanceof EpdError && err.code === 'E_PANEL_BUSY_TIMEOUT') {
            throw new EpdError('E_PANEL_BUSY_TIMEOUT', `after ${step.after}, for ${timeoutMs} ms`, { cause: err });
          }
          throw err;
        }
      }
      case 'delay':
        return bus.delay(step.ms);
    }
  }
}
