import type { BusyWait, ResetPulse } from '../bus.js';
import type { EpdDriver, EpdDriverOptions, PanelImage } from '../driver.js';
import { EpdError } from '../epd-error.js';
import type { PanelProfile } from '../../panels/panels.js';
import { packPlane } from '../../render/encode/raw.js';
import { checkPanelImage } from './check-panel-image.js';
import { SleepingDriver } from './sleeping-driver.js';
import { vendorVariant } from './vendor-variant.js';

/**
 * The UC8179 family (Waveshare 7.5" V2 and 7.5" B V2): each full refresh sends exactly what Waveshare's own Python
 * driver sends for init(), display(getbuffer(frame)) (the B: display(getbuffer(black), getbuffer(red))) and sleep(),
 * the 0x71 status polls inside its ReadBusy aside. The reference is waveshareteam/e-Paper at commit 86aa993,
 * RaspberryPi_JetsonNano/python/lib/waveshare_epd/epd7in5_V2.py and epd7in5b_V2.py; the command bytes and timings
 * below are recorded from there, and test/epd/uc8179.test.ts checks the stream against the vendor code's own,
 * run under a fake epdconfig (test/tools/vendor-capture/uc8179_capture.py).
 */

/** One step of a vendor sequence: a command with its data, the vendor's pause, or its ReadBusy. */
type Step =
  | { kind: 'cmd'; cmd: number; data?: readonly number[] }
  | { kind: 'delay'; ms: number }
  | { kind: 'busy'; what: string };

/** What sets one panel of the family apart: the vendor's reset pulse, init, RAM planes and sleep. */
interface Variant {
  /** The vendor's file the stream is recorded from. */
  vendorFile: string;
  reset: ResetPulse;
  /** After the reset pulse: epdN.init(). */
  init: readonly Step[];
  /** The two RAM planes (DTM1 0x10, DTM2 0x13), each bit per palette colour name: what display() writes. */
  planes: readonly [Record<string, 0 | 1>, Record<string, 0 | 1>];
  /** epdN.sleep(). */
  sleep: readonly Step[];
  /** The vendor's delay_ms after BUSY goes idle in ReadBusy. */
  afterBusyMs: number;
}

const cmd = (c: number, ...data: number[]): Step => ({ kind: 'cmd', cmd: c, data });
const delay = (ms: number): Step => ({ kind: 'delay', ms });
const busy = (what: string): Step => ({ kind: 'busy', what });

/** 800 x 480 (TRES 0x61: HRES 0x0320, VRES 0x01e0), the same in both. */
const TRES = cmd(0x61, 0x03, 0x20, 0x01, 0xe0);

/** By the profile's `controller.vendor_driver`. */
const VARIANTS: Readonly<Record<string, Variant>> = {
  // epd7in5_V2.py: reset 20/2/20 ms; BTST, PWR, PON, PSR 0x1f (KW mode, OTP LUT), TRES, DUSPI off, CDI 0x10 0x07
  // (DDX 00: a 1 in DTM2 is black), TCON; display(): 0x10 the complement of getbuffer() (1 = white), 0x13 getbuffer()
  // itself (1 = black); sleep(): CDI 0xf7 (border floating), POF, DSLP 0xa5. ReadBusy waits 20 ms after idle.
  epd7in5_V2: {
    vendorFile: 'epd7in5_V2.py',
    reset: { highMs: 20, lowMs: 2, afterMs: 20 },
    init: [
      cmd(0x06, 0x17, 0x17, 0x28, 0x17),
      cmd(0x01, 0x07, 0x07, 0x28, 0x17),
      cmd(0x04),
      delay(100),
      busy('power on'),
      cmd(0x00, 0x1f),
      TRES,
      cmd(0x15, 0x00),
      cmd(0x50, 0x10, 0x07),
      cmd(0x60, 0x22),
    ],
    planes: [
      { black: 0, white: 1 },
      { black: 1, white: 0 },
    ],
    sleep: [cmd(0x50, 0xf7), cmd(0x02), busy('power off'), cmd(0x07, 0xa5), delay(2000)],
    afterBusyMs: 20,
  },
  // epd7in5b_V2.py: reset 200/4/200 ms; PWR, BTST, PON, PSR 0x0f (KWR mode, OTP LUT), TRES, DUSPI off, CDI 0x11 0x07
  // (DDX 01), TCON; display(): 0x10 the black picture's getbuffer() inverted back (1 = white; red pixels are white
  // in the black picture), 0x13 the red picture's getbuffer() (1 = red); sleep(): POF, DSLP 0xa5. ReadBusy: 200 ms.
  epd7in5b_V2: {
    vendorFile: 'epd7in5b_V2.py',
    reset: { highMs: 200, lowMs: 4, afterMs: 200 },
    init: [
      cmd(0x01, 0x07, 0x07, 0x3f, 0x3f),
      cmd(0x06, 0x17, 0x17, 0x28, 0x17),
      cmd(0x04),
      delay(100),
      busy('power on'),
      cmd(0x00, 0x0f),
      TRES,
      cmd(0x15, 0x00),
      cmd(0x50, 0x11, 0x07),
      cmd(0x60, 0x22),
    ],
    planes: [
      { black: 0, white: 1, red: 1 },
      { black: 0, white: 0, red: 1 },
    ],
    sleep: [cmd(0x02), busy('power off'), cmd(0x07, 0xa5), delay(2000)],
    afterBusyMs: 200,
  },
};

/** Both: write DTM1, DTM2, then DRF (0x12), the vendor's 100 ms, and ReadBusy. */
const REFRESH: readonly Step[] = [cmd(0x12), delay(100), busy('refresh')];

