import path from 'node:path';
import type { Logger } from 'pino';
import type { ButtonActionConfig, DisplayConfig } from '../config/schema.js';
import type { Publisher } from '../publish/publisher.js';
import type { ShownView } from '../state/display-views.js';
import { loadPanel, type PanelProfile } from '../panels/panels.js';
import type { Clock } from '../time/clock.js';
import type { EpdDriver, PanelImage } from './driver.js';
import type { DriverFactory } from './drivers/index.js';
import { openAttachedDriver } from './open-driver.js';
import { panelImageFromPng } from './panel-image.js';
import type { PanelProblem, PanelStatusBook } from '../state/panel-status.js';
import { PanelButtons } from './panel-buttons.js';
import { readGlassState, writeGlassState, type GlassState } from './glass-state.js';

/**
 * The panel on this machine's header, as one more publisher: each display with `attached` gets its new frames on its
 * glass. One refresh at a time per panel; never a frame already on the glass (by its hash); never sooner than the
 * panel's minimum interval after the last (several new frames within it make one refresh, of the newest); an
 * unchanged frame refreshed again after `full_refresh_hours` (ghosting); the driver puts the panel in deep sleep after
 * each refresh; stop() powers it off. publish() only hands the frame over: a slow or failing panel never holds up the
 * cycle or the other publishers, and its problem goes to the status book (status page, /healthz, Home Assistant).
 */

/** After a failed refresh the frame is tried again after this long (or with the next new frame). */
export const PANEL_RETRY_MS = 5 * 60_000;

export interface PanelPublisherOptions {
  /** The displays with an `attached` panel (others are ignored). */
  displays: readonly DisplayConfig[];
  clock: Clock;
  logger: Logger;
  /** Each display's panel profile as the config loader resolved it (LoadedConfig.panels); default: the one its `panel` names. */
  panels?: ReadonlyMap<string, PanelProfile>;
  /** Where each panel's last refresh and problem are kept for the other publishers. */
  status: PanelStatusBook;
  /** In place of each panel's own driver (tests). */
  driverFactory?: DriverFactory;
  /**
   * Where each panel's last refresh is kept (`<state_dir>/panel/<id>.json`: the frame's hash and time), so that a
   * restart does not refresh the glass with the frame it already shows; default: not kept.
   */
  stateDir?: string;
  /** What a press of a display's board button does (`attached.buttons`); absent: the buttons are not read. */
  onButton?: (displayId: string, action: ButtonActionConfig) => void;
  /** Imports node-libgpiod for the buttons in place of Node's import (tests: a stand-in for the header). */
  importer?: (lib: string) => Promise<unknown>;
}

interface Wanted {
  image: PanelImage;
  hash: string;
}

/** One attached panel's state. */
class PanelSlot {
  /** The newest frame not yet on the glass (or due again), or null. */
  wanted: Wanted | null = null;
  /** What is on the glass. */
  shown: Wanted | null = null;
  /** Monotonic time of the last refresh that succeeded or failed (the minimum interval counts from it). */
  lastAttemptMono: number | null = null;
  lastRefreshAt: string | null = null;
  problem: PanelProblem | null = null;
  /** The board's buttons, read while the daemon runs, and why they cannot be (shown while the refreshes work). */
  buttons: PanelButtons | null = null;
  buttonProblem: PanelProblem | null = null;
  driver: EpdDriver | null = null;
  running: Promise<void> | null = null;
  timer: unknown = null;
  /** The daily refresh of an unchanged frame. */
  dailyTimer: unknown = null;
  /** What the glass showed when the daemon last stopped (from the state file), until the first frame. */
  restored: GlassState | null = null;

  constructor(readonly display: DisplayConfig & { attached: NonNullable<DisplayConfig['attached']> }) {}
}

export class PanelPublisher implements Publisher {
  readonly name = 'panel';
  readonly #o: PanelPublisherOptions;
  readonly #slots = new Map<string, PanelSlot>();
  readonly #log: Logger;
  #stopped = false;

  constructor(o: PanelPublisherOptions) {
    this.#o = o;
    this.#log = o.logger.child({ part: 'panel' });
    for (const d of o.displays) {
      if (d.attached !== undefined) this.#slots.set(d.id, new PanelSlot({ ...d, attached: d.attached }));
    }
  }

