import type { Logger } from 'pino';
import type { LoadedConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import type { PersonShown } from '../household/person-shown.js';
import type { PresenceBook } from '../household/presence-book.js';
import type { WarmthBook } from '../household/warmth-book.js';
import type { DrawFrame } from '../render/display-frame.js';
import type { DisplayViewSource } from '../state/display-views.js';
import type { PanelStatusBook } from '../state/panel-status.js';
import type { ProblemBook, ProblemSource } from '../state/problems.js';
import type { Clock } from '../time/clock.js';
import type { DeviceRegistry } from './devices.js';
import type { Publisher } from './publisher.js';

/**
 * A publisher as a plug-in: one description, exported from the publisher's own folder, that says which config section
 * it reads, when it runs, the problems it reports and how it is built. The daemon's registry
 * (src/daemon/publisher-registry.ts) lists them; adding a publisher is its folder and one line there
 * (docs/contributing/recipes.md).
 */

/** What every publisher is built with: the same for each, so that none reaches into another. */
export interface PublisherContext {
  loaded: LoadedConfig;
  logger: Logger;
  /** The daemon's clock, for every publisher's times and timers. */
  clock: Clock;
  /** Every display as the publishers show it, and the budget's figures (read only). */
  views: DisplayViewSource;
  /** A refresh press (MQTT button, the status page): through the budget's reserve, coalesced; null or `refused`: no. */
  refresh: (displayId: string) => Promise<{ refused?: boolean } | null>;
  /** Why refreshing is off (no refresh reserve), or null. */
  refreshUnavailable: string | null;
  /** The schedules that run, by display id ("auto" resolved, paced over budget). */
  schedules: ReadonlyMap<string, string>;
  /** Where a publisher reports its problems (the views read them: /healthz, state.json, the page, MQTT). */
  problems: ProblemBook;
  /** The attached panels' last refresh and problem. */
  panels: PanelStatusBook;
  /** The devices that show the displays (TRMNL, Kindle, …): who serves them says so, who announces them asks. */
  devices: DeviceRegistry;
  /** Draws a display's state for another panel (TRMNL, a tag); absent: in this process. */
  draw?: DrawFrame;
  /** Who is at home: MQTT feeds it from the people's presence topics; absent: no presence. */
  presence?: PresenceBook;
  /** The end of the display's quiet hours holding now, or null: an OpenEPaperLink push waits for it. */
  quietEnd?: (displayId: string) => number | null;

  /** The household's books (config `people`); absent: no people. */
  household?: HouseholdContext;
  /**
   * Imports an optional native library (node-libgpiod) in place of Node's import; absent: Node's. For tests: a
   * stand-in for the hardware this machine lacks.
   */
  importOptional?: (lib: string) => Promise<unknown>;
}

/** What the publishers are given of the household (docs/guides/household.md). */
export interface HouseholdContext {
  /** Each person's warmth offset: MQTT's feedback and offset topics write it, the states show it. */
  warmth: WarmthBook;
  /** Where each person is; null: not kept (every presence unknown, counted as at home). */
  presence: PresenceBook | null;
  /** What a person's newest frame shows of them; absent or null: nothing yet. */
  shown?: (personId: string) => PersonShown | null;
}

export interface PublisherPlugin {
  /** The publisher's name (as in its logs and Publisher.name). */
  readonly name: string;
  /**
   * The section of the one config schema (src/config/schema.ts) it reads, or null for none of its own; the schema
   * composes each fragment, so the config type stays the schema's.
   */
  readonly configKey: keyof Config | null;
  /** Whether the config asks for it. */
  enabled(config: Config): boolean;
  /** How the problems it reports read (source names it sets on the ProblemBook). */
  readonly problems: readonly ProblemSource[];
  /** Builds it; its code is imported only here, so a daemon that does not use it never loads it. */
  build(ctx: PublisherContext): Promise<Publisher>;
}