/** The UC8179 drives BUSY low while busy; the vendor polls with 0x71 (get status) before each read. */
const BUSY_WHEN = 'low' as const;
const STATUS_POLL = 0x71;

/** A driver for a panel whose profile names this family; another family is a programming error of the caller. */
export function createUc8179Driver(panelId: string, o: EpdDriverOptions): EpdDriver {
  return new Uc8179Driver(panelId, o);
}

/** Which controller and vendor file a panel follows (for `panel info` and docs/guides/panels.md). */
export function uc8179PanelFacts(panelId: string): { controller: string; vendorFile: string; busyWhen: 'low' } {
  const { variant } = vendorVariant(panelId, 'uc8179', 'UC8179', VARIANTS);
  return {
    controller: 'UC8179',
    vendorFile: `RaspberryPi_JetsonNano/python/lib/waveshare_epd/${variant.vendorFile}`,
    busyWhen: BUSY_WHEN,
  };
}

class Uc8179Driver extends SleepingDriver {
  readonly panelId: string;
  readonly #variant: Variant;
  readonly #profile: PanelProfile;
  readonly #busy: BusyWait;
  readonly #width: number;
  readonly #height: number;
  /** Each palette index's bit in DTM1 and in DTM2 (packPlane's lookup). */
  readonly #planeValues: [number[], number[]];
  readonly #white: number;

  constructor(panelId: string, o: EpdDriverOptions) {
    // Asleep at first: the HAT's power pin comes up with the bus, and every refresh starts with a reset pulse and the
    // vendor's init anyway.
    super(o.bus, false);
    this.panelId = panelId;
    const { profile: panel, variant } = vendorVariant(panelId, 'uc8179', 'UC8179', VARIANTS);
    this.#variant = variant;
    this.#profile = panel;
    this.#width = panel.width;
    this.#height = panel.height;
    const names = panel.palette.map((e) => e.name);
    this.#planeValues = [0, 1].map((p) =>
      names.map((n) => {
        const bit = this.#variant.planes[p]![n];
        if (bit === undefined) throw new Error(`uc8179: no RAM bit for the colour ${n} of panel ${panelId}`);
        return bit;
      }),
    ) as [number[], number[]];
    this.#white = names.indexOf('white');
    // A few times the slowest full refresh (the profile's refresh.full_ms), at least 30 s.
    this.#busy = {
      busyWhen: BUSY_WHEN,
      pollCommand: STATUS_POLL,
      timeoutMs: o.busyTimeoutMs ?? Math.max(30_000, 4 * panel.refresh.full_ms),
    };
  }

  async showFull(image: PanelImage): Promise<void> {
    checkPanelImage(this.#profile, image);
    const p0 = packPlane(image.indices, this.#width, this.#height, 1, this.#planeValues[0], 1);
    const p1 = packPlane(image.indices, this.#width, this.#height, 1, this.#planeValues[1], 1);
    await this.#guarded(async () => {
      await this.bus.reset(this.#variant.reset);
      this.awake = true;
      await this.#run(this.#variant.init);
      await this.bus.command(0x10, p0);
      await this.bus.command(0x13, p1);
      await this.#run(REFRESH);
      await this.#run(this.#variant.sleep);
      this.awake = false;
    });
  }

  /** init, both planes white, refresh, sleep: the same bytes as the vendor's Clear() (0x10 all 0xff, 0x13 all 0x00). */
  clear(): Promise<void> {
    return this.showFull({
      width: this.#width,
      height: this.#height,
      indices: new Uint8Array(this.#width * this.#height).fill(this.#white),
    });
  }

  protected async sendSleep(): Promise<void> {
    await this.#guarded(() => this.#run(this.#variant.sleep));
  }

  async #run(steps: readonly Step[]): Promise<void> {
    for (const s of steps) {
      if (s.kind === 'cmd')
        await this.bus.command(s.cmd, s.data && s.data.length > 0 ? Uint8Array.from(s.data) : undefined);
      else if (s.kind === 'delay') await this.bus.delay(s.ms);
      else await this.#wait(s.what);
    }
  }

  async #wait(what: string): Promise<void> {
    try {
      await this.bus.waitIdle(this.#busy);
    } catch (err) {
      if (err instanceof EpdError && err.code === 'E_PANEL_BUSY_TIMEOUT') {
        throw new EpdError(
          'E_PANEL_BUSY_TIMEOUT',
          `panel ${this.panelId}: BUSY stayed low (busy) for ${this.#busy.timeoutMs} ms after ${what}; the panel was reset and put to deep sleep, and the frame is kept for the next try. Check the HAT's cable and its BUSY pin, and that the panel id matches the glass`,
          { cause: err },
        );
      }
      throw err;
    }
    await this.bus.delay(this.#variant.afterBusyMs);
  }

  /**
   * Runs `body`; when BUSY never goes idle the controller is pulsed out of whatever it was doing (a reset ends a
   * refresh and leaves the power off) and put into deep sleep (DSLP 0xa5), so the glass is never left driven; the
   * error then goes to the caller, who keeps the frame.
   */
  async #guarded(body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (err) {
      if (err instanceof EpdError && err.code === 'E_PANEL_BUSY_TIMEOUT') {
        try {
          await this.bus.reset(this.#variant.reset);
          await this.bus.command(0x07, Uint8Array.of(0xa5));
          this.awake = false;
        } catch {
          // The bus itself failed as well: the first error is the one to show; the next try starts with a reset.
        }
      }
      throw err;
    }
  }
}
