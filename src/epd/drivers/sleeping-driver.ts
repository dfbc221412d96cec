import type { EpdBus } from '../bus.js';
import type { EpdDriver, PanelImage } from '../driver.js';

/**
 * What the driver of every controller family does alike: deep sleep is sent only to a controller that may be awake,
 * and close() puts it to sleep before it lets go of the bus (released even when the sleep fails). A family says how
 * it sends deep sleep (`sendSleep`) and keeps `awake` true from its first command after a reset until deep sleep.
 */
export abstract class SleepingDriver implements EpdDriver {
  abstract readonly panelId: string;
  /** The bus this driver owns (EpdDriver: one driver, one bus). */
  protected readonly bus: EpdBus;
  /** Whether the controller may be awake (between a reset and deep sleep): only then is deep sleep sent. */
  protected awake: boolean;

  /** `awake`: what the driver assumes of a controller it has not reset yet. */
  constructor(bus: EpdBus, awake: boolean) {
    this.bus = bus;
    this.awake = awake;
  }

  abstract showFull(image: PanelImage): Promise<void>;
  abstract clear(): Promise<void>;

  /** The family's deep-sleep commands (with what the vendor waits after them). */
  protected abstract sendSleep(): Promise<void>;

  async sleep(): Promise<void> {
    if (!this.awake) return;
    await this.sendSleep();
    this.awake = false;
  }

  async close(): Promise<void> {
    try {
      await this.sleep();
    } finally {
      await this.bus.close();
    }
  }
}