  async start(): Promise<void> {
    for (const slot of this.#slots.values()) {
      slot.restored = await this.#readState(slot);
      if (slot.restored !== null) slot.lastRefreshAt = new Date(slot.restored.atMs).toISOString();
      this.#record(slot);
      await this.#startButtons(slot);
    }
  }

  async #startButtons(slot: PanelSlot): Promise<void> {
    const { onButton, importer, clock } = this.#o;
    if (onButton === undefined || slot.display.attached.buttons === undefined) return;
    slot.buttons = new PanelButtons({
      display: slot.display,
      onPress: (action) => onButton(slot.display.id, action),
      onProblem: (problem) => {
        slot.buttonProblem = problem;
        this.#record(slot);
      },
      clock,
      logger: this.#log,
      ...(importer !== undefined && { importer }),
    });
    await slot.buttons.start();
  }

  #stateFile(slot: PanelSlot): string | null {
    return this.#o.stateDir === undefined ? null : path.join(this.#o.stateDir, 'panel', `${slot.display.id}.json`);
  }

  async #readState(slot: PanelSlot): Promise<GlassState | null> {
    const file = this.#stateFile(slot);
    return file === null ? null : readGlassState(file, slot.display.panel);
  }

  async #writeState(slot: PanelSlot, hash: string, at: string): Promise<void> {
    const file = this.#stateFile(slot);
    if (file === null) return;
    try {
      await writeGlassState(file, slot.display.panel, hash, at);
    } catch (err) {
      // Only a restart's extra refresh is lost: said, not a panel problem.
      this.#log.warn(
        { display: slot.display.id, code: 'W_PANEL_STATE', err },
        "the panel's last refresh could not be saved",
      );
    }
  }

  publish(view: ShownView): Promise<void> {
    const slot = this.#slots.get(view.display.id);
    if (slot === undefined || this.#stopped) return Promise.resolve();
    const hash = view.frame.hash;
    if (slot.wanted?.hash === hash) return Promise.resolve();
    if (slot.shown?.hash === hash) {
      // Already on the glass: a newer frame that was waiting for the minimum interval is not wanted any more.
      slot.wanted = null;
      return Promise.resolve();
    }
    let image: PanelImage;
    try {
      image = panelImageFromPng(
        view.frame.png,
        this.#o.panels?.get(slot.display.id) ?? loadPanel(slot.display.panel),
        slot.display.rotation,
      );
    } catch (err) {
      this.#fail(slot, err);
      return Promise.resolve();
    }
    const restored = slot.restored;
    slot.restored = null;
    if (restored !== null && restored.hash === hash && slot.shown === null) {
      // The glass kept this frame through the restart: no refresh; the minimum interval and the daily refresh count
      // from the one before the restart.
      const c = this.#o.clock;
      const ago = Math.max(0, c.now() - restored.atMs);
      slot.shown = { image, hash };
      slot.lastAttemptMono = c.monotonic() - ago;
      this.#armDaily(slot, Math.max(0, slot.display.attached.full_refresh_hours * 3_600_000 - ago));
      this.#record(slot);
      return Promise.resolve();
    }
    slot.wanted = { image, hash };
    this.#schedule(slot);
    return Promise.resolve();
  }

  /** Runs the wanted frame now or when the minimum interval has passed; never two refreshes at once. */
  #schedule(slot: PanelSlot): void {
    if (this.#stopped || slot.running !== null || slot.wanted === null) return;
    const c = this.#o.clock;
    c.clearTimeout(slot.timer);
    slot.timer = null;
    const minMs = slot.display.attached.min_interval_s * 1000;
    const wait =
      slot.lastAttemptMono === null
        ? 0
        : slot.lastAttemptMono + (slot.problem ? Math.max(minMs, PANEL_RETRY_MS) : minMs) - c.monotonic();
    if (wait > 0) {
      slot.timer = c.setTimeout(() => {
        slot.timer = null;
        this.#schedule(slot);
      }, wait);
      return;
    }
    slot.running = this.#refresh(slot).finally(() => {
      slot.running = null;
      this.#schedule(slot);
    });
  }

  async #refresh(slot: PanelSlot): Promise<void> {
    const wanted = slot.wanted;
    if (wanted === null) return;
    slot.wanted = null;
    const c = this.#o.clock;
    slot.lastAttemptMono = c.monotonic();
    try {
      slot.driver ??= await openAttachedDriver(slot.display, {
        clock: c,
        ...(this.#o.driverFactory && { factory: this.#o.driverFactory }),
      });
      await slot.driver.showFull(wanted.image);
      // Deep sleep between refreshes: the Waveshare drivers' full refresh ends in it already (sleep() then sends
      // nothing); Pimoroni's show() ends powered off but awake, and sleep() adds the deep sleep.
      await slot.driver.sleep();
    } catch (err) {
      // Kept for the next try (a newer frame replaces it); the bus is opened anew then (a fixed group, a freed pin).
      slot.wanted ??= wanted;
      this.#fail(slot, err);
      const driver = slot.driver;
      slot.driver = null;
      await driver
        ?.close()
        .catch((e: unknown) =>
          this.#log.warn(
            { display: slot.display.id, code: 'W_PANEL_CLOSE', err: e },
            'panel could not be closed after a failure',
          ),
        );
      return;
    }
    slot.shown = wanted;
    slot.lastRefreshAt = new Date(c.now()).toISOString();
    const had = slot.problem;
    slot.problem = null;
    if (had) this.#log.info({ display: slot.display.id, panel: slot.display.panel }, 'panel works again');
    this.#log.info({ display: slot.display.id, panel: slot.display.panel, hash: wanted.hash }, 'panel refreshed');
    this.#record(slot);
    this.#armDaily(slot);
    await this.#writeState(slot, wanted.hash, slot.lastRefreshAt);
  }

  /** An unchanged frame is put on the glass again after `full_refresh_hours`, to clear ghosting. */
  #armDaily(slot: PanelSlot, inMs = slot.display.attached.full_refresh_hours * 3_600_000): void {
    const c = this.#o.clock;
    c.clearTimeout(slot.dailyTimer);
    slot.dailyTimer = c.setTimeout(() => {
      slot.dailyTimer = null;
      if (slot.wanted === null && slot.shown !== null) slot.wanted = slot.shown;
      this.#schedule(slot);
    }, inMs);
  }

  #fail(slot: PanelSlot, err: unknown): void {
    const code = (err as { code?: unknown }).code;
    const problem = {
      code: typeof code === 'string' && code.startsWith('E_') ? code : 'E_PANEL_BUS',
      message: (err as Error).message,
      since: slot.problem?.since ?? new Date(this.#o.clock.now()).toISOString(),
    };
    if (slot.problem?.message !== problem.message)
      this.#log.error(
        { display: slot.display.id, panel: slot.display.panel, code: problem.code, err },
        'panel refresh failed',
      );
    slot.problem = problem;
    this.#record(slot);
    // Tried again after the retry interval, even without a new frame.
    if (slot.wanted !== null) queueMicrotask(() => this.#schedule(slot));
  }

  #record(slot: PanelSlot): void {
    this.#o.status.set(slot.display.id, {
      panel: slot.display.panel,
      lastRefreshAt: slot.lastRefreshAt,
      shownHash: slot.shown?.hash ?? null,
      problem: slot.problem ?? slot.buttonProblem,
    });
  }

  /** For tests and `panel` commands: resolves when no refresh is running. */
  async idle(): Promise<void> {
    for (const slot of this.#slots.values()) await slot.running;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const slot of this.#slots.values()) {
      slot.buttons?.stop();
      this.#o.clock.clearTimeout(slot.timer);
      this.#o.clock.clearTimeout(slot.dailyTimer);
      // A frame still waiting for the minimum interval is not forced onto the glass by a stop.
      if (slot.timer !== null && slot.wanted !== null) {
        this.#log.info(
          { display: slot.display.id, hash: slot.wanted.hash },
          "stopping: a newer frame waited for the panel's minimum interval and is not shown",
        );
      }
    }
    await this.idle();
    // Power off on stop: the driver sleeps the panel and releases the bus (the HAT's power pin off).
    const closing = [...this.#slots.values()].map(async (slot) => {
      const driver = slot.driver;
      slot.driver = null;
      await driver?.close();
    });
    const results = await Promise.allSettled(closing);
    for (const r of results)
      if (r.status === 'rejected')
        this.#log.warn({ code: 'W_PANEL_CLOSE', err: r.reason as unknown }, 'panel could not be powered off');
  }
}
